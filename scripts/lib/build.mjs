/**
 * Whether the production build is there and newer than the sources, and building it when it is
 * not: shared by `npm start`, `npm run bench` and the fault suite.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const SOURCES = ['app', 'server', 'locales', 'public', 'package.json', 'package-lock.json', 'vite.config.ts']
export const BUILD_OUTPUTS = ['build/server/index.js', 'build/http/server.js', 'build/provider/index.js', 'build/provider/backup.js']
const stamp = path.join(root, 'build', '.stamp')

function newestSourceTime() {
  let newest = 0
  const visit = (target) => {
    if (!existsSync(target)) return
    const stats = statSync(target)
    if (stats.isDirectory()) {
      for (const entry of readdirSync(target)) {
        if (entry === 'node_modules' || entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue
        visit(path.join(target, entry))
      }
    } else newest = Math.max(newest, stats.mtimeMs)
  }
  for (const entry of SOURCES) visit(path.join(root, entry))
  return newest
}

/** 'fresh', 'stale' (sources changed since) or 'missing' (some output or the stamp is absent). */
export function buildState() {
  const complete = BUILD_OUTPUTS.every((output) => existsSync(path.join(root, output))) && existsSync(stamp)
  if (!complete) return 'missing'
  return statSync(stamp).mtimeMs >= newestSourceTime() ? 'fresh' : 'stale'
}

/** Builds unless the build is fresh; returns false when the build failed. */
export function ensureBuild({ log, env = process.env }) {
  const state = buildState()
  if (state === 'fresh') return true
  log(state === 'stale' ? 'sources changed since the last build: building…' : 'no build yet: building…')
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit', env })
  if (result.status !== 0) return false
  writeFileSync(stamp, new Date().toISOString() + '\n')
  return true
}
