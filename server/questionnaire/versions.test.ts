import { describe, expect, it } from 'vitest'
import { ApiError } from '#server/http/errors.ts'
import { MISSING_LANGUAGE_MESSAGE } from '#server/content/languages.ts'
import {
  acceptsAnswers,
  CODE_REPEATED,
  draftFromVersion,
  MAX_QUESTIONS,
  parseDraft,
  publishProblems,
  SUPERSEDED_VERSION_GRACE_MS,
  VERSION_PATTERN,
  versionRows,
  type QuestionnaireDraft,
} from '#server/questionnaire/versions.ts'

const text = (word: string) => ({ pt: `${word} pt`, en: `${word} en`, es: `${word} es` })
const question = (code: string, pillar: string) => ({ code, pillar, text: text(code), options: [0, 1, 2, 3, 4].map((value) => text(`${code}${value}`)), reverse: false })
const draft = (questions = [question('sono_a', 'sono'), question('estresse_a', 'estresse')]): QuestionnaireDraft => ({ title: text('title'), description: text('description'), estimated_minutes: 10, questions })

function errorsOf(run: () => unknown): Record<string, string[]> {
  try {
    run()
  } catch (error) {
    if (error instanceof ApiError) return error.body as Record<string, string[]>
    throw error
  }
  throw new Error('no error')
}

describe('the question bank versions (pure)', () => {
  it('takes version strings like 2026.2', () => {
    for (const good of ['2026.2', '2026-2', 'e2e.abc12']) expect(VERSION_PATTERN.test(good)).toBe(true)
    for (const bad of ['2026..2', '.2026', 'V2', '2026 2', '2026.2.']) expect(VERSION_PATTERN.test(bad)).toBe(false)
  })

  it('parses a draft: languages may be empty, errors on their exact inputs', () => {
    const incomplete = draft()
    incomplete.questions[1]!.text.es = ''
    expect(parseDraft(incomplete).questions[1]!.text.es).toBe('')
    const long = draft()
    long.questions[1]!.options[2]!.en = 'x'.repeat(101)
    expect(Object.keys(errorsOf(() => parseDraft(long)))).toEqual(['questions[1].options[2].en'])
    const four = draft()
    four.questions[0]!.options.pop()
    expect(Object.keys(errorsOf(() => parseDraft(four)))).toEqual(['questions[0].options'])
    expect(errorsOf(() => parseDraft(draft([question('sono_a', 'sono'), question('sono_a', 'sono')])))).toEqual({ 'questions[1].code': [CODE_REPEATED] })
    expect(Object.keys(errorsOf(() => parseDraft(draft([{ ...question('Sono A', 'sono') }]))))).toEqual(['questions[0].code'])
    const many = draft(Array.from({ length: MAX_QUESTIONS + 1 }, (_, index) => question(`q${index}`, 'sono')))
    expect(errorsOf(() => parseDraft(many))).toEqual({ questions: [`Ensure this field has no more than ${MAX_QUESTIONS} elements.`] })
    expect(Object.keys(errorsOf(() => parseDraft({ ...draft(), estimated_minutes: 0 })))).toEqual(['estimated_minutes'])
  })

  it('refuses to publish a missing language on each text, an unknown pillar and a pillar left without questions', () => {
    const incomplete = draft()
    incomplete.description.en = ''
    incomplete.questions[1]!.text.es = ' '
    incomplete.questions[0]!.options[4]!.pt = ''
    expect(publishProblems(incomplete, ['sono', 'estresse'])).toEqual({
      'description.en': [MISSING_LANGUAGE_MESSAGE],
      'questions[0].options[4].pt': [MISSING_LANGUAGE_MESSAGE],
      'questions[1].text.es': [MISSING_LANGUAGE_MESSAGE],
    })
    expect(publishProblems(draft(), ['sono', 'estresse'])).toEqual({})
    expect(publishProblems(draft(), ['sono', 'estresse', 'alimento']).questions![0]).toContain('(alimento)')
    expect(publishProblems(draft([question('x_a', 'lua')]), ['lua'])).toEqual({})
    expect(Object.keys(publishProblems(draft([question('x_a', 'lua')]), ['sono']))).toEqual(['questions[0].pillar', 'questions'])
  })

  it('copies a version into a draft and back into rows, in order, options valued 0-4', () => {
    const rows = versionRows('2026.2', draft())
    const copy = draftFromVersion(
      { title: rows.version.title, description: rows.version.description, estimatedMinutes: rows.version.estimatedMinutes },
      [...rows.questions].reverse().map((row) => ({ ...row, options: [...row.options].reverse() })),
    )
    expect(copy).toEqual(draft())
    expect(rows.questions.map((row) => [row.code, row.order])).toEqual([['sono_a', 1], ['estresse_a', 2]])
    expect(rows.questions[0]!.options.map((option) => option.value)).toEqual([0, 1, 2, 3, 4])
  })

  it('takes answers for the current version, or the one it replaced within the grace period', () => {
    const now = Date.UTC(2026, 0, 10)
    expect(acceptsAnswers({ isCurrent: true }, undefined, now)).toBe(true)
    expect(acceptsAnswers({ isCurrent: false }, new Date(now - 3600_000), now)).toBe(true)
    expect(acceptsAnswers({ isCurrent: false }, new Date(now - SUPERSEDED_VERSION_GRACE_MS), now)).toBe(false)
    expect(acceptsAnswers({ isCurrent: false }, undefined, now)).toBe(false)
  })
})
