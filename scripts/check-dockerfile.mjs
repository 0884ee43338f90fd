#!/usr/bin/env node
/**
 * What `docker build .` sends: the one part of the container that scripts/container.mjs cannot
 * see by running the image. The engine builds and runs the image (installs, build, user, volume,
 * HEALTHCHECK, stop), but a secret or a local database sent in the build context leaves no trace
 * in a working image. So this applies .dockerignore with Docker's rules to the project's files and
 * fails when any of these would be sent:
 *
 *   - node_modules, build, data, .env (and .env.*, but .env.example), .git, at the top;
 *   - anything git ignores that is here now (a local .env.local, a data/ folder, logs, reports):
 *     git ignores what must not leave this machine, and Docker does not read .gitignore.
 *
 * It also fails when the Dockerfile's Node and the one scripts/node24.mjs tests on differ (decision
 * 0016: the two change together), when the HEALTHCHECK does not ask /readyz, or when the image
 * binds the metrics ports beyond loopback (decision 0089).
 *
 * Usage: node scripts/check-dockerfile.mjs. Plain Node, no dependencies; takes well under a second.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const MUST_BE_EXCLUDED = ['node_modules', 'build', 'data', '.env', '.env.production', '.git']
const MUST_BE_SENT = ['package.json', 'package-lock.json', '.env.example']

/** Docker's .dockerignore rules: paths from the context's root, last match wins, `!` re-includes, an excluded folder excludes what it holds. */
function dockerignoreMatcher(text) {
  const rules = []
  for (let line of text.split(/\r?\n/)) {
    line = line.trim()
    if (!line || line.startsWith('#')) continue
    const negate = line.startsWith('!')
    if (negate) line = line.slice(1).trim()
    line = path.posix.normalize(line.replace(/^\/+/, '')).replace(/\/+$/, '')
    if (line === '.' || line === '') continue
    rules.push({ negate, regex: globToRegExp(line) })
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

/** Go's filepath.Match plus `**`, as Docker reads .dockerignore. */
function globToRegExp(glob) {
  const escapeChar = (char) => char.replace(/[.+^${}()|\\]/g, '\\$&')
  let source = ''
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]
    if (char === '*' && glob[index + 1] === '*') {
      index++
      if (glob[index + 1] === '/') {
        index++
        source += '(?:.*/)?'
      } else source += '.*'
    } else if (char === '*') source += '[^/]*'
    else if (char === '?') source += '[^/]'
    else if (char === '[' && glob.indexOf(']', index + 1) !== -1) {
      const close = glob.indexOf(']', index + 1)
      const inner = glob.slice(index + 1, close)
      source += `[${inner.startsWith('!') ? '^' + inner.slice(1) : inner}]`
      index = close
    } else if (char === '\\' && index + 1 < glob.length) source += escapeChar(glob[++index])
    else source += escapeChar(char)
  }
  return new RegExp(`^${source}$`)
}

/** What git ignores here now (folders once, with a trailing slash dropped); null outside a git checkout. */
function gitIgnored() {
  const result = spawnSync('git', ['-C', root, 'ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], { encoding: 'utf8' })
  if (result.status !== 0) return null
  return result.stdout.split('\0').filter(Boolean).map((entry) => entry.replace(/\/$/, ''))
}

function main() {
  const ignored = dockerignoreMatcher(readFileSync(path.join(root, '.dockerignore'), 'utf8'))
  const problems = []
  const sent = MUST_BE_EXCLUDED.filter((entry) => !ignored(entry))
  if (sent.length) problems.push(`.dockerignore lets these into the build context: ${sent.join(', ')}`)
  const dropped = MUST_BE_SENT.filter((entry) => ignored(entry))
  if (dropped.length) problems.push(`.dockerignore keeps out what the build needs or documents: ${dropped.join(', ')}`)
  const gitIgnoredHere = gitIgnored()
  const leaking = (gitIgnoredHere ?? []).filter((entry) => !ignored(entry))
  if (leaking.length) problems.push(`git ignores these, but docker build would send them (add them to .dockerignore): ${leaking.join(', ')}`)

  const imageNode = /^ARG NODE_VERSION=(\S+)$/m.exec(readFileSync(path.join(root, 'Dockerfile'), 'utf8'))?.[1]
  const testedNode = /^const NODE24_VERSION = '([^']+)'$/m.exec(readFileSync(path.join(root, 'scripts', 'node24.mjs'), 'utf8'))?.[1]
  if (!imageNode || imageNode !== testedNode) problems.push(`the Dockerfile's Node (${imageNode ?? 'not found'}) and scripts/node24.mjs's (${testedNode ?? 'not found'}) must be the same version`)

  // Decision 0089: the HEALTHCHECK asks the readiness answer; the metrics ports stay on the
  // container's loopback (no METRICS_HOST in the image) until the operator names an interface.
  const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8')
  const healthcheck = /^HEALTHCHECK\b(?:[^\n]*\\\n)*[^\n]*/m.exec(dockerfile)?.[0] ?? ''
  if (!healthcheck.includes("'/readyz'")) problems.push('the HEALTHCHECK must ask /readyz (decision 0089)')
  if (/^(?!\s*#).*\b(?:PROVIDER_)?METRICS_HOST=/m.test(dockerfile)) problems.push('the Dockerfile must not set METRICS_HOST or PROVIDER_METRICS_HOST: the metrics stay on loopback unless the operator says (decision 0089)')

  if (problems.length) {
    console.error(`[dockerignore] FAILED:\n  ${problems.join('\n  ')}`)
    process.exitCode = 1
    return
  }
  const gitNote = gitIgnoredHere === null ? 'not a git checkout, so only the fixed list' : `and the ${gitIgnoredHere.length} entries git ignores here (${gitIgnoredHere.join(', ') || 'none'})`
  console.log(`[dockerignore] ok: the build context leaves out ${MUST_BE_EXCLUDED.join(', ')} ${gitNote}; it keeps ${MUST_BE_SENT.join(', ')}; the image's Node is the tested one (${imageNode}); the HEALTHCHECK asks /readyz, the metrics ports stay on loopback`)
}

main()
