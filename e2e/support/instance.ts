import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort, waitFor } from '../../scripts/lib/net.mjs'

/**
 * A private copy of the product (built app + embedded provider, own ports and database) for tests
 * that must stop and restart the provider without disturbing the shared server.
 */
export async function startInstance(env: Record<string, string> = {}) {
  const [appPort, providerPort] = await Promise.all([freePort(), freePort()])
  const dataDir = mkdtempSync(path.join(tmpdir(), 'innera-e2e-instance-'))
  const providerUrl = `http://127.0.0.1:${providerPort}/`
  const providerEnv = {
    ...process.env,
    PROVIDER_PORT: String(providerPort),
    PROVIDER_HOST: '127.0.0.1',
    PROVIDER_DATA_DIR: path.join(dataDir, 'provider'),
    PROVIDER_JWT_SECRET: 'e2e-instance-secret-that-is-long-enough',
    APP_PUBLIC_URL: `http://localhost:${appPort}`,
    LOG_LEVEL: 'error',
    THROTTLE_DISABLED: '1',
    ...env,
  }
  let provider: ChildProcess | undefined
  const startProvider = async () => {
    provider = spawn(process.execPath, ['build/provider/index.js'], { env: providerEnv, stdio: 'ignore' })
    await waitFor(`${providerUrl}healthz/`, { timeoutMs: 60_000 })
  }
  await startProvider()
  const app = spawn(process.execPath, ['build/http/server.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(appPort),
      PROVIDER_API_URL: providerUrl,
      PROVIDER_TIMEOUT_MS: '3000',
      SESSION_SECRET: 'e2e-instance-session-secret-long-enough-to-sign',
      LOG_LEVEL: 'error',
      ...env,
    },
    stdio: 'ignore',
  })
  const baseURL = `http://localhost:${appPort}`
  await waitFor(`${baseURL}/healthz`, { timeoutMs: 60_000 })

  return {
    baseURL,
    async stopProvider() {
      const exited = new Promise((resolve) => provider?.once('exit', resolve))
      provider?.kill('SIGTERM')
      await exited
    },
    startProvider,
    async close() {
      provider?.kill('SIGTERM')
      app.kill('SIGTERM')
      await new Promise((resolve) => setTimeout(resolve, 300))
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
