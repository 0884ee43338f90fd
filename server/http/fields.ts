import { z } from 'zod'
import { validationError, type FieldErrors } from './errors'

/**
 * zod schemas that fail with Django REST Framework's own messages, so validation errors read
 * exactly like the Django provider's.
 */
const REQUIRED = 'This field is required.'
const NOT_NULL = 'This field may not be null.'
const BLANK = 'This field may not be blank.'

const missingOrWrongType = (wrongType: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? REQUIRED : issue.input === null ? NOT_NULL : wrongType

const maxLengthMessage = (max: number) => `Ensure this field has no more than ${max} characters.`

/** A CharField: trimmed (unless told otherwise), not blank unless allowed, bounded. */
export function charField({ maxLength = 150, allowBlank = false, trim = true } = {}) {
  let schema = z.string({ error: missingOrWrongType('Not a valid string.') })
  if (trim) schema = schema.trim()
  // DRF stops at a blank value: no further messages about it.
  if (!allowBlank) schema = schema.min(1, { message: BLANK, abort: true })
  return schema.max(maxLength, maxLengthMessage(maxLength))
}

// Pragmatic and close to Django's EmailValidator: a local part, an "@", a dotted domain.
const EMAIL_PATTERN = /^[^\s@"(),:;<>[\]\\]+@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/i

export function emailField() {
  return charField({ maxLength: 254 }).regex(EMAIL_PATTERN, 'Enter a valid email address.')
}

/** Passwords are never trimmed: leading or trailing spaces are part of them. */
export function passwordField() {
  return charField({ maxLength: 128, trim: false })
}

export const DATE_FORMAT_MESSAGE = 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'

export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
}

/** A DateField in YYYY-MM-DD; null or "" clear it (multipart forms cannot send null). */
export function nullableDateField() {
  return z
    .union([z.string(), z.null()], { error: DATE_FORMAT_MESSAGE })
    .transform((value) => (value === null || value.trim() === '' ? null : value.trim()))
    .refine((value) => value === null || isIsoDate(value), DATE_FORMAT_MESSAGE)
}

const TRUE_VALUES = new Set([true, 1, '1', 'true', 'True', 'TRUE', 'yes', 'Yes', 'on', 'On', 't', 'T', 'y', 'Y'])
const FALSE_VALUES = new Set([false, 0, '0', 'false', 'False', 'FALSE', 'no', 'No', 'off', 'Off', 'f', 'F', 'n', 'N'])

/** A BooleanField, accepting the same spellings DRF accepts. */
export function booleanField() {
  return z.unknown().transform((value, context) => {
    if (TRUE_VALUES.has(value as never)) return true
    if (FALSE_VALUES.has(value as never)) return false
    context.addIssue({ code: 'custom', message: value === undefined ? REQUIRED : value === null ? NOT_NULL : 'Must be a valid boolean.' })
    return z.NEVER
  })
}

/** An IntegerField from a query parameter or body value. */
export function integerField() {
  return z.unknown().transform((value, context) => {
    const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined
    if (text !== undefined && /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text)
    context.addIssue({ code: 'custom', message: value === undefined || value === '' ? REQUIRED : 'A valid integer is required.' })
    return z.NEVER
  })
}

/** Collects zod issues into DRF's `{"field": ["message", ...]}` body. */
export function toFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : 'non_field_errors'
    const messages = (errors[field] ??= [])
    if (!messages.includes(issue.message)) messages.push(issue.message)
  }
  return errors
}

/** Validates data against a zod object schema, throwing a 400 with field errors on failure. */
export function validate<Schema extends z.ZodType>(schema: Schema, data: unknown): z.output<Schema> {
  const result = schema.safeParse(data)
  if (!result.success) throw validationError(toFieldErrors(result.error))
  return result.data
}
