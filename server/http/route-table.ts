/**
 * The set of paths the API serves and the methods each accepts. Hono only knows "no handler";
 * this table lets the fallback answer like Django: 405 with an Allow header for a known path
 * with the wrong method, a 301 to the slash-terminated path (APPEND_SLASH) for a GET that
 * forgot its trailing slash, and 404 otherwise.
 */
type Entry = { pattern: RegExp; methods: Set<string> }

export class RouteTable {
  private readonly entries = new Map<string, Entry>()

  add(path: string, methods: string[]): void {
    const entry = this.entries.get(path) ?? { pattern: compilePath(path), methods: new Set<string>() }
    for (const method of methods) entry.methods.add(method.toUpperCase())
    this.entries.set(path, entry)
  }

  /** Methods accepted at this concrete path (HEAD and OPTIONS implied), or undefined if the path is unknown. */
  allowedMethods(pathname: string): string[] | undefined {
    const methods = new Set<string>()
    for (const entry of this.entries.values()) {
      if (entry.pattern.test(pathname)) for (const method of entry.methods) methods.add(method)
    }
    if (methods.size === 0) return undefined
    if (methods.has('GET')) methods.add('HEAD')
    methods.add('OPTIONS')
    return [...methods]
  }
}

/** Turns a Hono path ("/users/:id{[0-9]+}/") into an anchored regular expression. */
export function compilePath(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => {
      const param = /^:\w+(?:\{(.+)\})?$/.exec(segment)
      if (param) return `(?:${param[1] ?? '[^/]+'})`
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    })
    .join('/')
  return new RegExp(`^${source}$`)
}
