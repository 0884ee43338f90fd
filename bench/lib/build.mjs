import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { root } from './instance.mjs'

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
  for (const entry of ['app', 'server', 'locales', 'public', 'package.json', 'package-lock.json', 'vite.config.ts']) visit(path.join(root, entry))
  return newest
}

/** The benchmarks measure the production build: build it when it is missing or older than the sources (as `npm start` does). */
export function ensureBuild({ log }) {
  const stamp = path.join(root, 'build', '.stamp')
  const outputs = ['build/server/index.js', 'build/http/server.js', 'build/provider/index.js'].map((file) => path.join(root, file))
  const fresh = outputs.every((file) => existsSync(file)) && existsSync(stamp) && statSync(stamp).mtimeMs >= newestSourceTime()
  const hasBare = fresh && readFileSync(outputs[0], 'utf8').includes('"routes/bench.bare"')
  if (fresh && hasBare) return
  log('building the app (npm run build)…')
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) throw new Error('the build failed')
  writeFileSync(stamp, new Date().toISOString() + '\n')
}
