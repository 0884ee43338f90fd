/**
 * The assessment wizard's rules, pure: one step per pillar, then the review step. The draft (answers
 * so far and the current step) lives in a cookie; these functions say what each intent does to it.
 */
type StepQuestion = { code: string }
export type Step = { slug: string; questions: StepQuestion[] }
export type Draft = { version: string; step: number; answers: Record<string, number> }
type AnswerProblem = 'missing' | 'range'
export type Intent = 'next' | 'back' | 'review' | 'submit' | 'edit'

export const emptyDraft = (version: string): Draft => ({ version, step: 0, answers: {} })

const reviewStep = (steps: readonly Step[]) => steps.length

/** Reads one answer from the form: an integer within the scale, missing, or out of range. */
export function readAnswer(raw: unknown, scale: { min: number; max: number }): number | AnswerProblem {
  if (raw === null || raw === undefined || raw === '') return 'missing'
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw.trim())) return 'range'
  const value = Number(raw)
  return value < scale.min || value > scale.max ? 'range' : value
}

/** Merges the posted answers of a step into the draft; reports each question that has none or a bad one. */
function applyStep(draft: Draft, step: Step, form: Record<string, unknown>, scale: { min: number; max: number }) {
  const answers = { ...draft.answers }
  const problems: Record<string, AnswerProblem> = {}
  for (const { code } of step.questions) {
    const answer = readAnswer(form[code], scale)
    if (typeof answer === 'number') answers[code] = answer
    else {
      if (answer === 'range') delete answers[code]
      if (answer === 'range' || answers[code] === undefined) problems[code] = answer
    }
  }
  return { draft: { ...draft, answers }, problems }
}

const isStepComplete = (step: Step, answers: Record<string, number>) => step.questions.every(({ code }) => answers[code] !== undefined)

/** The first step with a missing answer, or the review step when all are answered. */
export function firstIncompleteStep(steps: readonly Step[], answers: Record<string, number>) {
  const index = steps.findIndex((step) => !isStepComplete(step, answers))
  return index === -1 ? reviewStep(steps) : index
}

/** A step the user may open: any step up to the first incomplete one (the review only when all are answered). */
export function clampStep(steps: readonly Step[], answers: Record<string, number>, wanted: number) {
  if (!Number.isInteger(wanted) || wanted < 0) return 0
  return Math.min(wanted, firstIncompleteStep(steps, answers))
}

/** Only the answers for known questions, within the scale. */
export function cleanAnswers(steps: readonly Step[], answers: Record<string, unknown>, scale: { min: number; max: number }) {
  const clean: Record<string, number> = {}
  for (const step of steps) {
    for (const { code } of step.questions) {
      const value = answers[code]
      if (typeof value === 'number' && Number.isInteger(value) && value >= scale.min && value <= scale.max) clean[code] = value
    }
  }
  return clean
}

/** Bounds of answers kept without the definition at hand: question codes and small integers only. */
const UNCHECKED_CODE = /^[a-z][a-z0-9_]{0,63}$/
const UNCHECKED_LIMIT = 200

/**
 * The posted answers merged into the stored ones when the questionnaire definition cannot be read
 * (the provider is down and this process has none cached): nothing typed is lost, and the next
 * request that has the definition cleans them (cleanAnswers) against the real questions and scale.
 */
export function mergeUnchecked(stored: Record<string, unknown>, form: Record<string, unknown>): Record<string, number> {
  const merged: Record<string, number> = {}
  const keep = (code: string, raw: unknown) => {
    if (Object.keys(merged).length >= UNCHECKED_LIMIT && !(code in merged)) return
    if (!UNCHECKED_CODE.test(code)) return
    const value = typeof raw === 'string' && /^-?\d{1,3}$/.test(raw.trim()) ? Number(raw) : raw
    if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= 100) merged[code] = value
  }
  for (const [code, raw] of Object.entries(stored)) keep(code, raw)
  for (const [code, raw] of Object.entries(form)) if (code !== 'intent') keep(code, raw)
  return merged
}

type Outcome = { draft: Draft; problems: Record<string, AnswerProblem>; submit: boolean }

/**
 * What an intent does. Next, review and submit need every answer of the current step; back and edit
 * keep what was given (valid answers) without asking for the rest.
 */
export function navigate(steps: readonly Step[], draft: Draft, intent: Intent, form: Record<string, unknown>, scale: { min: number; max: number }, target?: number): Outcome {
  const review = reviewStep(steps)
  const current = steps[draft.step]
  const applied = current ? applyStep(draft, current, form, scale) : { draft, problems: {} as Record<string, AnswerProblem> }
  const { answers } = applied.draft
  const stay = (problems: Record<string, AnswerProblem>): Outcome => ({ draft: applied.draft, problems, submit: false })
  const goTo = (step: number): Outcome => ({ draft: { ...applied.draft, step: clampStep(steps, answers, step) }, problems: {}, submit: false })
  const blocking = Object.fromEntries(Object.entries(applied.problems).filter(([, problem]) => problem === 'range'))
  switch (intent) {
    case 'back':
      if (Object.keys(blocking).length) return stay(blocking)
      return goTo(Math.max(0, draft.step - 1))
    case 'edit':
      if (Object.keys(blocking).length) return stay(blocking)
      return goTo(target ?? draft.step)
    case 'next':
      if (Object.keys(applied.problems).length) return stay(applied.problems)
      return goTo(Math.min(review, draft.step + 1))
    case 'review':
      if (Object.keys(applied.problems).length) return stay(applied.problems)
      return goTo(review)
    case 'submit': {
      if (Object.keys(applied.problems).length) return stay(applied.problems)
      const incomplete = firstIncompleteStep(steps, answers)
      if (incomplete !== review) return goTo(incomplete)
      return { draft: { ...applied.draft, step: review }, problems: {}, submit: true }
    }
  }
}
