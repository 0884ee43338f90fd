import { invalidRequest } from '#server/fakes/stripe/errors.ts'

/**
 * Stripe's request parameters as its SDKs send them: form-encoded, with brackets for nesting
 * (`metadata[user_id]=4`, `payment_method_types[0]=pix`, `expand[]=latest_charge`,
 * `payment_method_options[pix][expires_after_seconds]=600`), into plain objects and arrays
 * of strings. An object whose keys are 0..n-1 is an array.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue }
export type FormParams = { [key: string]: FormValue }

const MAX_PAIRS = 1000
const MAX_DEPTH = 6

/** `a[b][0]` → ["a", "b", "0"]; `a[]` → ["a", ""]. */
function pathOf(name: string): string[] {
  const open = name.indexOf('[')
  if (open === -1) return [name]
  const rest = name.slice(open)
  if (!/^(\[[^[\]]*\])+$/.test(rest)) throw invalidRequest(`Invalid parameter name: ${name}`)
  return [name.slice(0, open), ...[...rest.matchAll(/\[([^[\]]*)\]/g)].map((match) => match[1]!)]
}

type Node = { [key: string]: Node | string }

function toValue(node: Node | string): FormValue {
  if (typeof node === 'string') return node
  const keys = Object.keys(node)
  const isArray = keys.length > 0 && keys.every((key, index) => key === String(index))
  if (isArray) return keys.map((key) => toValue(node[key]!))
  const result: Record<string, FormValue> = {}
  for (const key of keys) result[key] = toValue(node[key]!)
  return result
}

export function parseStripeForm(text: string): FormParams {
  const root: Node = {}
  let pairs = 0
  for (const [name, value] of new URLSearchParams(text)) {
    if (++pairs > MAX_PAIRS) throw invalidRequest(`Too many parameters: at most ${MAX_PAIRS}.`)
    if (name.includes('\0') || value.includes('\0')) throw invalidRequest('Parameters may not contain null characters.')
    const path = pathOf(name)
    if (path.length > MAX_DEPTH) throw invalidRequest(`Invalid parameter name: ${name} (nested too deeply).`)
    let node = root
    for (const [index, segment] of path.entries()) {
      // "a[]" appends: the next free index of that array.
      const key = segment === '' && index > 0 ? String(Object.keys(node).length) : segment
      if (index === path.length - 1) {
        if (typeof node[key] === 'object') throw invalidRequest(`Invalid parameter: ${name} is given both as a value and as an object.`)
        node[key] = value
      } else {
        const next = (node[key] ??= {})
        if (typeof next === 'string') throw invalidRequest(`Invalid parameter: ${name} is given both as a value and as an object.`)
        node = next
      }
    }
  }
  // The top level is always an object of parameters, even were their names digits.
  const params: FormParams = {}
  for (const [key, node] of Object.entries(root)) params[key] = toValue(node)
  return params
}
