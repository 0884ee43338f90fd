/**
 * Every message the password rules (password-rules.ts) can produce, verbatim: the provider
 * answers them in English, Django style, and the app maps each to a translation. No imports and
 * no I/O, so the app can import this module.
 */
export const PASSWORD_MESSAGES = {
  tooShort: 'This password is too short. It must contain at least 8 characters.',
  similarToUsername: 'The password is too similar to the username.',
  similarToFirstName: 'The password is too similar to the first name.',
  similarToLastName: 'The password is too similar to the last name.',
  similarToEmail: 'The password is too similar to the email address.',
  entirelyNumeric: 'This password is entirely numeric.',
  onlyWhitespace: 'This password cannot consist only of spaces.',
  repeatedCharacter: 'This password cannot be one character repeated.',
  tooCommon: 'This password is too common.',
  tooGuessable: 'This password is too easy to guess. Use a longer phrase of uncommon words.',
} as const

export type PasswordMessage = (typeof PASSWORD_MESSAGES)[keyof typeof PASSWORD_MESSAGES]

export const PASSWORD_MIN_LENGTH = 8
