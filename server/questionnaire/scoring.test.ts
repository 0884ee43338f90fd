import { describe, expect, it } from 'vitest'
import { ANSWER_NOT_INTEGER, ANSWER_OUT_OF_RANGE, ANSWER_REQUIRED, parseAnswers, UNKNOWN_QUESTION } from '#server/questionnaire/answers.ts'
import { focusPillars, itemScore, rankPillars, scorePillars, scoreSubmission, type ScoredQuestion } from '#server/questionnaire/scoring.ts'

const PILLARS = ['estresse', 'exercicio', 'alimento', 'sono', 'relacionamentos', 'substancias']

/** Six questions per pillar; the first two of each are reverse items. */
const QUESTIONS: ScoredQuestion[] = PILLARS.flatMap((pillar) =>
  [1, 2, 3, 4, 5, 6].map((index) => ({ code: `${pillar}_${index}`, pillar, reverse: index <= 2 })),
)

/** Answers giving each item of a pillar the same item score. */
function answersScoring(itemScores: Record<string, number>): Record<string, number> {
  return Object.fromEntries(QUESTIONS.map((question) => [question.code, question.reverse ? 4 - itemScores[question.pillar]! : itemScores[question.pillar]!]))
}

describe('itemScore', () => {
  it('takes the value as is, or 4 - value for reverse items', () => {
    expect([0, 1, 2, 3, 4].map((value) => itemScore({ reverse: false }, value))).toEqual([0, 1, 2, 3, 4])
    expect([0, 1, 2, 3, 4].map((value) => itemScore({ reverse: true }, value))).toEqual([4, 3, 2, 1, 0])
  })
})

describe('scorePillars', () => {
  it('is the mean item score as a percentage, per pillar, in pillar order', () => {
    const scores = scorePillars(QUESTIONS, answersScoring({ estresse: 0, exercicio: 1, alimento: 2, sono: 3, relacionamentos: 4, substancias: 4 }), PILLARS)
    expect(scores).toEqual({ estresse: 0, exercicio: 25, alimento: 50, sono: 75, relacionamentos: 100, substancias: 100 })
    expect(Object.keys(scores)).toEqual(PILLARS)
  })

  it('inverts reverse items: the top option of an "overwhelmed" item is the lowest score', () => {
    const answers = answersScoring({ estresse: 4, exercicio: 4, alimento: 4, sono: 4, relacionamentos: 4, substancias: 4 })
    expect(answers.estresse_1).toBe(0)
    answers.estresse_1 = 4
    expect(scorePillars(QUESTIONS, answers, PILLARS).estresse).toBe(83) // (0 + 5×4) / 24 = 83.3
  })

  it('rounds half up', () => {
    // Item scores 3 out of 24 → 12.5 → 13; 9 of 24 → 37.5 → 38.
    const answers = answersScoring({ estresse: 0, exercicio: 0, alimento: 0, sono: 0, relacionamentos: 0, substancias: 0 })
    answers.estresse_3 = 3
    Object.assign(answers, { exercicio_3: 4, exercicio_4: 4, exercicio_5: 1 })
    const scores = scorePillars(QUESTIONS, answers, PILLARS)
    expect(scores.estresse).toBe(13)
    expect(scores.exercicio).toBe(38)
  })

  it('leaves out pillars without questions', () => {
    expect(scorePillars(QUESTIONS.filter((question) => question.pillar === 'sono'), answersScoring({ sono: 2 }), PILLARS)).toEqual({ sono: 50 })
  })
})

