/**
 * People's names as the forms take them (issue 22, finding 9), the provider's rule
 * (server/person-names.ts): words of letters and their marks, joined by an apostrophe or a
 * hyphen, with an optional closing dot, or initials; single spaces between them (runs of spaces
 * count as one). No links, addresses, digits, line breaks or other control characters. No imports:
 * the browser validates with it too.
 */
const LETTERS = String.raw`\p{L}[\p{L}\p{M}]*`
const WORD = String.raw`${LETTERS}(?:['’‐-]${LETTERS})*\.?`
const INITIALS = String.raw`(?:\p{L}\p{M}*\.)+`
const TOKEN = String.raw`(?:${INITIALS}|${WORD})`
const NAME_PATTERN = new RegExp(String.raw`^${TOKEN}(?: ${TOKEN})*$`, 'u')

/** The name as it is kept: trimmed, runs of plain spaces as one. */
export const normalisePersonName = (text: string) => text.trim().replace(/ {2,}/g, ' ')

/** Whether a text (normalised first) is a name; an empty text is not. */
export const isPersonName = (text: string) => NAME_PATTERN.test(normalisePersonName(text))

/** The provider's message for a name that breaks the rule, which the forms show translated. */
export const PROVIDER_PERSON_NAME_MESSAGE = 'Enter a name with letters, spaces, apostrophes, hyphens and dots only.'

/** The provider's messages about a name field in the user's language (`t` reads the common namespace); others as written. */
export function translateNameProblems(t: (key: string) => string, messages: readonly string[]): string[] {
  return messages.map((message) => (message === PROVIDER_PERSON_NAME_MESSAGE ? t('validation.personName') : message))
}
