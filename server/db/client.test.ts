import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { findMigrationsDir } from '#server/db/client.ts'

const root = mkdtempSync(join(tmpdir(), 'provider-root-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('findMigrationsDir', () => {
  it('prefers an explicit folder', () => {
    expect(findMigrationsDir('relative/migrations')).toBe(resolve('relative/migrations'))
  })

  it('walks up from the bundle to the folder holding package.json', () => {
    writeFileSync(join(root, 'package.json'), '{}')
    mkdirSync(join(root, 'build', 'provider'), { recursive: true })
    const bundle = pathToFileURL(join(root, 'build', 'provider', 'index.js')).href
    expect(findMigrationsDir(undefined, bundle)).toBe(join(root, 'server', 'db', 'migrations'))
  })

  it('finds the real migrations from source', () => {
    expect(findMigrationsDir()).toBe(resolve('server/db/migrations'))
  })
})
