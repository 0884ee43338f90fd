import { describe, expect, it } from 'vitest'
import { ApiError } from '#server/http/errors.ts'
import { draftTextField, MISSING_LANGUAGE_MESSAGE, missingLanguages, requireAllLanguages } from '#server/content/languages.ts'

describe('content in three languages', () => {
  it('names every language a text lacks, blanks included', () => {
    expect(missingLanguages({ title: { pt: 'Sono', en: ' ', es: '' }, description: { pt: 'a', en: 'b', es: 'c' }, summary: undefined })).toEqual({
      title: ['en', 'es'],
      summary: ['pt', 'en', 'es'],
    })
    expect(missingLanguages({ title: { pt: 'Sono', en: 'Sleep', es: 'Sueño' } })).toEqual({})
  })

  it('refuses to publish with a field error on each missing language', () => {
    let error: unknown
    try {
      requireAllLanguages({ title: { pt: 'Sono', en: '', es: 'Sueño' }, description: { pt: '', en: 'x', es: 'y' } })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).status).toBe(400)
    expect((error as ApiError).body).toEqual({ 'title.en': [MISSING_LANGUAGE_MESSAGE], 'description.pt': [MISSING_LANGUAGE_MESSAGE] })
  })

  it('lets a complete text through as it is', () => {
    const texts = { title: { pt: 'Sono', en: 'Sleep', es: 'Sueño' } }
    expect(requireAllLanguages(texts)).toBe(texts)
  })

  it('keeps a draft text trimmed and bounded, an absent language empty', () => {
    const field = draftTextField(10)
    expect(field.parse({ pt: '  Sono ', en: '' })).toEqual({ pt: 'Sono', en: '', es: '' })
    expect(field.safeParse({ pt: 'x'.repeat(11) }).success).toBe(false)
  })
})
