import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { instantOf, slugFrom, wallTimeOf } from '#app/features/admin/admin-classes.server.ts'
import { classCancelSchema, newClassSchema } from './admin-classes.ts'

/** A failed submission's errors by field (a success has none). */
const errorsOf = (submission: { status?: string } & object) => ('error' in submission ? submission.error : undefined)

const formData = (entries: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(entries)) data.append(name, value)
  return data
}

describe('the admin live-class forms', () => {
  it('turns the date and time typed in the admin’s zone into an instant and back, across a zone change', () => {
    expect(instantOf('2026-12-01', '19:00', 'America/Sao_Paulo')).toBe('2026-12-01T22:00:00.000Z')
    expect(instantOf('2026-07-01', '19:00', 'Europe/Lisbon')).toBe('2026-07-01T18:00:00.000Z')
    expect(wallTimeOf('2026-12-01T22:00:00.000Z', 'America/Sao_Paulo')).toEqual({ date: '2026-12-01', time: '19:00' })
    expect(wallTimeOf('2026-12-02T02:30:00.000Z', 'America/Sao_Paulo')).toEqual({ date: '2026-12-01', time: '23:30' })
  })

  it('makes an address from the Portuguese title and the date', () => {
    expect(slugFrom('Respiração & Pausa!', '2026-12-01')).toBe('respiracao-pausa-2026-12-01')
    expect(slugFrom('  ')).toBeUndefined()
  })

  it('saves a draft with anything missing, and publishes only with every field and language', () => {
    const draft = parseWithZod(formData({ intent: 'save', 'title.pt': 'Yoga', date: '2026-12-01' }), { schema: newClassSchema })
    expect(draft.status).toBe('error')
    expect(errorsOf(draft)).toEqual({ time: ['admin-classes:validation.dateAndTime'] })
    expect(parseWithZod(formData({ intent: 'save', 'title.pt': 'Yoga' }), { schema: newClassSchema }).status).toBe('success')
    const publish = parseWithZod(formData({ intent: 'publish', 'title.pt': 'Yoga', seats: '1001' }), { schema: newClassSchema })
    expect(errorsOf(publish)).toMatchObject({ 'title.en': ['admin:content.missingLanguage'], pillar: ['errors.required'], seats: ['admin-classes:validation.seats'], '': ['admin:content.missingLanguages'] })
    expect(errorsOf(parseWithZod(formData({ slug: 'Aula--x' }), { schema: newClassSchema }))).toMatchObject({ slug: ['admin-classes:validation.slug'] })
  })

  it('cancels only with a reason and the confirmation ticked', () => {
    expect(errorsOf(parseWithZod(formData({ reason: ' ' }), { schema: classCancelSchema }))).toEqual({ reason: ['admin-classes:validation.reason'], confirm: ['admin-classes:validation.confirm'] })
    expect(parseWithZod(formData({ reason: 'Doente', confirm: 'on' }), { schema: classCancelSchema }).status).toBe('success')
  })
})
