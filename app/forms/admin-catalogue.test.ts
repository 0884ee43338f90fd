import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { adminNewProductSchema, adminPillarSchema, adminProductSchema, typeFieldsBody } from './admin-catalogue.ts'

/** The catalogue editor's forms (decision 0065): drafts may lack a language, publishing may not; a new product's type fields. */

const form = (entries: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(entries)) data.append(name, value)
  return data
}
const texts = (field: string, pt: string, en = '', es = '') => ({ [`${field}.pt`]: pt, [`${field}.en`]: en, [`${field}.es`]: es })

describe('a pillar’s form', () => {
  test('saves with a language missing; publishing refuses it on the input and for the form', () => {
    const entries = { ...texts('name', 'Sono', 'Sleep', 'Sueño'), ...texts('description', 'Dormir bem.', '', 'Dormir bien.') }
    expect(parseWithZod(form({ ...entries, intent: 'save' }), { schema: adminPillarSchema }).status).toBe('success')
    const refused = parseWithZod(form({ ...entries, intent: 'publish' }), { schema: adminPillarSchema }).reply()
    expect(refused.error).toEqual({ 'description.en': ['admin:content.missingLanguage'], '': ['admin:content.missingLanguages'] })
    expect(parseWithZod(form({ ...entries, 'name.pt': 'x'.repeat(61) }), { schema: adminPillarSchema }).reply().error).toHaveProperty(['name.pt'])
  })
})

describe('a product’s forms', () => {
  test('a new product needs its type’s fields, and keeps only those', () => {
    const refused = parseWithZod(form({ slug: 'plano-familia', product_type: 'subscription', plan_interval: 'program', price: '49,90' }), { schema: adminNewProductSchema }).reply()
    expect(Object.keys(refused.error ?? {}).sort()).toEqual(['trial_days', 'weeks'])
    expect(parseWithZod(form({ slug: 'new', product_type: 'program', weeks: '8', price: '10' }), { schema: adminNewProductSchema }).reply().error).toEqual({ slug: ['admin-catalogue:validation.slugTaken'] })
    const made = parseWithZod(form({ slug: 'pacote-2', product_type: 'consultation_package', consultations: '4', weeks: '9', trial_days: '3', price: 'R$ 1.234,56' }), { schema: adminNewProductSchema })
    expect(made.status).toBe('success')
    if (made.status !== 'success') return
    expect(typeFieldsBody(made.value)).toEqual({ product_type: 'consultation_package', price_cents: 123456, consultations: 4, professional_id: undefined, weeks: undefined, plan_interval: undefined, trial_days: undefined })
  })

  test('an existing product’s publish needs the category; a trial plan at least one day', () => {
    const entries = { ...texts('name', 'A', 'A', 'A'), ...texts('description', 'B', 'B', 'B'), intent: 'publish' }
    expect(parseWithZod(form(entries), { schema: adminProductSchema }).reply().error).toEqual({ category: ['admin-catalogue:validation.category'] })
    expect(parseWithZod(form({ ...entries, intent: 'save' }), { schema: adminProductSchema }).status).toBe('success')
    const trial = parseWithZod(form({ ...entries, category: 'assinaturas', product_type: 'subscription', plan_interval: 'trial', trial_days: '0', price: '9,90' }), { schema: adminProductSchema })
    expect(trial.reply().error).toEqual({ trial_days: ['admin-catalogue:validation.trialDaysForTrial'] })
  })
})
