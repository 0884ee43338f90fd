import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { supportedLanguages } from '#app/i18n/config.ts'

const localesDir = path.resolve(import.meta.dirname, '../../locales')

function keysOf(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key))
  }
  return [prefix]
}

function load(language: string, file: string) {
  return JSON.parse(readFileSync(path.join(localesDir, language, file), 'utf8')) as unknown
}

describe('locales', () => {
  const files = readdirSync(path.join(localesDir, 'pt')).filter((file) => file.endsWith('.json'))

  test('every language has the same namespace files', () => {
    for (const language of supportedLanguages) {
      expect(readdirSync(path.join(localesDir, language)).filter((file) => file.endsWith('.json')).sort()).toEqual(files.sort())
    }
  })

  test.each(files)('%s has the same keys in pt, en and es', (file) => {
    const pt = keysOf(load('pt', file)).sort()
    expect(keysOf(load('en', file)).sort()).toEqual(pt)
    expect(keysOf(load('es', file)).sort()).toEqual(pt)
  })

  test.each(files)('%s has no empty texts', (file) => {
    for (const language of supportedLanguages) {
      const walk = (value: unknown, at: string) => {
        if (typeof value === 'string') expect(value.trim(), `${language}/${file} ${at}`).not.toBe('')
        else if (value && typeof value === 'object') for (const [key, child] of Object.entries(value)) walk(child, `${at}.${key}`)
      }
      walk(load(language, file), '')
    }
  })
})
