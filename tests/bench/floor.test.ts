import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { providerMock } from '#tests/mocks/provider.ts'
import type * as FloorModule from '../../bench/lib/floor.mjs'

const root = path.resolve(import.meta.dirname, '../..')

/**
 * A clone under the system temp folder, with what the floors need (bench/, scripts/lib/, the app's
 * root and route files; node_modules linked): issue 43's clone in `$(mktemp -d)`, where remix-serve started
 * in the wrong folder answered every asset 404.
 */
function cloneUnderTmp() {
  const clone = path.join(mkdtempSync(path.join(tmpdir(), 'innera-clone-')), 'innera')
  for (const folder of ['bench/lib', 'bench/floor', 'scripts/lib', 'app/routes']) cpSync(path.join(root, folder), path.join(clone, folder), { recursive: true })
  for (const file of ['package.json', 'app/root.tsx']) cpSync(path.join(root, file), path.join(clone, file))
  symlinkSync(path.join(root, 'node_modules'), path.join(clone, 'node_modules'), 'dir')
  return clone
}

type Floor = typeof FloorModule

describe('the bench floors (bench/lib/floor.mjs, issue 43)', () => {
  let clone: string
  let floor: Floor
  beforeAll(async () => {
    // Real loopback servers here: the provider's mock would refuse them.
    providerMock.close()
    clone = cloneUnderTmp()
    floor = (await import(path.join(clone, 'bench/lib/floor.mjs'))) as Floor
  })
  afterAll(() => {
    providerMock.listen({ onUnhandledRequest: 'error' })
    rmSync(path.dirname(clone), { recursive: true, force: true })
  })

  test('a clone under the temp folder builds and serves the one-route floor, its scripts answering 200', async () => {
    const built = floor.buildFloor({ kind: 'one-route' })
    try {
      const served = await floor.startFloor(built.dir)
      try {
        const page = await fetch(`${served.baseURL}/`)
        expect(page.status).toBe(200)
        const html = await page.text()
        const entry = /<link rel="modulepreload" href="(\/assets\/entry\.client-[^"]+\.js)"/.exec(html)?.[1]
        expect(entry).toBeDefined()
        const script = await fetch(`${served.baseURL}${entry}`)
        expect(script.status).toBe(200)
        expect(script.headers.get('content-type')).toMatch(/javascript/)
        expect((await floor.checkAssets(`${served.baseURL}/`)).length).toBeGreaterThan(1)
      } finally {
        await served.close()
      }
    } finally {
      built.remove()
    }
  })

  test("the same-routes floor's route files give the product's route tree: every route, path and parent", () => {
    const app = path.join(mkdtempSync(path.join(tmpdir(), 'innera-same-routes-')), 'app')
    try {
      cpSync(path.join(clone, 'bench/floor/app'), app, { recursive: true })
      const count = floor.writeSameRoutes(app, path.join(clone, 'app'))
      const tree = (dir: string) =>
        Object.values(floor.routeTreeOf(dir) as Record<string, { id: string; path?: string; index?: boolean; parentId?: string; file: string }>)
          .map(({ id, path, index, parentId, file }) => ({ id, path, index, parentId, file }))
          .sort((a, b) => a.id.localeCompare(b.id))
      const product = tree(path.join(root, 'app'))
      expect(product.length).toBeGreaterThan(50)
      expect(count).toBe(product.length)
      expect(tree(app)).toEqual(product)
    } finally {
      rmSync(path.dirname(app), { recursive: true, force: true })
    }
  })
})
