/**
 * The translations the page's components render with, on the server and in the browser: the
 * locales' JSON (i18next's format: `ns:key`, dotted paths, `{{value}}`, plural and context
 * suffixes) read the way i18next reads it, without shipping i18next to the browser (about 14 KiB
 * gzipped, as much as everything else the app adds to React and Remix). Loaders and actions keep
 * i18next (i18next.server.ts). No I/O here: the namespaces come from a loader function.
 */
import { defaultNamespace } from './config.ts'

export type Namespace = Record<string, unknown>
type TranslateOptions = {
  count?: number
  context?: string
  defaultValue?: string
  returnObjects?: boolean
  /** Another namespace to read `key` from (the first that has it, for a list). */
  ns?: string | readonly string[]
  [value: string]: unknown
}
export type TFunction = (key: string, options?: TranslateOptions) => string

const INTERPOLATION = /\{\{\s*([^{}\s]+)\s*\}\}/g

function lookup(data: Namespace | undefined, path: string): unknown {
  if (!data) return undefined
  if (Object.hasOwn(data, path)) return data[path]
  let value: unknown = data
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined
    value = (value as Record<string, unknown>)[part]
  }
  return value
}

/** `{{name}}` → the value; a placeholder without a value stays as it is (as in i18next). */
export function interpolate(text: string, values: TranslateOptions | undefined): string {
  if (!values || !text.includes('{{')) return text
  return text.replace(INTERPOLATION, (placeholder, name: string) => {
    const value = values[name]
    return value === undefined || value === null ? placeholder : String(value)
  })
}

/**
 * One language's namespaces. Those not yet here are fetched with `fetchNamespace` (the browser
 * loads each page's own: a chunk per language and namespace); on the server every one is here.
 */
export class Translations {
  readonly language: string
  private readonly namespaces: Map<string, Namespace>
  private readonly pending = new Map<string, Promise<void>>()
  private readonly fixed = new Map<string, TFunction>()
  private readonly plurals: Intl.PluralRules

  constructor(
    language: string,
    namespaces: Record<string, Namespace>,
    private readonly fetchNamespace?: (language: string, namespace: string) => Promise<Namespace>,
  ) {
    this.language = language
    this.namespaces = new Map(Object.entries(namespaces))
    this.plurals = new Intl.PluralRules(language)
  }

  has(namespace: string): boolean {
    return this.namespaces.has(namespace)
  }

  /** Fetches what is missing of `namespaces`; one request per namespace, however many ask. */
  load(namespaces: readonly string[]): Promise<void> {
    return Promise.all(
      namespaces
        .filter((namespace) => !this.has(namespace))
        .map((namespace) => {
          let pending = this.pending.get(namespace)
          if (!pending) {
            if (!this.fetchNamespace) return Promise.reject(new Error(`translations: namespace '${namespace}' is not loaded`))
            pending = this.fetchNamespace(this.language, namespace).then(
              (data) => void this.namespaces.set(namespace, data),
              (error: unknown) => {
                this.pending.delete(namespace)
                throw error
              },
            )
            this.pending.set(namespace, pending)
          }
          return pending
        }),
    ).then(() => undefined)
  }

  /** The value at `key` (`ns:path` or a path in `namespace`), with plural and context suffixes. */
  resolve(key: string, options: TranslateOptions | undefined, namespace = defaultNamespace): unknown {
    const separator = key.indexOf(':')
    const places: [string, string][] =
      separator > 0 ? [[key.slice(0, separator), key.slice(separator + 1)]] : [options?.ns ?? namespace].flat().map((ns) => [ns, key])
    for (const [ns, path] of places) {
      const value = this.resolveIn(ns, path, options)
      if (value !== undefined) return value
    }
    return undefined
  }

  private resolveIn(ns: string, path: string, options: TranslateOptions | undefined): unknown {
    const data = this.namespaces.get(ns)
    const bases = options?.context ? [`${path}_${options.context}`, path] : [path]
    for (const base of bases) {
      if (typeof options?.count === 'number') {
        const suffixes = [...(options.count === 0 ? ['zero'] : []), this.plurals.select(options.count), 'other']
        for (const suffix of suffixes) {
          const value = lookup(data, `${base}_${suffix}`)
          if (value !== undefined) return value
        }
      }
      const value = lookup(data, base)
      if (value !== undefined) return value
    }
    return undefined
  }

  exists(key: string, namespace = defaultNamespace): boolean {
    return this.resolve(key, undefined, namespace) !== undefined
  }

  /** `t` with `namespace` as the default; a missing key shows as the key (as in i18next). */
  t(namespace = defaultNamespace): TFunction {
    let t = this.fixed.get(namespace)
    if (!t) {
      t = (key, options) => {
        const value = this.resolve(key, options, namespace)
        if (typeof value === 'string') return interpolate(value, options)
        if (value !== undefined && options?.returnObjects) return value as string
        return options?.defaultValue !== undefined ? interpolate(options.defaultValue, options) : key.slice(key.indexOf(':') + 1)
      }
      this.fixed.set(namespace, t)
    }
    return t
  }
}
