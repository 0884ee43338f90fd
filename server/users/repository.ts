import { and, asc, count, eq, exists, inArray, like, or, sql, type SQL } from 'drizzle-orm'
import type { Clock } from '#server/clock.ts'
import type { Database } from '#server/db/client.ts'
import { likePattern } from '#server/db/like-pattern.ts'
import { preparedQuery } from '#server/db/prepared.ts'
import { revokeAllSessions } from '#server/auth/sessions.ts'
import { calendarFeeds, groups, professionalPatients, photos, userGroups, users } from '#server/db/schema.ts'

export type UserRow = typeof users.$inferSelect

const lowerEmail = sql`lower(${users.email})`

export async function findUserById(db: Database, id: number): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id))
  return user
}

/** E-mails match case-insensitively, like Django's `email__iexact`. */
export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(lowerEmail, email.trim().toLowerCase()))
  return user
}

export async function findUserByGoogleSubject(db: Database, subject: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.googleSubject, subject))
  return user
}

export async function usernameTaken(db: Database, username: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.username, username))
  return row !== undefined
}

/** Group names per user, in group creation order (admin, profissional, paciente, then others). */
export async function groupNamesByUser(db: Database, userIds: number[]): Promise<Map<number, string[]>> {
  const result = new Map<number, string[]>(userIds.map((id) => [id, []]))
  if (userIds.length === 0) return result
  const rows = await db
    .select({ userId: userGroups.userId, name: groups.name })
    .from(userGroups)
    .innerJoin(groups, eq(groups.id, userGroups.groupId))
    .where(inArray(userGroups.userId, userIds))
    .orderBy(asc(groups.id))
  for (const row of rows) result.get(row.userId)?.push(row.name)
  return result
}

export async function groupNamesOf(db: Database, userId: number): Promise<string[]> {
  return (await groupNamesByUser(db, [userId])).get(userId) ?? []
}

export async function groupIdsByName(db: Database, names: string[]): Promise<Map<string, number>> {
  if (names.length === 0) return new Map()
  const rows = await db.select().from(groups).where(inArray(groups.name, names))
  return new Map(rows.map((row) => [row.name, row.id]))
}

/** Replaces a user's groups with the named ones (which must exist). */
export async function setUserGroups(db: Database, userId: number, names: string[]): Promise<void> {
  const ids = await groupIdsByName(db, names)
  await db.delete(userGroups).where(eq(userGroups.userId, userId))
  if (ids.size > 0) await db.insert(userGroups).values([...ids.values()].map((groupId) => ({ userId, groupId })))
}

type NewUser = typeof users.$inferInsert & { groupNames: string[] }

export async function createUser(db: Database, { groupNames, ...values }: NewUser): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const [user] = await tx.insert(users).values(values).returning()
    const ids = await groupIdsByName(tx as unknown as Database, groupNames)
    if (ids.size > 0) await tx.insert(userGroups).values([...ids.values()].map((groupId) => ({ userId: user!.id, groupId })))
    return user!
  })
}

/** The PostgreSQL unique-violation constraint name, when that is what went wrong. */
export function uniqueViolation(error: unknown): string | undefined {
  let current: unknown = error
  // drizzle wraps driver errors; the code sits on the cause.
  for (let depth = 0; depth < 3 && current && typeof current === 'object'; depth += 1) {
    const candidate = current as { code?: string; constraint?: string; message?: string; cause?: unknown }
    if (candidate.code === '23505') return candidate.constraint ?? /"([^"]+)"/.exec(candidate.message ?? '')?.[1] ?? 'unknown'
    current = candidate.cause
  }
  return undefined
}

/** Django's username characters: letters, digits and @ . + - _ */
export const USERNAME_PATTERN = /^[\p{L}\p{N}_@.+-]+$/u

/** A free username derived from an e-mail's local part: "ana.souza", then "ana.souza2", ... */
export async function uniqueUsernameFromEmail(db: Database, email: string): Promise<string> {
  const base = (email.split('@')[0] ?? '').replace(/[^\p{L}\p{N}_@.+-]/gu, '').slice(0, 140) || 'user'
  const rows = await db
    .select({ username: users.username })
    .from(users)
    .where(or(eq(users.username, base), like(users.username, `${base.replace(/[\\%_]/g, '\\$&')}%`)))
  const taken = new Set(rows.map((row) => row.username))
  if (!taken.has(base)) return base
  for (let suffix = 2; ; suffix += 1) {
    if (!taken.has(`${base}${suffix}`)) return `${base}${suffix}`
  }
}

export async function isCareLinked(db: Database, professionalId: number, patientId: number): Promise<boolean> {
  const [row] = await db
    .select({ patientId: professionalPatients.patientId })
    .from(professionalPatients)
    .where(and(eq(professionalPatients.professionalId, professionalId), eq(professionalPatients.patientId, patientId)))
  return row !== undefined
}

