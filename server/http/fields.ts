import { z } from 'zod'
import { validationError, type FieldErrors } from '#server/http/errors.ts'
import { isPersonName, normalisePersonName, PERSON_NAME_MESSAGE } from '#server/person-names.ts'
import { checkId, MAX_ID } from '#server/http/ids.ts'

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

/** An idempotency key (a booking's, decision 0034; a purchase's, decision 0048): random and URL-safe, as the app makes them. */
const IDEMPOTENCY_KEY_MESSAGE = 'Enter a valid idempotency key: 16 to 64 letters, digits, "-" or "_".'
export const idempotencyKeyField = () => charField({ maxLength: 64 }).regex(/^[A-Za-z0-9_-]{16,}$/, IDEMPOTENCY_KEY_MESSAGE)

/**
 * A person's name (server/person-names.ts): letters, marks, spaces, apostrophes, hyphens and
 * dots, bounded; no links, digits or control characters. Runs of spaces count as one.
 */
export function personNameField({ maxLength = 150, allowBlank = false } = {}) {
  return charField({ maxLength, allowBlank })
    .transform(normalisePersonName)
    .refine((name) => name === '' || isPersonName(name), PERSON_NAME_MESSAGE)
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

/**
 * The dates and instants a caller may send: years 2000 to 2100. No consultation, habit or
 * calendar event lies outside them, and far outside them the time-zone arithmetic (Intl's
 * wall clock of years below 1000 or above 9999) breaks down: a range check answers 400 there
 * instead of a 500.
 */
const EARLIEST_DATE = '2000-01-01'
const LATEST_DATE = '2100-12-31'
const EARLIEST_INSTANT = Date.parse(`${EARLIEST_DATE}T00:00:00Z`)
const LATEST_INSTANT = Date.parse(`${LATEST_DATE}T23:59:59.999Z`)

/** DRF's MinValueValidator and MaxValueValidator messages, as a DateField with bounds answers them. */
export const notBefore = (limit: string) => `Ensure this value is greater than or equal to ${limit}.`
const notAfter = (limit: string) => `Ensure this value is less than or equal to ${limit}.`

/** What is wrong with an existing date (YYYY-MM-DD) outside [earliest, latest]; undefined within. */
export function dateRangeProblem(date: string, { earliest = EARLIEST_DATE, latest = LATEST_DATE } = {}): string | undefined {
  if (date < earliest) return notBefore(earliest)
  if (date > latest) return notAfter(latest)
  return undefined
}

/** What is wrong with an instant outside the years 2000-2100; undefined within. */
export function instantRangeProblem(instant: number): string | undefined {
  if (instant < EARLIEST_INSTANT) return notBefore(`${EARLIEST_DATE}T00:00:00Z`)
  if (instant > LATEST_INSTANT) return notAfter(`${LATEST_DATE}T23:59:59Z`)
  return undefined
}

/** A date a caller may send: YYYY-MM-DD, existing, within the years 2000-2100. */
export const isDateInRange = (value: string) => isIsoDate(value) && dateRangeProblem(value) === undefined

/** An instant a caller may send: well formed and within the years 2000-2100. */
export const isInstantInRange = (instant: number) => instantRangeProblem(instant) === undefined

/** A DateField in YYYY-MM-DD within [earliest, latest] (the years 2000-2100 unless told). */
export function dateField(bounds: { earliest?: string; latest?: string } = {}) {
  return z.unknown().transform((value, context) => {
    const fail = (message: string) => {
      context.addIssue({ code: 'custom', message })
      return z.NEVER
    }
    if (value === undefined || value === '') return fail(REQUIRED)
    if (value === null) return fail(NOT_NULL)
    const text = typeof value === 'string' ? value.trim() : ''
    if (text.length > 10 || !isIsoDate(text)) return fail(DATE_FORMAT_MESSAGE)
    const problem = dateRangeProblem(text, bounds)
    return problem ? fail(problem) : text
  })
}

/** A DateField in YYYY-MM-DD; null or "" clear it (multipart forms cannot send null). */
export function nullableDateField(bounds: { earliest?: string; latest?: string } = {}) {
  return z
    .union([z.string(), z.null()], { error: DATE_FORMAT_MESSAGE })
    .transform((value) => (value === null || value.trim() === '' ? null : value.trim()))
    .refine((value) => value === null || (value.length <= 10 && isIsoDate(value)), DATE_FORMAT_MESSAGE)
    .superRefine((value, context) => {
      const problem = value !== null && isIsoDate(value) ? dateRangeProblem(value, bounds) : undefined
      if (problem) context.addIssue({ code: 'custom', message: problem })
    })
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

/** A ChoiceField: one of the given strings; DRF echoes a wrong value, cut short here (it may be huge). */
export function choiceField<const Choice extends string>(choices: readonly Choice[]) {
  return z.unknown().transform((value, context): Choice => {
    if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as Choice
    const shown = typeof value === 'string' ? value : (JSON.stringify(value) ?? '')
    const message = value === undefined ? REQUIRED : value === null ? NOT_NULL : `"${shown.length > 40 ? `${shown.slice(0, 40)}…` : shown}" is not a valid choice.`
    context.addIssue({ code: 'custom', message })
    return z.NEVER
  })
}

const ID_PROBLEMS = {
  'not-integer': 'A valid integer is required.',
  'too-small': 'Ensure this value is greater than or equal to 1.',
  'too-large': `Ensure this value is less than or equal to ${MAX_ID}.`,
} as const

/**
 * An id from a query parameter or body value (an IntegerField with min 1 and PostgreSQL's
 * integer maximum): ids out of that range would make the query fail.
 */
export function idField() {
  return z.unknown().transform((value, context) => {
    if (value === undefined || value === '') context.addIssue({ code: 'custom', message: REQUIRED })
    else if (value === null) context.addIssue({ code: 'custom', message: NOT_NULL })
    else {
      const checked = checkId(value)
      if ('id' in checked) return checked.id
      context.addIssue({ code: 'custom', message: ID_PROBLEMS[checked.problem] })
    }
    return z.NEVER
  })
}

/**
 * A number field with bounds: the value's text (a number's own, or a string trimmed) must match
 * `pattern` before it becomes a number, so a huge or odd string costs nothing; then min to max.
 */
function boundedNumberField({ min, max }: { min: number; max: number }, pattern: RegExp, invalid: string, textOf: (value: number) => string) {
  return z.unknown().transform((value, context) => {
    const fail = (message: string) => {
      context.addIssue({ code: 'custom', message })
      return z.NEVER
    }
    if (value === undefined || value === '') return fail(REQUIRED)
    if (value === null) return fail(NOT_NULL)
    const text = typeof value === 'number' ? textOf(value) : typeof value === 'string' ? value.trim() : ''
    if (!pattern.test(text)) return fail(invalid)
    const number = Number(text)
    if (number < min) return fail(`Ensure this value is greater than or equal to ${min}.`)
    if (number > max) return fail(`Ensure this value is less than or equal to ${max}.`)
    return number
  })
}

/** An IntegerField with bounds: an integer, or a string of digits (DRF accepts "12"), from min to max. */
export const integerField = (bounds: { min: number; max: number }) =>
  boundedNumberField(bounds, /^[-+]?\d{1,15}$/, 'A valid integer is required.', (value) => (Number.isInteger(value) ? String(value) : ''))

/** A FloatField with bounds: a finite number, or its text ("12.5"; at most 3 decimals), from min to max. */
export const decimalField = (bounds: { min: number; max: number }) =>
  boundedNumberField(bounds, /^[-+]?\d{1,9}(\.\d{1,3})?$/, 'A valid number is required.', (value) => (Number.isFinite(value) ? String(Math.round(value * 1000) / 1000) : ''))

export const TIME_ZONE_MESSAGE = 'Enter a valid time zone.'

let timeZones: Set<string> | undefined

/** An IANA time zone name the runtime knows (Intl.supportedValuesOf), or "UTC". */
export function isTimeZone(value: string): boolean {
  timeZones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC'])
  return timeZones.has(value)
}

/** Any zone name Intl can show times in, aliases included (America/Buenos_Aires): for reading, not for storing. */
export function isUsableTimeZone(value: string): boolean {
  if (value.length > 64) return false
  if (isTimeZone(value)) return true
  try {
    new Intl.DateTimeFormat('en', { timeZone: value })
    return /^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(value)
  } catch {
    return false
  }
}

export function timeZoneField() {
  return charField({ maxLength: 64 }).refine(isTimeZone, TIME_ZONE_MESSAGE)
}

// An offset (or Z) is required: a wall time without one would be read in some server time zone.
const INSTANT_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/i
const INSTANT_FORMAT_MESSAGE = 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]](+HH:MM|-HH:MM|Z).'

