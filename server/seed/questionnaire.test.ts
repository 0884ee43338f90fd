import { describe, expect, it } from 'vitest'
import { PILLAR_SLUGS } from '#server/db/schema.ts'
import { PILLARS } from '#server/seed/data.ts'
import { optionsOf, QUESTIONNAIRE } from '#server/seed/questionnaire.ts'

const LANGUAGES = ['pt', 'en', 'es'] as const

describe('the question bank', () => {
  const { questions } = QUESTIONNAIRE

  it('has 36 questions, 6 per pillar, grouped in the pillars’ order', () => {
    expect(questions).toHaveLength(36)
    const pillars = PILLARS.map((pillar) => pillar.slug)
    // The seed's pillars are the schema's six, in their order.
    expect(pillars).toEqual([...PILLAR_SLUGS])
    expect([...new Set(questions.map((question) => question.pillar))]).toEqual(pillars)
    for (const pillar of pillars) expect(questions.filter((question) => question.pillar === pillar)).toHaveLength(6)
  })

  it('has unique codes named after their pillar', () => {
    expect(new Set(questions.map((question) => question.code)).size).toBe(36)
    for (const question of questions) expect(question.code).toMatch(new RegExp(`^${question.pillar}_[a-z_]+$`))
  })

  it('writes every question and option in pt, en and es', () => {
    for (const question of questions) {
      for (const language of LANGUAGES) expect(question.text[language].trim().length).toBeGreaterThan(20)
      expect(new Set(LANGUAGES.map((language) => question.text[language])).size).toBe(3)
      const options = optionsOf(question.scale)
      expect(options.map((option) => option.value)).toEqual([0, 1, 2, 3, 4])
      for (const option of options) for (const language of LANGUAGES) expect(option.label[language].trim()).not.toBe('')
    }
    for (const language of LANGUAGES) expect(new Set(questions.map((question) => question.text[language])).size).toBe(36)
  })

  it('mixes straight and reverse items in most pillars', () => {
    const reverse = questions.filter((question) => question.reverse)
    expect(reverse.length).toBeGreaterThan(6)
    expect(reverse.length).toBeLessThan(30)
    expect(reverse.map((question) => question.code)).toContain('estresse_overwhelmed')
  })

  it('is versioned and says it is not a diagnosis', () => {
    expect(QUESTIONNAIRE.version).toBe('2025.1')
    expect(QUESTIONNAIRE.estimatedMinutes).toBe(10)
    expect(QUESTIONNAIRE.description.en).toContain('not a diagnosis')
    expect(QUESTIONNAIRE.description.pt).toContain('não é um diagnóstico')
    expect(QUESTIONNAIRE.description.es).toContain('no es un diagnóstico')
  })
})