export async function usersInGroup(db: Database, groupName: string): Promise<UserRow[]> {
  const rows = await db
    .select({ user: users })
    .from(users)
    .innerJoin(userGroups, eq(userGroups.userId, users.id))
    .innerJoin(groups, eq(groups.id, userGroups.groupId))
    .where(and(eq(groups.name, groupName), eq(users.isActive, true)))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id))
  return rows.map((row) => row.user)
}

/** A page of a professional's patients, by name: every booking can add one, so it is read a page at a time. */
export async function patientsOf(db: Database, professionalId: number, { limit, offset }: { limit: number; offset: number }): Promise<{ user: UserRow; linkedAt: Date }[]> {
  return patientsQuery(db).execute({ professionalId, limit, offset })
}

export async function countPatientsOf(db: Database, professionalId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(professionalPatients).where(eq(professionalPatients.professionalId, professionalId))
  return Number(row?.total ?? 0)
}

const patientsQuery = preparedQuery((db) =>
  db
    .select({ user: users, linkedAt: professionalPatients.createdAt })
    .from(professionalPatients)
    .innerJoin(users, eq(users.id, professionalPatients.patientId))
    .where(eq(professionalPatients.professionalId, sql.placeholder('professionalId')))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('patients_of_professional'),
)

/** The admins' filters of the user list: a text in the username, e-mail or names; a group, by name in any case; active or not. */
export type UserFilter = { search?: string; group?: string; active?: boolean }
/** A filter whose group is its ids (the groups of that name in any case: one, or none), as the list's statements read it (withGroupIds). */
type ResolvedUserFilter = UserFilter & { groupIds?: number[] }

/**
 * The filter's group by its id, read first (issue 43): with the id in the statement the planner
 * knows how many members the group has and reads them through user_groups_group_idx, where a join
 * on the group's name read every row of user_groups for the page and again for the count.
 */
export async function withGroupIds(db: Database, filter: UserFilter): Promise<ResolvedUserFilter> {
  if (!filter.group) return filter
  const rows = await db.select({ id: groups.id }).from(groups).where(eq(sql`lower(${groups.name})`, filter.group.toLowerCase()))
  return { ...filter, groupIds: rows.map((row) => row.id) }
}

/** The username, e-mail and names as one lower-case text: "ana.silva ana@example.com ana silva". */
const userSearchText = sql`lower(${users.username} || ' ' || ${users.email} || ' ' || ${users.firstName} || ' ' || ${users.lastName})`

function userFilterCondition(db: Database, { search, group, groupIds, active }: ResolvedUserFilter): SQL | undefined {
  const conditions: SQL[] = []
  if (active !== undefined) conditions.push(eq(users.isActive, active))
  if (search) {
    // The expression of the trigram index users_search_trgm_idx (migration 0025, decision 0063), so a
    // search of 3 characters or more reads the index. Matching it lower-cased is ILIKE's meaning.
    conditions.push(sql`${userSearchText} LIKE lower(${likePattern(search)})`)
  }
  if (groupIds) conditions.push(groupIds.length === 0 ? sql`false` : exists(db.select({ one: sql`1` }).from(userGroups).where(and(eq(userGroups.userId, users.id), inArray(userGroups.groupId, groupIds)))))
  else if (group) {
    conditions.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(userGroups)
          .innerJoin(groups, eq(groups.id, userGroups.groupId))
          .where(and(eq(userGroups.userId, users.id), eq(sql`lower(${groups.name})`, group.toLowerCase()))),
      ),
    )
  }
  return conditions.length > 0 ? and(...conditions) : undefined
}

/**
 * The user list's two statements: how many users the filter keeps, and a page of them by id
 * (bench/admin-users.ts reads their plans). With a search, the page is read one of two ways,
 * chosen by how many match (`matching`, the count's answer): when the page lies in the first tenth
 * of the matches, walking the primary key finds it after a short stretch; otherwise (a rare text, a
 * deep page) reading the trigram index and sorting what it found is quicker, and `id + 0` keeps the
 * planner from walking every row instead (decision 0063).
 */
export function userListQueries(db: Database, filter: ResolvedUserFilter, { limit, offset }: { limit: number; offset: number }, matching?: number) {
  const where = userFilterCondition(db, filter)
  // A group alone is counted in user_groups (each row a user, its key user and group): its index alone, not a join with every user.
  const [groupId, ...others] = filter.groupIds ?? []
  const groupOnly = groupId !== undefined && others.length === 0 && !filter.search && filter.active === undefined
  const sortFound = Boolean(filter.search) && (matching === undefined || offset + limit > matching * 0.1)
  return {
    page: db
      .select()
      .from(users)
      .where(where)
      .orderBy(sortFound ? sql`${users.id} + 0` : asc(users.id))
      .limit(limit)
      .offset(offset),
    count: groupOnly ? db.select({ total: count() }).from(userGroups).where(eq(userGroups.groupId, groupId)) : db.select({ total: count() }).from(users).where(where),
  }
}

