/**
 * Structured logging: one JSON object per line. Callers pass only what is safe to keep:
 * never a token, a password, a request body or an e-mail's contents.
 */
export type LogEntry = { level: 'info' | 'warn' | 'error'; msg: string } & Record<string, unknown>
export type Logger = (entry: LogEntry) => void

export const jsonLogger: Logger = (entry) => {
  const line = JSON.stringify({ time: new Date().toISOString(), ...entry })
  if (entry.level === 'info') process.stdout.write(`${line}\n`)
  else process.stderr.write(`${line}\n`)
}

export const silentLogger: Logger = () => undefined

/**
 * Paths that carry secrets in their segments: the prefix, then how many segments after it are
 * secret. An e-mailed link's uid and token are as good as a password for a few days. A new
 * route with a secret in its path adds a line here.
 */
const SECRET_PATHS: { prefix: string; secretSegments: number }[] = [
  { prefix: '/users/password-reset-confirm/', secretSegments: 2 },
  { prefix: '/users/confirm-email/', secretSegments: 2 },
  // The private calendar feed: the token is the only credential (GET /appointments/calendar-feed/{token}/).
  { prefix: '/appointments/calendar-feed/', secretSegments: 1 },
]

const REDACTED = '[redacted]'

/**
 * The path as it may be logged: no query string (it can carry codes and e-mails) and the
 * secret segments of SECRET_PATHS replaced. The prefix is matched case-insensitively, so a
 * near-miss that did not route still does not leak what it carried.
 */
export function redactPath(pathWithQuery: string): string {
  // Repeated slashes would route nowhere, but must not slip a secret past the prefixes either.
  const path = (pathWithQuery.split(/[?#]/, 1)[0] ?? '').replace(/\/{2,}/g, '/')
  const lower = path.toLowerCase()
  for (const { prefix, secretSegments } of SECRET_PATHS) {
    if (!lower.startsWith(prefix)) continue
    const segments = path.slice(prefix.length).split('/')
    for (let index = 0; index < Math.min(secretSegments, segments.length); index += 1) {
      if (segments[index] !== '') segments[index] = REDACTED
    }
    return path.slice(0, prefix.length) + segments.join('/')
  }
  return path
}

/**
 * An unhandled error as it may be logged. drizzle's DrizzleQueryError puts the query's
 * parameters (e-mails, password and token hashes, whatever was being written) in its message
 * and so in its stack: those are replaced by the query text and the database's own message.
 */
export function errorFields(error: unknown): { error: string; stack?: string } {
  if (!(error instanceof Error)) return { error: String(error) }
  const failedQuery = error as Error & { query?: unknown; params?: unknown }
  if (typeof failedQuery.query !== 'string' || !('params' in failedQuery)) return { error: error.message, stack: error.stack }
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  const message = `Failed query: ${failedQuery.query} (parameters not logged)${cause}`
  const frames = error.stack?.split('\n').filter((line) => /^\s+at /.test(line)) ?? []
  return { error: message, stack: [`${error.name}: ${message}`, ...frames].join('\n') }
}
