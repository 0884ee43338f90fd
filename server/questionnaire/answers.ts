import { MAX_ANSWER, MIN_ANSWER } from '#server/questionnaire/scoring.ts'

/** Validation of submitted answers (pure), with one message list per question code. */
export const ANSWER_REQUIRED = 'This question needs an answer.'
export const ANSWER_OUT_OF_RANGE = `Choose a value between ${MIN_ANSWER} and ${MAX_ANSWER}.`
export const ANSWER_NOT_INTEGER = 'A valid integer is required.'
export const UNKNOWN_QUESTION = 'This question is not part of the questionnaire.'

type AnswerErrors = Record<string, string[]>
type ParsedAnswers = { ok: true; answers: Record<string, number> } | { ok: false; errors: AnswerErrors }

/**
 * Checks an `{code: value}` object against the questionnaire's codes: every question needs an
 * answer (null or "" count as none), values are integers 0-4 (integer strings are accepted, as
 * DRF's IntegerField does), and unknown codes are refused. Errors list missing and invalid
 * answers in question order, then unknown codes.
 */
export function parseAnswers(codes: string[], raw: Record<string, unknown>): ParsedAnswers {
  // Entries, not assignments: a code like "__proto__" must stay an ordinary key.
  const errors: [string, string[]][] = []
  const answers: [string, number][] = []
  for (const code of codes) {
    const value = Object.hasOwn(raw, code) ? raw[code] : undefined
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
      errors.push([code, [ANSWER_REQUIRED]])
      continue
    }
    const number = toInteger(value)
    if (number === undefined) errors.push([code, [ANSWER_NOT_INTEGER]])
    else if (number < MIN_ANSWER || number > MAX_ANSWER) errors.push([code, [ANSWER_OUT_OF_RANGE]])
    else answers.push([code, number])
  }
  const known = new Set(codes)
  for (const code of Object.keys(raw)) if (!known.has(code)) errors.push([code, [UNKNOWN_QUESTION]])
  return errors.length > 0 ? { ok: false, errors: Object.fromEntries(errors) } : { ok: true, answers: Object.fromEntries(answers) }
}

function toInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined
  if (typeof value === 'string' && /^\s*-?\d{1,9}\s*$/.test(value)) return Number(value)
  return undefined
}
