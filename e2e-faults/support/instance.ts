import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { FaultProxy } from './fault-proxy.ts'

/** The app's provider timeout in this suite: the 'slow' fault waits longer than this. */
export const PROVIDER_TIMEOUT_MS = 2_000
/** Known to the tests so that they can read and re-sign the (signed, not encrypted) session cookie. */
export const SESSION_SECRET = 'faults-suite-session-secret-long-enough-to-sign'

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

async function waitFor(url: string, child: ChildProcess, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited (${child.exitCode}) before answering`)
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok) return
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${url} did not answer in time`)
}

export type FaultInstance = Awaited<ReturnType<typeof startFaultInstance>>

/**
 * One worker's private product: the embedded provider (in-memory database), the fault proxy in
 * front of it, and the built app talking to the proxy. Every process's output goes to a file,
 * so the suite can check that no token ever reaches a log line.
 */
export async function startFaultInstance() {
  const buildDir = process.env.FAULTS_BUILD_DIR
  if (!buildDir) throw new Error('FAULTS_BUILD_DIR is unset: run through playwright.faults.config.ts')
  const [appPort, providerPort] = await Promise.all([freePort(), freePort()])
  const logDir = mkdtempSync(path.join(tmpdir(), 'innera-faults-'))
  const logFiles = ['provider.out', 'provider.err', 'app.out', 'app.err'].map((name) => path.join(logDir, `${name}.log`))
  const fds = logFiles.map((file) => openSync(file, 'a'))
  const baseURL = `http://localhost:${appPort}`
  const providerURL = `http://127.0.0.1:${providerPort}/`
  const children: ChildProcess[] = []

  const provider = spawn(process.execPath, ['build/provider/index.js'], {
    cwd: buildDir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PROVIDER_PORT: String(providerPort),
      PROVIDER_HOST: '127.0.0.1',
      PROVIDER_DATA_DIR: 'memory://',
      PROVIDER_JWT_SECRET: 'faults-suite-provider-jwt-secret-long-enough',
      PROVIDER_PUBLIC_URL: providerURL.replace(/\/$/, ''),
      APP_PUBLIC_URL: baseURL,
      FAKE_GOOGLE: 'off',
      DEV_MAILBOX: 'on',
      THROTTLE_DISABLED: '1',
    },
    stdio: ['ignore', fds[0], fds[1]],
  })
  children.push(provider)
  let proxy: FaultProxy | undefined
  try {
    await waitFor(`${providerURL}healthz/`, provider)
    proxy = await FaultProxy.start(providerURL)
    const app = spawn(process.execPath, ['build/http/server.js'], {
      cwd: buildDir,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(appPort),
        PROVIDER_API_URL: proxy.url,
        PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
        SESSION_SECRET,
        // Left unset on purpose: in production the session cookie must then be Secure.
        SESSION_COOKIE_SECURE: '',
        APP_PUBLIC_URL: baseURL,
        // Every request and every provider call is logged: all of it is searched for tokens.
        LOG_LEVEL: 'debug',
      },
      stdio: ['ignore', fds[2], fds[3]],
    })
    children.push(app)
    await waitFor(`http://127.0.0.1:${appPort}/healthz`, app)
  } catch (error) {
    for (const child of children) child.kill('SIGKILL')
    await proxy?.close()
    throw error
  }

  return {
    baseURL,
    providerURL,
    proxy: proxy!,
    /** Everything the app and the provider have written so far. */
    logs() {
      return logFiles.map((file) => readFileSync(file, 'utf8')).join('\n')
    },
    async close() {
      await proxy!.close()
      await Promise.all(
        children.map(async (child) => {
          if (child.exitCode !== null || child.signalCode !== null) return
          const exited = new Promise((resolve) => child.once('exit', resolve))
          child.kill('SIGTERM')
          const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
          await exited
          clearTimeout(timer)
        }),
      )
      for (const fd of fds) closeSync(fd)
      rmSync(logDir, { recursive: true, force: true })
    },
  }
}