/** An ISO 8601 date and time with its offset ("2026-12-01T12:00:00.000Z") → ms since the epoch; undefined when malformed. */
export function parseInstant(value: string): number | undefined {
  const match = INSTANT_PATTERN.exec(value.trim())
  if (!match) return undefined
  // The date part must exist as written (no 2026-02-30).
  if (!isIsoDate(`${match[1]}-${match[2]}-${match[3]}`) || Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6] ?? 0) > 59) return undefined
  // JavaScript reads "+0300" only with a colon; microseconds are cut to milliseconds.
  const normalised = value
    .trim()
    .replace(/(\.\d{3})\d+/, '$1')
    .replace(/([+-]\d{2})(\d{2})$/, '$1:$2')
  const instant = Date.parse(normalised)
  return Number.isNaN(instant) ? undefined : instant
}

/** A DateTimeField (ISO 8601 with an offset) within the years 2000-2100, as ms since the epoch. */
export function instantField() {
  return z.unknown().transform((value, context) => {
    if (value === undefined || value === '') context.addIssue({ code: 'custom', message: REQUIRED })
    else if (value === null) context.addIssue({ code: 'custom', message: NOT_NULL })
    else {
      const instant = typeof value === 'string' && value.length <= 64 ? parseInstant(value) : undefined
      const problem = instant === undefined ? INSTANT_FORMAT_MESSAGE : instantRangeProblem(instant)
      if (instant !== undefined && problem === undefined) return instant
      context.addIssue({ code: 'custom', message: problem ?? INSTANT_FORMAT_MESSAGE })
    }
    return z.NEVER
  })
}

