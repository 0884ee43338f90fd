/** SQLSTATE of an exclusion-constraint violation (e.g. two overlapping appointments). */
const EXCLUSION_VIOLATION = '23P01'
/** SQLSTATE of a unique-index violation. */
export const UNIQUE_VIOLATION = '23505'

/**
 * The PostgreSQL error behind a failed query, whichever driver raised it: node-postgres and
 * PGlite both put `code` (the SQLSTATE) and `constraint` on their errors, and drizzle wraps them
 * (the driver's error is its `cause`).
 */
export function databaseError(error: unknown): { code: string; constraint?: string } | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown }
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return { code: candidate.code, constraint: typeof candidate.constraint === 'string' ? candidate.constraint : undefined }
    }
    current = candidate.cause
  }
  return undefined
}

/** Whether a failed query broke the named exclusion constraint. */
export function isExclusionViolation(error: unknown, constraint: string): boolean {
  const found = databaseError(error)
  // A driver that leaves `constraint` out still names it in the message, which the code check covers.
  return found?.code === EXCLUSION_VIOLATION && (found.constraint === undefined || found.constraint === constraint)
}

/** Whether a failed query broke the named unique index (or one the driver did not name). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const found = databaseError(error)
  return found?.code === UNIQUE_VIOLATION && (found.constraint === undefined || found.constraint === constraint)
}
