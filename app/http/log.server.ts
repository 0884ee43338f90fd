/**
 * One JSON line per event. Paths are redacted: a password-reset or confirmation link carries a
 * token in its path, and so does a private calendar feed (the app's /calendario/<token>.ics and
 * the provider's /appointments/calendar-feed/<token>/, under whatever prefix PROVIDER_API_URL
 * has); query strings can carry OAuth codes. None of them ever reaches a log.
 */
const SECRET_PATHS: [RegExp, string][] = [
  [/^\/auth\/(reset|confirm)\/[^/]+\/[^/]+/, '/auth/$1/:uid/:token'],
  [/^\/users\/(password-reset-confirm|confirm-email)\/[^/]+\/[^/]+/, '/users/$1/:uid/:token'],
  // Repeated slashes or another case would not route, but must not carry a token into the log either.
  [/^\/+calendario\/+[^/]+/i, '/calendario/:token.ics'],
  [/^(.*\/appointments\/calendar-feed\/)[^/]+/i, '$1:token'],
]

export function redactPath(pathWithQuery: string): string {
  const path = pathWithQuery.split('?')[0] ?? '/'
  for (const [pattern, replacement] of SECRET_PATHS) {
    if (pattern.test(path)) return path.replace(pattern, replacement)
  }
  return path
}

type Level = 'error' | 'info' | 'debug'
const LEVELS: Record<string, number> = { silent: 0, error: 1, info: 2, debug: 3 }

export function log(level: Level, event: Record<string, unknown>) {
  const threshold = LEVELS[process.env.LOG_LEVEL ?? 'info'] ?? 2
  if ((LEVELS[level] ?? 2) > threshold) return
  const line = JSON.stringify({ time: new Date().toISOString(), level, ...event })
  if (level === 'error') process.stderr.write(line + '\n')
  else process.stdout.write(line + '\n')
}
