#!/usr/bin/env node
/**
 * `npm run backup` and `npm run restore` (decision 0090): server/backup/cli.ts, from the sources
 * where the development packages are installed (a checkout), else the build's
 * build/provider/backup.js (the container, which has no sources). The .env beside package.json is
 * read as `npm start` reads it, so both find the same data folder.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
if (existsSync(path.join(root, '.env'))) {
  const fromProcess = { ...process.env }
  process.loadEnvFile(path.join(root, '.env'))
  Object.assign(process.env, fromProcess)
}
const env = { ...process.env }
for (const [name, value] of Object.entries(env)) if (value === '') delete env[name]

const fromSources = env.NO_BUILD !== '1' && existsSync(path.join(root, 'node_modules', 'tsx'))
const built = path.join(root, 'build', 'provider', 'backup.js')
if (!fromSources && !existsSync(built)) {
  console.error('[innera] build/provider/backup.js is missing: run npm run build first.')
  process.exit(1)
}
const args = fromSources ? ['--import', 'tsx', 'server/backup/cli.ts'] : [built]
const child = spawn(process.execPath, [...args, ...process.argv.slice(2)], { cwd: root, env, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
