import type { ZxcvbnFactory, ZxcvbnResult } from '@zxcvbn-ts/core'
import { PASSWORD_MESSAGES, PASSWORD_MIN_LENGTH, type PasswordMessage } from '#server/auth/password-messages.ts'

/**
 * Django's AUTH_PASSWORD_VALIDATORS (minimum length, similarity to the user's attributes,
 * entirely numeric) with Django's messages, plus what a short list of common passwords missed:
 * only spaces, one character repeated, and a strength estimate (zxcvbn, score 3 of 4 needed)
 * that knows the common passwords, words, names, keyboard walks, dates and repeats, and the
 * user's own details and the product's name. All failures are reported together, as Django does.
 */
type PasswordOwner = { username?: string; email?: string; firstName?: string; lastName?: string }

const MAX_SIMILARITY = 0.7
const MIN_SCORE = 3
// Words anyone trying to guess an Innera password starts from (the demo password is made of them).
const PRODUCT_WORDS = ['innera', 'demo']
// Shorter known words are left in when scoring the rest of a password: removing "ana" from
// "banana" would judge a different password.
const MIN_STRIPPED_WORD = 4

const ATTRIBUTE_MESSAGES: [keyof PasswordOwner, PasswordMessage][] = [
  ['username', PASSWORD_MESSAGES.similarToUsername],
  ['firstName', PASSWORD_MESSAGES.similarToFirstName],
  ['lastName', PASSWORD_MESSAGES.similarToLastName],
  ['email', PASSWORD_MESSAGES.similarToEmail],
]

let estimator: Promise<ZxcvbnFactory> | undefined

/** The estimator with its dictionaries (a few MB): loaded on the first check, once per process. */
function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common] = await Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')])
    return new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs })
  })().catch((error: unknown) => {
    estimator = undefined
    throw error
  })
  return estimator
}

/** Python's difflib SequenceMatcher.quick_ratio: an upper bound on similarity from shared characters. */
export function quickRatio(a: string, b: string): number {
  if (a.length + b.length === 0) return 1
  const available = new Map<string, number>()
  for (const char of b) available.set(char, (available.get(char) ?? 0) + 1)
  let matches = 0
  for (const char of a) {
    const left = available.get(char) ?? 0
    if (left > 0) {
      matches += 1
      available.set(char, left - 1)
    }
  }
  return (2 * matches) / (a.length + b.length)
}

// Django skips parts much shorter than the password: they cannot make it guessable.
function exceedsMaximumLengthRatio(password: string, part: string): boolean {
  return password.length >= 10 * part.length && part.length < (MAX_SIMILARITY / 2) * password.length
}

const partsOf = (value: string) => [...value.split(/[^\p{L}\p{N}_]+/u), value].filter((part) => part !== '')

/** The user's details and the product's words, lower-cased, whole and split into their parts. */
function knownWords(owner: PasswordOwner): string[] {
  const values = [...PRODUCT_WORDS, ...Object.values(owner).filter((value): value is string => Boolean(value))]
  return [...new Set(values.flatMap((value) => partsOf(value.toLowerCase())))]
}

/**
 * zxcvbn prices a known word between separators ("innera-demo-2025") as random characters, so
 * the password is scored a second time with the known words taken out: what is left must be
 * strong on its own.
 */
function weakestResult(zxcvbn: ZxcvbnFactory, password: string, words: string[]): ZxcvbnResult {
  const whole = zxcvbn.check(password, words)
  let rest = password.toLowerCase()
  for (const word of [...words].sort((a, b) => b.length - a.length)) {
    if (word.length >= MIN_STRIPPED_WORD) rest = rest.replaceAll(word, '')
  }
  if (rest === password.toLowerCase()) return whole
  const stripped = zxcvbn.check(rest, words)
  return stripped.score < whole.score ? stripped : whole
}

/** One dictionary match from a leaked-passwords list for the whole password: Django's "too common". */
function isCommonPassword(result: ZxcvbnResult): boolean {
  const [only, ...others] = result.sequence
  return others.length === 0 && only?.pattern === 'dictionary' && String(only.dictionaryName).startsWith('passwords')
}

export async function validatePassword(password: string, owner: PasswordOwner = {}): Promise<PasswordMessage[]> {
  const problems: PasswordMessage[] = []
  const tooShort = password.length < PASSWORD_MIN_LENGTH
  const onlyWhitespace = /^\s+$/u.test(password)
  const repeated = !onlyWhitespace && /^(.)\1+$/su.test(password)
  if (tooShort) problems.push(PASSWORD_MESSAGES.tooShort)
  if (onlyWhitespace) problems.push(PASSWORD_MESSAGES.onlyWhitespace)
  if (repeated) problems.push(PASSWORD_MESSAGES.repeatedCharacter)

  const lowered = password.toLowerCase()
  for (const [attribute, message] of ATTRIBUTE_MESSAGES) {
    const value = owner[attribute]?.toLowerCase()
    if (!value) continue
    const tooSimilar = partsOf(value).some((part) => !exceedsMaximumLengthRatio(lowered, part) && quickRatio(lowered, part) >= MAX_SIMILARITY)
    if (tooSimilar) {
      problems.push(message)
      break
    }
  }

  // The structural failures explain themselves; the estimate judges everything else.
  if (!tooShort && !onlyWhitespace && !repeated) {
    const result = weakestResult(await loadEstimator(), password, knownWords(owner))
    if (result.score < MIN_SCORE) problems.push(isCommonPassword(result) ? PASSWORD_MESSAGES.tooCommon : PASSWORD_MESSAGES.tooGuessable)
  }

  if (/^\d+$/.test(password)) problems.push(PASSWORD_MESSAGES.entirelyNumeric)
  return problems
}
