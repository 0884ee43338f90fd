import { describe, expect, it } from 'vitest'
import { isContentSlug, unusedVideos } from '#server/courses/admin.ts'

const media = (seconds: number) => ({ duration_seconds: seconds, bytes: 100, cues: { pt: [], en: [], es: [] } })

describe('unusedVideos', () => {
  it('offers the manifest videos whose file is present and that no lesson or new lesson draft uses, by name', () => {
    const manifest = { 'b-2': media(20), 'a-1': media(10), 'sem-arquivo': media(5), usado: media(7), 'Mal Nome': media(3) }
    const present = new Set(['a-1', 'b-2', 'usado', 'Mal Nome'])
    expect(unusedVideos(manifest, present, new Set(['usado']))).toEqual([
      { slug: 'a-1', duration_seconds: 10, bytes: 100 },
      { slug: 'b-2', duration_seconds: 20, bytes: 100 },
    ])
    expect(unusedVideos({}, present, new Set())).toEqual([])
  })
})

describe('isContentSlug', () => {
  it("follows the tables' slug rule and length", () => {
    expect(isContentSlug('sono-reparador', 80)).toBe(true)
    expect(isContentSlug('a'.repeat(81), 80)).toBe(false)
    expect(isContentSlug('Sono', 80)).toBe(false)
    expect(isContentSlug('sono--leve', 80)).toBe(false)
  })
})
