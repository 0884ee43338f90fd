import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

// locales.test.ts compares keys and treats an array as one key; long texts (legal sections, FAQ
// answers, pillar examples) are arrays of paragraphs, so their lengths must match too: a
// paragraph missing in one language would otherwise go unnoticed.
const localesDir = path.resolve(import.meta.dirname, '../../locales')

function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, shape(child)]))
  return typeof value
}

const load = (language: string, file: string) => JSON.parse(readFileSync(path.join(localesDir, language, file), 'utf8')) as unknown

test.each(readdirSync(path.join(localesDir, 'pt')).filter((file) => file.endsWith('.json')))(
  '%s has the same shape, array lengths included, in pt, en and es',
  (file) => {
    const pt = shape(load('pt', file))
    expect(shape(load('en', file))).toEqual(pt)
    expect(shape(load('es', file))).toEqual(pt)
  },
)
