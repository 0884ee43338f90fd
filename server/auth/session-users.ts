import { eq, sql, type SQL } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { preparedQuery } from '#server/db/prepared.ts'
import { authSessions, calendarConnections, groups, professionalProfiles, userGroups, users } from '#server/db/schema.ts'
import { liveSession } from '#server/auth/sessions.ts'

type UserRow = typeof users.$inferSelect

/**
 * A user and their group names (in group creation order) for a request's bearer token, in one
 * query: only if the token's session is live (the session row joined in). Every authenticated
 * request needs both, so this is the provider's most frequent lookup.
 */
export async function findSessionUserWithGroups(
  db: Database,
  { userId, sessionId, now }: { userId: number; sessionId: string; now: number },
): Promise<{ user: UserRow; groups: string[] } | undefined> {
  const [row] = await sessionUserQuery(db).execute({ sessionId, userId, now: new Date(now).toISOString() })
  return row
}

/** The groups come as an array subquery: one row per request, and a cheaper plan than joining four tables. */
const groupNames = () => sql<string[]>`array(select ${groups.name} from ${userGroups} inner join ${groups} on ${groups.id} = ${userGroups.groupId} where ${userGroups.userId} = ${users.id} order by ${groups.id})`

const sessionUserQuery = preparedQuery((db) => {
  return db
    .select({ user: users, groups: groupNames() })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(liveSession(sql.placeholder('sessionId'), sql.placeholder('userId'), sql.placeholder('now')))
    .prepare('session_user_with_groups')
})

/**
 * findSessionUserWithGroups plus one more value about the caller in the same statement (`extra`,
 * SQL over the caller's `users` row): for an endpoint whose whole answer is that value, one read
 * of the database instead of two.
 */
export function sessionLookupWith<T>(name: string, extra: SQL<T>) {
  const query = preparedQuery((db) =>
    db
      .select({ user: users, groups: groupNames(), extra })
      .from(authSessions)
      .innerJoin(users, eq(users.id, authSessions.userId))
      .where(liveSession(sql.placeholder('sessionId'), sql.placeholder('userId'), sql.placeholder('now')))
      .prepare(name),
  )
  return async (db: Database, { userId, sessionId, now }: { userId: number; sessionId: string; now: number }): Promise<{ user: UserRow; groups: string[]; extra: T } | undefined> => {
    const [row] = await query(db).execute({ sessionId, userId, now: new Date(now).toISOString() })
    return row
  }
}

/** A professional's schedule zone (null before their first save) and Google Calendar state. */
type ProfessionalContext = { timeZone: string | null; calendar: { calendar_enabled: boolean; token_valid: boolean } }

/**
 * The session lookup of the professional's home (`/appointments/dashboard/`, on every visit), with
 * their schedule's zone and calendar state in the same statement: one read less per visit.
 */
const sessionProfessionalQuery = preparedQuery((db) => {
  return db
    .select({ user: users, groups: groupNames(), timeZone: professionalProfiles.timeZone, connectedUser: calendarConnections.userId, tokenValid: calendarConnections.tokenValid })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .leftJoin(professionalProfiles, eq(professionalProfiles.userId, users.id))
    .leftJoin(calendarConnections, eq(calendarConnections.userId, users.id))
    .where(liveSession(sql.placeholder('sessionId'), sql.placeholder('userId'), sql.placeholder('now')))
    .prepare('session_user_with_professional_context')
})

/** findSessionUserWithGroups, plus the caller's ProfessionalContext (read whatever their role; checked by the caller). */
export async function findSessionUserWithProfessionalContext(
  db: Database,
  { userId, sessionId, now }: { userId: number; sessionId: string; now: number },
): Promise<{ user: UserRow; groups: string[]; professional: ProfessionalContext } | undefined> {
  const [row] = await sessionProfessionalQuery(db).execute({ sessionId, userId, now: new Date(now).toISOString() })
  if (!row) return undefined
  const connected = row.connectedUser != null
  return { user: row.user, groups: row.groups, professional: { timeZone: row.timeZone, calendar: { calendar_enabled: connected, token_valid: connected && row.tokenValid === true } } }
}
