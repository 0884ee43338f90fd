import { MESSAGE_MAX_LENGTH } from '#server/db/schema.ts'
import { storedClockMinutes, wallClockOf } from '#server/dates.ts'

/**
 * The rules of the messages between a patient and their professional (issue 44, decision 0085),
 * pure: who may talk, what a message may hold, how long its sender may take it back.
 */

/** What the database knows of a patient and a professional, as the care-link rule reads it. */
export type CareFacts = {
  /** An appointment between them that is not a time held for a payment that never came. */
  booked: boolean
  /** Any appointment between them, a released hold included. */
  anyAppointment: boolean
  /** The patient shared an assessment result with the professional. */
  shared: boolean
  /** The professional lists the patient (made by each booking, by the seed, by an admin). */
  listed: boolean
}

/**
 * Whether the two have a care link: an appointment in any state but a hold that expired unpaid, a
 * shared assessment, or a listing that no booking made. A listing left behind by a released hold
 * alone (every booking lists the patient, a held one too) is not a link.
 */
export const hasCareLink = ({ booked, anyAppointment, shared, listed }: CareFacts): boolean => booked || shared || (listed && !anyAppointment)

/** How long after sending a message its sender may delete it. */
export const DELETE_WINDOW_MS = 15 * 60_000

/** Whether a message sent at `sentAt` may still be deleted by its sender at `now`. */
export const mayDelete = (sentAt: number, now: number): boolean => now - sentAt <= DELETE_WINDOW_MS

export const MESSAGE_BLANK = 'This field may not be blank.'
export const MESSAGE_TOO_LONG = `Ensure this field has no more than ${MESSAGE_MAX_LENGTH} characters.`
export const MESSAGE_NUL = 'Null characters are not allowed.'

/**
 * A message's text as stored: line breaks as `\n` (a form posts `\r\n`), nothing else changed.
 * Answers the text, or why it is refused: blank (only spaces and line breaks), over the length, or
 * holding a NUL. Its length counts characters as people see them (code points), not UTF-16 units.
 */
export function messageText(raw: string): { text: string } | { problem: string } {
  const text = raw.replace(/\r\n?/g, '\n')
  if (text.includes('\u0000')) return { problem: MESSAGE_NUL }
  if (text.trim() === '') return { problem: MESSAGE_BLANK }
  if ([...text].length > MESSAGE_MAX_LENGTH) return { problem: MESSAGE_TOO_LONG }
  return { text }
}

/** The first words of a message for a list: at most `max` characters, cut at a word, line breaks as spaces. */
export function previewOf(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const chars = [...flat]
  if (chars.length <= max) return flat
  const cut = chars.slice(0, max).join('')
  const space = cut.lastIndexOf(' ')
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}

/** A message waits unread this long before its recipient is told by e-mail. */
export const NOTICE_AFTER_MS = 15 * 60_000
/** At most one e-mail per conversation and recipient in this long. */
export const NOTICE_EVERY_MS = 60 * 60_000

/**
 * Whether `instant` falls in quiet hours from `start` to `end` ("HH:MM", the end excluded) on the
 * recipient's wall clock in `timeZone`: the same hours every day, across midnight when the end is
 * earlier than the start (22:00 to 07:00), and through a change of the clocks as the wall clock reads.
 */
export function inQuietHours(instant: number, timeZone: string, quiet: { start: string; end: string } | null): boolean {
  if (!quiet) return false
  const now = storedClockMinutes(wallClockOf(instant, timeZone))
  const start = storedClockMinutes(quiet.start)
  const end = storedClockMinutes(quiet.end)
  return start < end ? now >= start && now < end : now >= start || now < end
}