describe('focusPillars', () => {
  it('takes the pillars below 60, lowest first, at most three', () => {
    const scores = { estresse: 55, exercicio: 20, alimento: 59, sono: 40, relacionamentos: 60, substancias: 90 }
    expect(focusPillars(scores, PILLARS)).toEqual(['exercicio', 'sono', 'estresse'])
  })

  it('keeps the pillar order on ties', () => {
    const scores = { estresse: 50, exercicio: 50, alimento: 80, sono: 50, relacionamentos: 50, substancias: 80 }
    expect(focusPillars(scores, PILLARS)).toEqual(['estresse', 'exercicio', 'sono'])
  })

  it('takes fewer when fewer are below 60', () => {
    expect(focusPillars({ estresse: 70, exercicio: 61, alimento: 30, sono: 80, relacionamentos: 60, substancias: 90 }, PILLARS)).toEqual(['alimento'])
  })

  it('takes the lowest when none is below 60', () => {
    expect(focusPillars({ estresse: 70, exercicio: 65, alimento: 90, sono: 65, relacionamentos: 100, substancias: 60 }, PILLARS)).toEqual(['substancias'])
    expect(focusPillars({ estresse: 100, exercicio: 100, alimento: 100, sono: 100, relacionamentos: 100, substancias: 100 }, PILLARS)).toEqual([
      'estresse',
    ])
  })

  it('ranks every scored pillar for ordering', () => {
    expect(rankPillars({ sono: 10, estresse: 10, alimento: 5 }, PILLARS)).toEqual(['alimento', 'estresse', 'sono'])
  })
})

describe('scoreSubmission', () => {
  it('gives scores and focus pillars together', () => {
    const result = scoreSubmission(QUESTIONS, answersScoring({ estresse: 1, exercicio: 3, alimento: 3, sono: 2, relacionamentos: 4, substancias: 4 }), PILLARS)
    expect(result).toEqual({
      scores: { estresse: 25, exercicio: 75, alimento: 75, sono: 50, relacionamentos: 100, substancias: 100 },
      focusPillars: ['estresse', 'sono'],
    })
  })
})

describe('parseAnswers', () => {
  const codes = ['a', 'b', 'c']

  it('accepts integers 0-4 and integer strings, in question order', () => {
    expect(parseAnswers(codes, { c: 4, a: 0, b: ' 2 ' })).toEqual({ ok: true, answers: { a: 0, b: 2, c: 4 } })
  })

  it('names every question without an answer (missing, null or blank)', () => {
    expect(parseAnswers(codes, { b: null, c: '' })).toEqual({ ok: false, errors: { a: [ANSWER_REQUIRED], b: [ANSWER_REQUIRED], c: [ANSWER_REQUIRED] } })
  })

  it('refuses values out of range and non-integers', () => {
    expect(parseAnswers(codes, { a: 5, b: -1, c: 2.5 })).toEqual({
      ok: false,
      errors: { a: [ANSWER_OUT_OF_RANGE], b: [ANSWER_OUT_OF_RANGE], c: [ANSWER_NOT_INTEGER] },
    })
    expect(parseAnswers(codes, { a: 'often', b: true, c: [1] })).toEqual({
      ok: false,
      errors: { a: [ANSWER_NOT_INTEGER], b: [ANSWER_NOT_INTEGER], c: [ANSWER_NOT_INTEGER] },
    })
    expect(ANSWER_OUT_OF_RANGE).toBe('Choose a value between 0 and 4.')
  })

  it('refuses unknown codes after the known ones', () => {
    const parsed = parseAnswers(codes, { a: 1, b: 1, c: 1, zzz: 1, toString: 2 })
    expect(parsed).toEqual({ ok: false, errors: { zzz: [UNKNOWN_QUESTION], toString: [UNKNOWN_QUESTION] } })
  })

  it('reports a "__proto__" code like any other unknown code', () => {
    const parsed = parseAnswers(codes, JSON.parse('{"a": 1, "b": 1, "c": 1, "__proto__": 3}'))
    expect(parsed.ok).toBe(false)
    expect(JSON.stringify(parsed)).toBe(`{"ok":false,"errors":{"__proto__":["${UNKNOWN_QUESTION}"]}}`)
  })

  it('does not take inherited properties for answers', () => {
    expect(parseAnswers(['constructor'], {})).toEqual({ ok: false, errors: { constructor: [ANSWER_REQUIRED] } })
  })
})
