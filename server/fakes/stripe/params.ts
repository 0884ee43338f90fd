import { invalidRequest, missingParam } from '#server/fakes/stripe/errors.ts'
import type { FormParams, FormValue } from '#server/fakes/stripe/form.ts'

/**
 * Reading the fake Stripe's parameters as Stripe does: unknown ones refused by name
 * ("Received unknown parameter: amout"), values checked with Stripe's messages.
 */

const isObject = (value: FormValue | undefined): value is { [key: string]: FormValue } => typeof value === 'object' && !Array.isArray(value)

/** Refuses any top-level parameter not in `known` (`expand` is always accepted, and ignored). */
export function onlyKnown(params: FormParams, known: readonly string[]): void {
  for (const name of Object.keys(params)) {
    if (name !== 'expand' && !known.includes(name)) throw invalidRequest(`Received unknown parameter: ${name}`, { code: 'parameter_unknown', param: name })
  }
}

/** Refuses keys of a nested parameter not in `known`: `payment_method_options[pix][expires_afterr]`. */
export function onlyKnownIn(value: FormValue | undefined, path: string, known: readonly string[]): void {
  if (!isObject(value)) return
  for (const name of Object.keys(value)) {
    if (!known.includes(name)) throw invalidRequest(`Received unknown parameter: ${path}[${name}]`, { code: 'parameter_unknown', param: `${path}[${name}]` })
  }
}

export function text(params: { [key: string]: FormValue } | undefined, name: string, path = name): string | undefined {
  const value = params?.[name]
  if (value === undefined) return undefined
  if (typeof value !== 'string') throw invalidRequest(`Invalid string: ${path} must be a string.`, { code: 'parameter_invalid_string', param: path })
  return value
}

export function requiredText(params: { [key: string]: FormValue } | undefined, name: string, path = name): string {
  const value = text(params, name, path)
  if (value === undefined || value === '') throw missingParam(path)
  return value
}

export function integer(params: { [key: string]: FormValue } | undefined, name: string, path = name): number | undefined {
  const value = text(params, name, path)
  if (value === undefined) return undefined
  if (!/^-?\d{1,15}$/.test(value)) throw invalidRequest(`Invalid integer: ${value}`, { code: 'parameter_invalid_integer', param: path })
  return Number(value)
}

export function boolean(params: { [key: string]: FormValue } | undefined, name: string, path = name): boolean | undefined {
  const value = text(params, name, path)
  if (value === undefined) return undefined
  if (value !== 'true' && value !== 'false') throw invalidRequest(`Invalid boolean: ${value}`, { code: 'parameter_invalid_boolean', param: path })
  return value === 'true'
}

export function oneOf<T extends string>(params: { [key: string]: FormValue } | undefined, name: string, allowed: readonly T[], path = name): T | undefined {
  const value = text(params, name, path)
  if (value === undefined) return undefined
  if (!(allowed as readonly string[]).includes(value)) {
    throw invalidRequest(`Invalid ${path}: must be one of ${allowed.join(', ')}`, { code: 'parameter_invalid_string', param: path })
  }
  return value as T
}

export function object(params: { [key: string]: FormValue } | undefined, name: string, path = name): { [key: string]: FormValue } | undefined {
  const value = params?.[name]
  if (value === undefined || value === '') return undefined
  if (!isObject(value)) throw invalidRequest(`Invalid object: ${path} must be an object.`, { code: 'parameter_invalid_object', param: path })
  return value
}

export function list(params: { [key: string]: FormValue } | undefined, name: string, path = name): FormValue[] | undefined {
  const value = params?.[name]
  if (value === undefined) return undefined
  if (!Array.isArray(value)) throw invalidRequest(`Invalid array: ${path} must be an array.`, { code: 'parameter_invalid_array', param: path })
  return value
}

export function textList(params: { [key: string]: FormValue } | undefined, name: string): string[] | undefined {
  const values = list(params, name)
  if (values === undefined) return undefined
  return values.map((value, index) => {
    if (typeof value !== 'string') throw invalidRequest(`Invalid string: ${name}[${index}] must be a string.`, { code: 'parameter_invalid_string', param: `${name}[${index}]` })
    return value
  })
}

/** Stripe's metadata: at most 50 keys of up to 40 characters, values of up to 500; "" empties it. */
export function metadata(params: FormParams, previous: Record<string, string> = {}): Record<string, string> {
  const value = params.metadata
  if (value === undefined) return previous
  if (value === '') return {}
  if (!isObject(value)) throw invalidRequest('Invalid object', { code: 'parameter_invalid_object', param: 'metadata' })
  const result: Record<string, string> = { ...previous }
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== 'string') throw invalidRequest(`Invalid metadata[${key}]: must be a string.`, { param: `metadata[${key}]` })
    if (key.length > 40) throw invalidRequest(`Metadata keys can have up to 40 characters; ${key} has ${key.length}.`, { param: 'metadata' })
    if (entry.length > 500) throw invalidRequest(`Metadata values can have up to 500 characters, but you passed in a value that is ${entry.length} characters.`, { param: `metadata[${key}]` })
    // An empty value removes the key, as at Stripe.
    if (entry === '') delete result[key]
    else result[key] = entry
  }
  if (Object.keys(result).length > 50) throw invalidRequest('Metadata can have up to 50 keys.', { param: 'metadata' })
  return result
}

/** Stripe's list parameters. */
export function listParams(params: FormParams): { limit: number; startingAfter: string | undefined } {
  const limit = integer(params, 'limit') ?? 10
  if (limit < 1 || limit > 100) throw invalidRequest('Invalid limit: must be between 1 and 100', { code: 'parameter_invalid_integer', param: 'limit' })
  return { limit, startingAfter: text(params, 'starting_after') || undefined }
}
