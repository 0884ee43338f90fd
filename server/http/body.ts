import { apiError, validationError } from './errors'

/** Request data as DRF's parsers would give it: plain fields plus uploaded files (multipart only). */
export type RequestData = { fields: Record<string, unknown>; files: Record<string, File> }

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
 * non-object data and unsupported types.
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
    const data: RequestData = { fields: {}, files: {} }
    for (const [key, value] of form.entries()) {
      if (typeof value === 'string') data.fields[key] ??= value
      // An untouched file input is a nameless, empty part; Django drops those too.
      else if (value.size > 0 || value.name !== '') data.files[key] ??= value
    }
    return data
  }

  const text = await request.text()
  if (text.trim() === '') return { fields: {}, files: {} }

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
    return { fields: parsed as Record<string, unknown>, files: {} }
  }

  if (contentType === 'application/x-www-form-urlencoded') {
    const fields: Record<string, unknown> = {}
    for (const [key, value] of new URLSearchParams(text)) fields[key] ??= value
    return { fields, files: {} }
  }

  throw apiError(415, `Unsupported media type "${contentType}" in request.`)
}

/** Convenience for endpoints that take only fields. */
export async function readFields(request: Request): Promise<Record<string, unknown>> {
  return (await readRequestData(request)).fields
}
