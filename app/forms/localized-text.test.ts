import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { contentIntentField, languagesBeforePublishing, localizedDraftField, MISSING_LANGUAGE_KEY, MISSING_LANGUAGES_KEY, missingLanguages } from './localized-text.ts'

const schema = z
  .object({ intent: contentIntentField(), title: localizedDraftField(20), description: localizedDraftField(200) })
  .superRefine(languagesBeforePublishing(['title', 'description']))

const form = (entries: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(entries)) data.append(name, value)
  return data
}

describe('content in three languages (the form)', () => {
  it('saves a draft with languages still empty', () => {
    const submission = parseWithZod(form({ intent: 'save', 'title.pt': ' Sono ' }), { schema })
    expect(submission.status).toBe('success')
    expect(submission.status === 'success' && submission.value).toEqual({ intent: 'save', title: { pt: 'Sono', en: '', es: '' }, description: { pt: '', en: '', es: '' } })
  })

  it('refuses to publish, marking each missing language and the form', () => {
    const submission = parseWithZod(form({ intent: 'publish', 'title.pt': 'Sono', 'title.en': 'Sleep', 'title.es': 'Sueño', 'description.pt': 'Dormir bem', 'description.es': 'Dormir' }), { schema })
    expect(submission.status).toBe('error')
    const reply = submission.reply()
    expect(reply.error).toEqual({ 'description.en': [MISSING_LANGUAGE_KEY], '': [MISSING_LANGUAGES_KEY] })
  })

  it('publishes when every language is there', () => {
    const full = { 'title.pt': 'Sono', 'title.en': 'Sleep', 'title.es': 'Sueño', 'description.pt': 'a', 'description.en': 'b', 'description.es': 'c' }
    expect(parseWithZod(form({ intent: 'publish', ...full }), { schema }).status).toBe('success')
  })

  it('bounds each language and treats an unknown intent as a save', () => {
    expect(parseWithZod(form({ intent: 'publish', 'title.pt': 'x'.repeat(21) }), { schema }).status).toBe('error')
    const submission = parseWithZod(form({ intent: 'delete-everything' }), { schema })
    expect(submission.status === 'success' && submission.value.intent).toBe('save')
  })

  it('lists what the texts lack', () => {
    expect(missingLanguages({ a: { pt: 'x', en: ' ', es: 'y' }, b: undefined })).toEqual([
      ['a', 'en'],
      ['b', 'pt'],
      ['b', 'en'],
      ['b', 'es'],
    ])
  })
})
