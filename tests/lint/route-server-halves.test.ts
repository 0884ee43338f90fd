import { readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'

/**
 * Where a route's server code lives (decision 0083): beside the route in its folder, or in
 * app/features/ when several routes share it; app/forms/ holds what the browser runs too.
 */
const appDir = path.resolve(import.meta.dirname, '../../app')
const filesUnder = (folder: string): string[] =>
  readdirSync(path.join(appDir, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(appDir, path.join(entry.parentPath, entry.name)))

describe("a route's server half", () => {
  test('forms/ holds no server-only module: the browser runs every file of it', () => {
    expect(filesUnder('forms').filter((file) => /\.server\.tsx?$/.test(file))).toEqual([])
  })

  test('features/ holds server code only, by feature', () => {
    const files = filesUnder('features').filter((file) => !/\.test\.tsx?$/.test(file))
    expect(files.length).toBeGreaterThan(0)
    expect(files.filter((file) => !/^features\/[a-z-]+\/[a-z-]+\.server\.ts$/.test(file))).toEqual([])
  })

  test('utils/ holds no presenter: the views are their features\' or their route\'s', () => {
    expect(filesUnder('utils').filter((file) => /-views?\b/.test(file))).toEqual([])
  })

  test('every folder of routes/ is a route (its route.tsx or route.ts), its other files its parts', () => {
    const folders = readdirSync(path.join(appDir, 'routes'), { withFileTypes: true }).filter((entry) => entry.isDirectory())
    expect(folders.length).toBeGreaterThan(0)
    expect(folders.filter((folder) => !readdirSync(path.join(appDir, 'routes', folder.name)).some((file) => /^route\.tsx?$/.test(file))).map((folder) => folder.name)).toEqual([])
  })
})
