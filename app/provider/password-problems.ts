/**
 * The provider judges passwords (length, likeness to the user's details, common and guessable
 * passwords) and answers Django's English messages. Each known message has a translation here;
 * an unknown one is shown as the provider wrote it. Pure: no I/O.
 */
const KEYS: Record<string, string> = {
  'This password is too short. It must contain at least 8 characters.': 'passwordRules.tooShort',
  'The password is too similar to the username.': 'passwordRules.similarToUsername',
  'The password is too similar to the first name.': 'passwordRules.similarToName',
  'The password is too similar to the last name.': 'passwordRules.similarToName',
  'The password is too similar to the email address.': 'passwordRules.similarToEmail',
  'This password is entirely numeric.': 'passwordRules.entirelyNumeric',
  'This password cannot consist only of spaces.': 'passwordRules.onlyWhitespace',
  'This password cannot be one character repeated.': 'passwordRules.repeatedCharacter',
  'This password is too common.': 'passwordRules.tooCommon',
  'This password is too easy to guess. Use a longer phrase of uncommon words.': 'passwordRules.tooGuessable',
}

/** The translation key of a provider's password message, or undefined when it is not a known one. */
export const passwordProblemKey = (message: string): string | undefined => KEYS[message]

/** The provider's password messages in the user's language (`t` reads the common namespace). */
export function translatePasswordProblems(t: (key: string) => string, messages: readonly string[]): string[] {
  return messages.map((message) => {
    const key = passwordProblemKey(message)
    return key ? t(key) : message
  })
}
