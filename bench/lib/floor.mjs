/**
 * The real floor: a bare Remix v2 app (bench/floor: a root with Meta, Links and Scripts, one route
 * with no loader), built with the product's own node_modules (so the same versions and future
 * flags) into a temporary folder and served by remix-serve on a free loopback port. What the
 * product loads beyond it is what the product itself costs.
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { root } from '../../scripts/lib/build.mjs'
import { freePort, waitFor } from '../../scripts/lib/net.mjs'
import { stopChild } from './instance.mjs'

const floorDir = path.join(root, 'bench/floor')

/** Builds the bare app; returns where, and how to remove it. */
export function buildFloor() {
  const dir = mkdtempSync(path.join(tmpdir(), 'innera-floor-'))
  execFileSync(process.execPath, [path.join(root, 'node_modules/@remix-run/dev/dist/cli.js'), 'vite:build'], {
    cwd: floorDir,
    env: { ...process.env, NODE_ENV: 'production', FLOOR_BUILD_DIR: path.join(dir, 'build') },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  // The server build imports react and Remix by name: resolved from the product's node_modules.
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n')
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir')
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Serves a built floor with remix-serve (its request log goes nowhere). */
export async function startFloor(dir) {
  const port = await freePort()
  const child = spawn(process.execPath, [path.join(root, 'node_modules/@remix-run/serve/dist/cli.js'), 'build/server/index.js'], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  })
  const baseURL = `http://127.0.0.1:${port}`
  try {
    await waitFor(`${baseURL}/`, { child })
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  return {
    baseURL,
    pid: child.pid,
    close: () => stopChild(child),
  }
}
