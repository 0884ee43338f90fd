import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

async function waitFor(url: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok) return
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${url} did not answer in time`)
}

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
    await waitFor(`${providerUrl}healthz/`)
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
  await waitFor(`${baseURL}/healthz`)

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
