/**
 * The real floors: bare Remix v2 apps built with the product's own node_modules (so the same
 * versions and future flags) into a temporary folder and served by remix-serve on a free loopback
 * port. What the product loads beyond them is what the product itself costs.
 *
 * - `one-route` (bench/floor): a root with Meta, Links and Scripts, one route with no loader.
 * - `same-routes` (issue 43): the same root, and an app/routes that mirrors the product's route
 *   files (the same file names, so flat routes gives the same tree), every module an empty
 *   component with no loader: what Remix v2 itself costs for a tree of this size (it flattens and
 *   ranks every route on each `matchRoutes` call, decision 0042).
 *
 * Each is built in its own folder (its app copied or generated there, built with
 * bench/floor/vite.config.mjs) and remix-serve runs in that same folder: the build records its
 * assets' folder relative to the folder it was built in, so serving from any other (the clone's
 * bench/floor, wherever the clone lives) answers every asset 404.
 */
import { execFileSync, spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import dev from '@remix-run/dev'
import { root } from '../../scripts/lib/build.mjs'
import { freePort, waitFor } from '../../scripts/lib/net.mjs'
import { stopChild } from './instance.mjs'

const floorDir = path.join(root, 'bench/floor')
/** The product's route files as its app/routes.ts reads them (flatRoutes with these ignored). */
const IGNORED_ROUTE_FILES = ['**/*.test.{ts,tsx}', '**/.*']
/** Every module of the same-routes floor: renders its child route, if any, and nothing else. */
const EMPTY_ROUTE = "import { Outlet } from '@remix-run/react'\nimport { createElement } from 'react'\n\nexport default function Route() {\n  return createElement(Outlet)\n}\n"
const SAME_ROUTES_CONFIG = "import { flatRoutes } from '@remix-run/fs-routes'\n\nexport default flatRoutes({ ignoredRouteFiles: " + JSON.stringify(IGNORED_ROUTE_FILES) + ' })\n'

/** The route tree flat routes makes of an app folder: id → { path, index, parentId, file }. */
export function routeTreeOf(appDirectory) {
  return dev.UNSAFE_flatRoutes(appDirectory, IGNORED_ROUTE_FILES, 'routes')
}

/** Writes the same-routes floor's app/routes (and routes.ts) into `appDir`, from the product's app/; returns how many route files. */
export function writeSameRoutes(appDir, productAppDir = path.join(root, 'app')) {
  rmSync(path.join(appDir, 'routes'), { recursive: true, force: true })
  const files = Object.values(routeTreeOf(productAppDir)).map((route) => route.file)
  for (const file of files) {
    mkdirSync(path.dirname(path.join(appDir, file)), { recursive: true })
    writeFileSync(path.join(appDir, file), EMPTY_ROUTE)
  }
  writeFileSync(path.join(appDir, 'routes.ts'), SAME_ROUTES_CONFIG)
  return files.length
}

/**
 * Builds a floor (`one-route` or `same-routes`) in a new temporary folder; returns the folder,
 * how many routes its app has, and how to remove it.
 */
export function buildFloor({ kind = 'one-route' } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), `innera-floor-${kind}-`))
  try {
    // The app and the server build import react and Remix by name: resolved from the product's node_modules.
    writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "sideEffects": false }\n')
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir')
    cpSync(path.join(floorDir, 'app'), path.join(dir, 'app'), { recursive: true })
    const routes = kind === 'same-routes' ? writeSameRoutes(path.join(dir, 'app')) : 1
    execFileSync(process.execPath, [path.join(root, 'node_modules/@remix-run/dev/dist/cli.js'), 'vite:build', '--config', path.join(floorDir, 'vite.config.mjs')], {
      cwd: dir,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    return { kind, dir, routes, remove: () => rmSync(dir, { recursive: true, force: true }) }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}

/**
 * Serves a built floor with remix-serve (its request log goes nowhere), in the folder it was
 * built in, and checks that its page's scripts answer before handing it over.
 */
export async function startFloor(dir, { checkPath = '/' } = {}) {
  const port = await freePort()
  const child = spawn(process.execPath, [path.join(root, 'node_modules/@remix-run/serve/dist/cli.js'), path.join(dir, 'build/server/index.js')], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  })
  const baseURL = `http://127.0.0.1:${port}`
  try {
    await waitFor(`${baseURL}${checkPath}`, { child })
    await checkAssets(`${baseURL}${checkPath}`)
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

/** Fails unless the page's module scripts (its entry and route chunks) answer 200: a page whose assets 404 never hydrates. */
export async function checkAssets(pageURL) {
  const html = await (await fetch(pageURL)).text()
  const scripts = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((match) => match[1])
  if (scripts.length === 0) throw new Error(`${pageURL}: no module scripts in the page`)
  for (const script of scripts) {
    const response = await fetch(new URL(script, pageURL))
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`${pageURL}: its script ${script} answered ${response.status}`)
  }
  return scripts
}
