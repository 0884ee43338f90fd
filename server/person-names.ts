/**
 * People's names (issue 22, finding 9): letters with their marks, spaces, apostrophes, hyphens and
 * dots, and nothing else, so a name cannot carry a link, an address or a line break into the
 * e-mails, calendar titles and pages that show it to someone else. Pure.
 *
 * A name is words separated by single spaces. A word is letters, joined by an apostrophe or a
 * hyphen ("d'Ávila", "Jean-Luc"), with an optional closing dot ("Jr."), or initials ("J.", "J.R.").
 * A dot inside a word ("evil.example") is not a name.
 */

const LETTERS = String.raw`\p{L}[\p{L}\p{M}]*`
const WORD = String.raw`${LETTERS}(?:['’‐-]${LETTERS})*\.?`
const INITIALS = String.raw`(?:\p{L}\p{M}*\.)+`
const TOKEN = String.raw`(?:${INITIALS}|${WORD})`
const NAME_PATTERN = new RegExp(String.raw`^${TOKEN}(?: ${TOKEN})*$`, 'u')
const TOKEN_PATTERN = new RegExp(String.raw`^${TOKEN}$`, 'u')

/** The provider's message for a name that breaks the rule (the app translates it). */
export const PERSON_NAME_MESSAGE = 'Enter a name with letters, spaces, apostrophes, hyphens and dots only.'

/** Runs of plain spaces count as one; other whitespace (line breaks, tabs, no-break spaces) does not pass. */
export const normalisePersonName = (text: string) => text.trim().replace(/ {2,}/g, ' ')

/** Whether a (normalised) text is a name under the rule; an empty text is not. */
export const isPersonName = (text: string) => NAME_PATTERN.test(text)

/**
 * A name from elsewhere (Google's profile) made to fit the rule instead of refused: its words up to
 * the first one the rule does not take ("Mariana https://…" is "Mariana"), cut to `maxLength` at a
 * word boundary. May be empty.
 */
export function sanitisePersonName(text: string, maxLength = 150): string {
  let name = ''
  for (const word of text.trim().split(/\s+/u)) {
    const longer = name ? `${name} ${word}` : word
    if (!TOKEN_PATTERN.test(word) || longer.length > maxLength) break
    name = longer
  }
  return name
}

/** The longest first name an e-mail subject or a calendar title shows. */
const SHOWN_FIRST_NAME_MAX = 40

/**
 * The first name as shown to someone else (e-mail subjects and greetings, calendar titles, the
 * calendar feed): its first word when that word is a name, else nothing. Stored names from before
 * the rule (a link, a line break) show nothing of the rest.
 */
export function shownFirstName(firstName: string): string {
  const [first = ''] = firstName.trim().split(/\s+/u)
  return first.length <= SHOWN_FIRST_NAME_MAX && TOKEN_PATTERN.test(first) ? first : ''
}
