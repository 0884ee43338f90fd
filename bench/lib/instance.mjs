/**
 * A private copy of the product for one benchmark: the built app and the embedded provider (in-memory
 * database) on free loopback ports, their output written to files so that the benchmark can read the
 * provider's request log and look for tokens. Nothing listens on anything but 127.0.0.1.
 */
import { spawn } from 'node:child_process'
import { closeSync, cpSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { root } from '../../scripts/lib/build.mjs'
import { freePort, waitFor } from '../../scripts/lib/net.mjs'
import { throwawayDatabase } from './database.mjs'

export { freePort, root }

/**
 * A private copy of the build, so that someone rebuilding the shared checkout during a run cannot
 * pull the files from under the measured server (404s on assets, a half-written bundle). The app
 * resolves everything from its own location, so build/ with package.json, the migrations and a
 * link to node_modules beside it is enough.
 */
/** The instances' provider signs with this (bench/video-range.mjs signs media addresses with it too). */
export const BENCH_JWT_SECRET = 'bench-instance-jwt-secret-that-is-long-enough'

export function snapshotBuild() {
  const dir = mkdtempSync(path.join(tmpdir(), 'innera-build-'))
  cpSync(path.join(root, 'build'), path.join(dir, 'build'), { recursive: true })
  cpSync(path.join(root, 'package.json'), path.join(dir, 'package.json'))
  cpSync(path.join(root, 'server/db/migrations'), path.join(dir, 'server/db/migrations'), { recursive: true })
  // The lessons' videos and the materials' PDFs, found beside the migrations (server/courses/seed.ts, server/products/materials.ts).
  cpSync(path.join(root, 'server/media'), path.join(dir, 'server/media'), { recursive: true })
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir')
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

const running = new Set()
/** Stops every instance still running (the benchmark's time limit, Ctrl-C). */
export function killAll() {
  for (const child of running) child.kill('SIGKILL')
}

/**
 * Also used by the fault suite (e2e-faults/support/instance.ts), which puts its proxy between the
 * two (`providerVia`) and serves the app as http://localhost (a secure context for Secure cookies).
 * `databaseServer` (a PostgreSQL URL) runs the provider on a throwaway database there instead of
 * its in-memory PGlite, dropped at close.
 * @param {{ providerEnv?: Record<string,string>, appEnv?: Record<string,string>, name?: string, buildDir?: string, appNodeArgs?: string[], providerNodeArgs?: string[], host?: string, providerVia?: (providerURL: string) => Promise<string>, databaseServer?: string }} options
 */
export async function startInstance({
  providerEnv = {},
  appEnv = {},
  name = 'bench',
  buildDir = root,
  appNodeArgs = [],
  providerNodeArgs = [],
  host = '127.0.0.1',
  providerVia = async (url) => url,
  databaseServer,
} = {}) {
  const database = databaseServer ? await throwawayDatabase(databaseServer) : undefined
  try {
    return await startProcesses({ providerEnv: database ? { ...providerEnv, DATABASE_URL: database.url } : providerEnv, appEnv, name, buildDir, appNodeArgs, providerNodeArgs, host, providerVia, database })
  } catch (error) {
    await database?.drop().catch(() => undefined)
    throw error
  }
}

/**
 * One built provider on a loopback port (a free one unless `port`), with its in-memory database
 * unless `env` names another (DATABASE_URL), its output to `stdout` and `stderr` (file
 * descriptors, or 'ignore'); resolves once it answers /healthz/. bench/message-delivery.mjs runs
 * two of these on one PostgreSQL.
 * @param {{ buildDir?: string, port?: number, env?: Record<string,string>, nodeArgs?: string[], stdout?: number | 'ignore', stderr?: number | 'ignore' }} options
 */
export async function startProvider({ buildDir = root, port, env = {}, nodeArgs = [], stdout = 'ignore', stderr = 'ignore' } = {}) {
  const providerPort = port ?? (await freePort())
  const url = `http://127.0.0.1:${providerPort}/`
  const child = spawn(process.execPath, [...nodeArgs, 'build/provider/index.js'], {
    cwd: buildDir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PROVIDER_PORT: String(providerPort),
      PROVIDER_HOST: '127.0.0.1',
      PROVIDER_DATA_DIR: 'memory://',
      PROVIDER_JWT_SECRET: BENCH_JWT_SECRET,
      PROVIDER_PUBLIC_URL: url.replace(/\/$/, ''),
      FAKE_GOOGLE: 'off',
      DEV_MAILBOX: 'off',
      THROTTLE_DISABLED: '1',
      ...env,
    },
    stdio: ['ignore', stdout, stderr],
  })
  running.add(child)
  child.once('exit', () => running.delete(child))
  try {
    await waitFor(`${url}healthz/`, { child })
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  return { url, child }
}

async function startProcesses({ providerEnv, appEnv, name, buildDir, appNodeArgs, providerNodeArgs, host, providerVia, database }) {
  const [appPort, providerPort] = await Promise.all([freePort(), freePort()])
  const dir = mkdtempSync(path.join(tmpdir(), `innera-${name}-`))
  const providerURL = `http://127.0.0.1:${providerPort}/`
  const baseURL = `http://${host}:${appPort}`
  const files = {
    providerOut: path.join(dir, 'provider.out.log'),
    providerErr: path.join(dir, 'provider.err.log'),
    appOut: path.join(dir, 'app.out.log'),
    appErr: path.join(dir, 'app.err.log'),
  }
  const fds = Object.fromEntries(Object.entries(files).map(([key, file]) => [key, openSync(file, 'a')]))

  const { child: provider } = await startProvider({
    buildDir,
    port: providerPort,
    env: { APP_PUBLIC_URL: baseURL, ...providerEnv },
    nodeArgs: providerNodeArgs,
    stdout: fds.providerOut,
    stderr: fds.providerErr,
  })

  let appProviderURL
  try {
    appProviderURL = await providerVia(providerURL)
  } catch (error) {
    provider.kill('SIGKILL')
    throw error
  }
  const app = spawn(process.execPath, [...appNodeArgs, 'build/http/server.js'], {
    cwd: buildDir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(appPort),
      PROVIDER_API_URL: appProviderURL,
      SESSION_SECRET: 'bench-instance-session-secret-long-enough-to-sign',
      APP_PUBLIC_URL: baseURL,
      LOG_LEVEL: 'info',
      // The load generator is one address with up to hundreds of connections (the soak).
      APP_MAX_CONNECTIONS_PER_ADDRESS: '100000',
      // The bench's own pages (/bench/bare) exist only when asked for.
      APP_BENCH_ROUTES: 'on',
      ...appEnv,
    },
    stdio: ['ignore', fds.appOut, fds.appErr],
  })
  running.add(app)
  app.once('exit', () => running.delete(app))
  try {
    await waitFor(`http://127.0.0.1:${appPort}/healthz`, { child: app })
  } catch (error) {
    app.kill('SIGKILL')
    provider.kill('SIGKILL')
    throw error
  }

  const stop = stopChild
  return {
    baseURL,
    providerURL,
    appPid: app.pid,
    providerPid: provider.pid,
    dir,
    files,
    read(which) {
      return existsSync(files[which]) ? readFileSync(files[which], 'utf8') : ''
    },
    async close() {
      await Promise.all([stop(app), stop(provider)])
      for (const fd of Object.values(fds)) closeSync(fd)
      rmSync(dir, { recursive: true, force: true })
      await database?.drop()
    },
  }
}

/** Stops a child process: SIGTERM, then SIGKILL after 5 s; resolves once it has exited. */
export async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}

/** Resident memory of a process in bytes (VmRSS of /proc/PID/status). */
export function residentMemory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)
  return match ? Number(match[1]) * 1024 : null
}

/**
 * Signs in with the real form endpoint (form-encoded POST, as a browser without JavaScript) and
 * returns the cookies to send as a Cookie header.
 */
export async function signIn(baseURL, email, password = 'innera-demo-2025') {
  const response = await fetch(`${baseURL}/auth?mode=login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: baseURL },
    body: new URLSearchParams({ email, password }),
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  })
  if (response.status !== 303) throw new Error(`sign-in as ${email} answered ${response.status}`)
  const cookies = response.headers.getSetCookie().map((line) => line.split(';')[0])
  if (!cookies.some((cookie) => cookie.startsWith('__session='))) throw new Error('sign-in set no session cookie')
  return cookies.join('; ')
}
