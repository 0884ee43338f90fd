/**
 * The provider judges passwords (length, likeness to the user's details, common and guessable
 * passwords) and answers Django's English messages. Each known message has a translation here;
 * an unknown one is shown as the provider wrote it. Pure: no I/O. Only actions translate them, so
 * their texts (each language's password-rules.json) stay on the server: the browser never loads them.
 */
const KEYS: Record<string, string> = {
  'This password is too short. It must contain at least 8 characters.': 'password-rules:tooShort',
  'The password is too similar to the username.': 'password-rules:similarToUsername',
  'The password is too similar to the first name.': 'password-rules:similarToName',
  'The password is too similar to the last name.': 'password-rules:similarToName',
  'The password is too similar to the email address.': 'password-rules:similarToEmail',
  'This password is entirely numeric.': 'password-rules:entirelyNumeric',
  'This password cannot consist only of spaces.': 'password-rules:onlyWhitespace',
  'This password cannot be one character repeated.': 'password-rules:repeatedCharacter',
  'This password is too common.': 'password-rules:tooCommon',
  'This password is too easy to guess. Use a longer phrase of uncommon words.': 'password-rules:tooGuessable',
}

/** The translation key of a provider's password message, or undefined when it is not a known one. */
export const passwordProblemKey = (message: string): string | undefined => KEYS[message]

/** The provider's password messages in the user's language (`t` is i18next's: the keys name their namespace). */
export function translatePasswordProblems(t: (key: string) => string, messages: readonly string[]): string[] {
  return messages.map((message) => {
    const key = passwordProblemKey(message)
    return key ? t(key) : message
  })
}