export async function countUsers(db: Database, filter: UserFilter): Promise<number> {
  const [{ total }] = (await userListQueries(db, await withGroupIds(db, filter), { limit: 0, offset: 0 }).count) as [{ total: number }]
  return total
}

/**
 * A search's page and how many users match, in one statement (decision 0063): the trigram index's
 * finds are read once, counted (`count(*) OVER ()`) and sorted by id, where the count and the page
 * would each read them. `total` is undefined when the page is past the end (no row to carry it).
 */
export async function searchPageWithCount(db: Database, filter: UserFilter, page: { limit: number; offset: number }): Promise<{ rows: UserRow[]; total: number | undefined }> {
  const found = await searchPageQuery(db, await withGroupIds(db, filter), page)
  return { rows: found.map((row) => row.user), total: found[0] ? Number(found[0].total) : undefined }
}

/**
 * searchPageWithCount's statement (bench/admin-users.ts reads its plan): the matches' ids and their
 * count, sorted narrow (ids, not whole rows), then the page's 20 rows by their key.
 */
export function searchPageQuery(db: Database, filter: ResolvedUserFilter, { limit, offset }: { limit: number; offset: number }) {
  const found = db
    .select({ id: sql<number>`${users.id}`.as('found_id'), total: sql<number>`count(*) over ()`.as('total') })
    .from(users)
    .where(userFilterCondition(db, filter))
    .orderBy(sql`${users.id} + 0`)
    .limit(limit)
    .offset(offset)
    .as('found')
  return db.select({ user: users, total: found.total }).from(found).innerJoin(users, eq(users.id, found.id)).orderBy(asc(users.id))
}

/** A page of the users the filter keeps, by id; `matching` is how many it keeps (countUsers), if known. */
export async function usersPage(db: Database, filter: UserFilter, page: { limit: number; offset: number }, matching?: number): Promise<UserRow[]> {
  return userListQueries(db, await withGroupIds(db, filter), page, matching).page
}

/** How many users there are, how many are active, and each group's members by group name. */
export async function userCounts(db: Database): Promise<{ total: number; active: number; membersByGroup: { name: string; members: number }[] }> {
  const [totals] = await db
    .select({ total: count(), active: count(sql`CASE WHEN ${users.isActive} THEN 1 END`) })
    .from(users)
  const perGroup = await db
    .select({ name: groups.name, members: count(userGroups.userId) })
    .from(groups)
    .leftJoin(userGroups, eq(userGroups.groupId, groups.id))
    .groupBy(groups.name)
  return { total: Number(totals?.total ?? 0), active: Number(totals?.active ?? 0), membersByGroup: perGroup.map((row) => ({ name: row.name, members: Number(row.members) })) }
}

export type UserChanges = Partial<Pick<typeof users.$inferInsert, 'firstName' | 'lastName' | 'isActive' | 'phone' | 'birthDate' | 'bio' | 'timeZone' | 'photoName'>>

/** Writes the given fields of a user. */
export async function updateUser(db: Database, userId: number, changes: UserChanges): Promise<void> {
  await db.update(users).set(changes).where(eq(users.id, userId))
}

/**
 * A new password, in one transaction: every session of the user ends, and the private calendar
 * feed too unless it is kept (decision 0037).
 */
export async function changePassword(db: Database, userId: number, password: string, { keepCalendarFeed, clock }: { keepCalendarFeed: boolean; clock: Clock }): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ password }).where(eq(users.id, userId))
    await revokeAllSessions(tx as unknown as Database, userId, clock())
    if (!keepCalendarFeed) await tx.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId))
  })
}

/** Stores a profile photo's bytes under its public name. */
export async function insertPhoto(db: Database, photo: { name: string; contentType: string; bytes: Buffer }): Promise<void> {
  await db.insert(photos).values({ name: photo.name, contentType: photo.contentType, bytes: photo.bytes, size: photo.bytes.length })
}

export async function deletePhoto(db: Database, name: string): Promise<void> {
  await db.delete(photos).where(eq(photos.name, name))
}

/** How many active accounts other than `userId` are in the admin group (a group name in any case). */
export async function activeAdminsOtherThan(db: Database, userId: number): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(users)
    .innerJoin(userGroups, eq(userGroups.userId, users.id))
    .innerJoin(groups, eq(groups.id, userGroups.groupId))
    .where(and(eq(users.isActive, true), sql`${users.id} <> ${userId}`, eq(sql`lower(${groups.name})`, 'admin')))
  return Number(row?.total ?? 0)
}