/** Python's name for a JSON value's type, as DRF's messages show it. */
export function pythonTypeName(value: unknown): string {
  if (value === null) return 'NoneType'
  if (Array.isArray(value)) return 'list'
  if (typeof value === 'string') return 'str'
  if (typeof value === 'boolean') return 'bool'
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float'
  return 'dict'
}

export const tooManyElements = (max: number) => `Ensure this field has no more than ${max} elements.`

/**
 * A ListField with a bounded length. The length is checked before any item is looked at, so a
 * huge list costs one comparison, not a parse of each element.
 */
export function listField<Item extends z.ZodType>(item: Item, { maxLength, allowEmpty = true }: { maxLength: number; allowEmpty?: boolean }) {
  const items = z.array(item)
  return z.unknown().transform((value, context): z.output<Item>[] => {
    const fail = (message: string) => {
      context.addIssue({ code: 'custom', message })
      return z.NEVER
    }
    if (value === undefined) return fail(REQUIRED)
    if (value === null) return fail(NOT_NULL)
    if (!Array.isArray(value)) return fail(`Expected a list of items but got type "${pythonTypeName(value)}".`)
    if (value.length > maxLength) return fail(tooManyElements(maxLength))
    if (!allowEmpty && value.length === 0) return fail('This list may not be empty.')
    const parsed = items.safeParse(value)
    if (parsed.success) return parsed.data
    for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', message: issue.message })
    return z.NEVER
  })
}

/** A zod path as a form names its input (conform's names): `questions[3].options[2].en`. */
export function fieldName(path: readonly PropertyKey[]): string {
  let name = ''
  for (const part of path) name += typeof part === 'number' ? `[${part}]` : name === '' ? String(part) : `.${String(part)}`
  return name
}

/**
 * Collects zod issues into DRF's `{"field": ["message", ...]}` body, each under the name of the
 * input it is about, down to `depth` steps of its path: 1 (the default) is DRF's top-level field;
 * a form with nested inputs (a text per language, a list of questions) names them deeper
 * (`title.en`, `questions[2].text.pt`), so each message shows beside its own input.
 */
export function toFieldErrors(error: z.ZodError, depth = 1): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? fieldName(issue.path.slice(0, depth)) : 'non_field_errors'
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
