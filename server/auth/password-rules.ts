/**
 * Django's default AUTH_PASSWORD_VALIDATORS, with Django's messages: minimum length,
 * similarity to the user's attributes, common passwords, entirely numeric. All failures are
 * reported together, as Django does.
 */
export type PasswordOwner = { username?: string; email?: string; firstName?: string; lastName?: string }

const MIN_LENGTH = 8
const MAX_SIMILARITY = 0.7

// A short list of the passwords seen most often in breaches (English and Brazilian
// Portuguese). Django ships 20,000; these are the ones people actually try here.
const COMMON_PASSWORDS = new Set([
  '12345678', '123456789', '1234567890', '87654321', '11111111', '00000000', '12341234', '11223344',
  'password', 'password1', 'password123', 'passw0rd', 'qwertyui', 'qwerty123', 'qwertyuiop', 'asdfghjk',
  'iloveyou', 'sunshine', 'princess', 'football', 'baseball', 'superman', 'whatever', 'trustno1',
  'welcome1', 'letmein1', 'abcd1234', 'abc12345', 'a1b2c3d4', '1q2w3e4r', '1qaz2wsx', 'zaq12wsx',
  'senha123', 'senha1234', 'senha12345', 'mudar123', 'brasil123', 'flamengo', 'corinthians', 'palmeiras',
  'saopaulo', 'vasco123', 'gremio123', 'botafogo', 'internacional', 'amor1234', 'minhasenha', 'teste123',
  'admin123', 'administrator', 'changeme', 'computer', 'internet', 'michelle', 'jennifer', 'starwars',
  'dragon12', 'monkey12', 'master12', 'shadow12', 'charlie1', 'welcome123', 'innera123', 'innera2025',
])

const ATTRIBUTE_LABELS: [keyof PasswordOwner, string][] = [
  ['username', 'username'],
  ['firstName', 'first name'],
  ['lastName', 'last name'],
  ['email', 'email address'],
]

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

export function validatePassword(password: string, owner: PasswordOwner = {}): string[] {
  const problems: string[] = []
  if (password.length < MIN_LENGTH) {
    problems.push(`This password is too short. It must contain at least ${MIN_LENGTH} characters.`)
  }

  const lowered = password.toLowerCase()
  for (const [attribute, label] of ATTRIBUTE_LABELS) {
    const value = owner[attribute]?.toLowerCase()
    if (!value) continue
    const parts = [...value.split(/[^\p{L}\p{N}_]+/u), value]
    const tooSimilar = parts.some((part) => !exceedsMaximumLengthRatio(lowered, part) && quickRatio(lowered, part) >= MAX_SIMILARITY)
    if (tooSimilar) {
      problems.push(`The password is too similar to the ${label}.`)
      break
    }
  }

  if (COMMON_PASSWORDS.has(lowered.trim())) problems.push('This password is too common.')
  if (/^\d+$/.test(password)) problems.push('This password is entirely numeric.')
  return problems
}
