import { apiError } from '#server/http/errors.ts'

/**
 * Database ids are PostgreSQL `integer` columns: a number past this makes the query itself fail
 * (a 500), so every id from a client is checked against it before any query.
 */
export const MAX_ID = 2_147_483_647

type IdCheck = { id: number } | { problem: 'not-integer' | 'too-small' | 'too-large' }

/** An id as a client may send it: an integer or a string of digits (trimmed), from 1 to MAX_ID. */
export function checkId(value: unknown): IdCheck {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return { problem: 'not-integer' }
    return value < 1 ? { problem: 'too-small' } : value > MAX_ID ? { problem: 'too-large' } : { id: value }
  }
  const text = typeof value === 'string' ? value.trim() : ''
  // The sign is let through so "-3" is "too small" rather than "not an integer", as DRF says.
  if (!/^[-+]?\d+$/.test(text)) return { problem: 'not-integer' }
  const digits = text.replace(/^[-+]?0*/, '')
  if (text.startsWith('-') && digits !== '') return { problem: 'too-small' }
  // Compared as text first: a 100,000-digit string is never turned into a number.
  if (digits.length > String(MAX_ID).length) return { problem: 'too-large' }
  const id = Number(digits || '0')
  return id < 1 ? { problem: 'too-small' } : id > MAX_ID ? { problem: 'too-large' } : { id }
}

const INVALID_PATH_ID = `Invalid id. Ids are integers from 1 to ${MAX_ID}.`

/** A path id (":id{[0-9]+}"): the number, or a 400 before any query could fail on it. */
export function pathId(value: string | undefined): number {
  const checked = checkId(value)
  if ('problem' in checked) throw apiError(400, INVALID_PATH_ID)
  return checked.id
}
