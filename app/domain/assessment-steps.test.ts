import { describe, expect, test } from 'vitest'
import { type Step, clampStep, cleanAnswers, emptyDraft, firstIncompleteStep, mergeUnchecked, navigate, readAnswer } from './assessment-steps'

const scale = { min: 0, max: 4 }
const steps: Step[] = [
  { slug: 'estresse', questions: [{ code: 'e1' }, { code: 'e2' }] },
  { slug: 'sono', questions: [{ code: 's1' }] },
]

describe('assessment steps', () => {
  test('readAnswer accepts 0-4 only', () => {
    expect(readAnswer('3', scale)).toBe(3)
    expect(readAnswer('0', scale)).toBe(0)
    expect(readAnswer('', scale)).toBe('missing')
    expect(readAnswer(undefined, scale)).toBe('missing')
    expect(readAnswer('5', scale)).toBe('range')
    expect(readAnswer('-1', scale)).toBe('range')
    expect(readAnswer('1.5', scale)).toBe('range')
  })

  test('next needs every answer of the step', () => {
    const outcome = navigate(steps, emptyDraft('v'), 'next', { e1: '2' }, scale)
    expect(outcome.problems).toEqual({ e2: 'missing' })
    expect(outcome.draft.step).toBe(0)
    expect(outcome.draft.answers).toEqual({ e1: 2 })
    const forward = navigate(steps, outcome.draft, 'next', { e2: '4' }, scale)
    expect(forward.problems).toEqual({})
    expect(forward.draft).toEqual({ version: 'v', step: 1, answers: { e1: 2, e2: 4 } })
  })

  test('an out-of-range answer is refused, even going back', () => {
    const outcome = navigate(steps, { version: 'v', step: 1, answers: { e1: 1, e2: 1, s1: 2 } }, 'back', { s1: '9' }, scale)
    expect(outcome.problems).toEqual({ s1: 'range' })
    expect(outcome.draft.step).toBe(1)
    expect(outcome.draft.answers.s1).toBeUndefined()
  })

  test('back keeps the answers and does not need them all', () => {
    const outcome = navigate(steps, { version: 'v', step: 1, answers: { e1: 1, e2: 1 } }, 'back', {}, scale)
    expect(outcome.draft).toEqual({ version: 'v', step: 0, answers: { e1: 1, e2: 1 } })
  })

  test('review and submit with everything answered', () => {
    const answered = { version: 'v', step: 1, answers: { e1: 1, e2: 1 } }
    const review = navigate(steps, answered, 'review', { s1: '0' }, scale)
    expect(review.draft.step).toBe(2)
    expect(navigate(steps, review.draft, 'submit', {}, scale).submit).toBe(true)
  })

  test('submit with a gap goes to the first incomplete step', () => {
    const outcome = navigate(steps, { version: 'v', step: 2, answers: { e1: 1, s1: 1 } }, 'submit', {}, scale)
    expect(outcome.submit).toBe(false)
    expect(outcome.draft.step).toBe(0)
  })

  test('edit opens a step, never past the first incomplete one', () => {
    const full = { version: 'v', step: 2, answers: { e1: 1, e2: 1, s1: 3 } }
    expect(navigate(steps, full, 'edit', {}, scale, 0).draft.step).toBe(0)
    expect(clampStep(steps, { e1: 1 }, 2)).toBe(0)
    expect(firstIncompleteStep(steps, { e1: 1, e2: 2 })).toBe(1)
  })

  test('mergeUnchecked keeps posted answers over stored ones, bounded, without the definition', () => {
    const merged = mergeUnchecked({ sono_a: 1, old: 3 }, { intent: 'next', sono_a: '4', sono_b: ' 2 ', 'bad code': '1', huge: '99999', text: 'x', big: 1000 })
    expect(merged).toEqual({ sono_a: 4, old: 3, sono_b: 2 })
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`q${index}`, '1']))
    expect(Object.keys(mergeUnchecked({}, many))).toHaveLength(200)
  })

  test('cleanAnswers drops unknown codes and bad values', () => {
    expect(cleanAnswers(steps, { e1: 1, e2: 7, x: 2, s1: 0 }, scale)).toEqual({ e1: 1, s1: 0 })
  })
})
