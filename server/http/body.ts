import { apiError, validationError } from '#server/http/errors.ts'

/**
 * Request data as DRF's parsers would give it: plain fields plus uploaded files (multipart only):
 * `files` the first of each name, `fileLists` all of them in order (an input with `multiple`).
 */
type RequestData = { fields: Record<string, unknown>; files: Record<string, File>; fileLists: Record<string, File[]> }

/** Django's DATA_UPLOAD_MAX_NUMBER_FIELDS: fields of a form, keys of any one JSON object. */
export const MAX_FIELDS = 1000
/** No request of ours nests deeper than a few levels; this bounds any walk over the data. */
export const MAX_DEPTH = 32

export const NULL_CHARACTERS = 'Null characters are not allowed.'
const TOO_MANY_FIELDS = `Too many fields: at most ${MAX_FIELDS} are allowed.`
const TOO_DEEP = `JSON parse error - nested deeper than ${MAX_DEPTH} levels.`

// PostgreSQL text cannot hold U+0000: a query carrying one fails, so it never gets that far.
const refuseNul = (text: string) => {
  if (text.includes('\0')) throw apiError(400, NULL_CHARACTERS)
}

/**
 * Walks parsed JSON once, without recursion (no stack to exhaust): refuses a NUL in any key or
 * string, an object with more than MAX_FIELDS keys, and nesting past MAX_DEPTH.
 */
function checkJson(root: unknown): void {
  const pending: [value: unknown, depth: number][] = [[root, 1]]
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!
    if (typeof value === 'string') refuseNul(value)
    if (value === null || typeof value !== 'object') continue
    if (depth > MAX_DEPTH) throw apiError(400, TOO_DEEP)
    if (Array.isArray(value)) {
      for (const item of value) pending.push([item, depth + 1])
      continue
    }
    const keys = Object.keys(value)
    if (keys.length > MAX_FIELDS) throw apiError(400, TOO_MANY_FIELDS)
    for (const key of keys) {
      refuseNul(key)
      pending.push([(value as Record<string, unknown>)[key], depth + 1])
    }
  }
}

/** Form fields (urlencoded or multipart) into an object: first value wins, as Django's QueryDict.get. */
function formFields(entries: Iterable<[string, string]>): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  let count = 0
  for (const [key, value] of entries) {
    if (++count > MAX_FIELDS) throw apiError(400, TOO_MANY_FIELDS)
    refuseNul(key)
    refuseNul(value)
    fields[key] ??= value
  }
  return fields
}

const PYTHON_TYPE_NAMES: Record<string, string> = { string: 'str', number: 'int', boolean: 'bool' }

function pythonTypeName(value: unknown): string {
  if (value === null) return 'NoneType'
  if (Array.isArray(value)) return 'list'
  if (typeof value === 'number' && !Number.isInteger(value)) return 'float'
  return PYTHON_TYPE_NAMES[typeof value] ?? typeof value
}

/**
 * Parses a request body the way DRF's default parsers do: JSON, form-urlencoded and
 * multipart. An empty body is an empty object. Throws DRF's errors for malformed JSON,
 * non-object data and unsupported types, and a 400 for data no endpoint takes: a NUL character
 * anywhere, more than MAX_FIELDS fields or keys, nesting past MAX_DEPTH.
 */
export async function readRequestData(request: Request): Promise<RequestData> {
  const contentType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()

  if (contentType === 'multipart/form-data') {
    let form: FormData
    try {
      form = await request.formData()
    } catch (error) {
      throw apiError(400, `Multipart form parse error - ${error instanceof Error ? error.message : 'invalid body'}`)
    }
    const strings: [string, string][] = []
    const files: Record<string, File> = {}
    const fileLists: Record<string, File[]> = {}
    let count = 0
    for (const [key, value] of form.entries()) {
      if (++count > MAX_FIELDS) throw apiError(400, TOO_MANY_FIELDS)
      if (typeof value === 'string') strings.push([key, value])
      else {
        refuseNul(key)
        // An untouched file input is a nameless, empty part; Django drops those too.
        if (value.size > 0 || value.name !== '') {
          files[key] ??= value
          ;(fileLists[key] ??= []).push(value)
        }
      }
    }
    return { fields: formFields(strings), files, fileLists }
  }

  const text = await request.text()
  if (text.trim() === '') return { fields: {}, files: {}, fileLists: {} }

  if (contentType === 'application/json' || contentType.endsWith('+json')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      throw apiError(400, `JSON parse error - ${error instanceof Error ? error.message : 'invalid JSON'}`)
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      // DRF reports this from the serializer, as a non-field error.
      throw validationError({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonTypeName(parsed)}.`] })
    }
    checkJson(parsed)
    return { fields: parsed as Record<string, unknown>, files: {}, fileLists: {} }
  }

  if (contentType === 'application/x-www-form-urlencoded') {
    return { fields: formFields(new URLSearchParams(text)), files: {}, fileLists: {} }
  }

  throw apiError(415, `Unsupported media type "${contentType}" in request.`)
}

/** Convenience for endpoints that take only fields. */
export async function readFields(request: Request): Promise<Record<string, unknown>> {
  return (await readRequestData(request)).fields
}
