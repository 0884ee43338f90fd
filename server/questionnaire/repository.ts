import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { groups, pillars, questionnaireQuestions, questionnaireResults, questionnaireShares, questionnaireVersions, userGroups, users } from '#server/db/schema.ts'
import type { UserRow } from '#server/users/repository.ts'

/** A number that can be a serial id (a PostgreSQL integer); others cannot exist. */
export const isDatabaseId = (value: number) => Number.isSafeInteger(value) && value > 0 && value < 2 ** 31

export type VersionRow = typeof questionnaireVersions.$inferSelect
export type QuestionRow = typeof questionnaireQuestions.$inferSelect
export type ResultRow = typeof questionnaireResults.$inferSelect
export type PillarRow = typeof pillars.$inferSelect

export async function currentVersion(db: Database): Promise<VersionRow | undefined> {
  const [row] = await db.select().from(questionnaireVersions).where(eq(questionnaireVersions.isCurrent, true))
  return row
}

export async function findVersion(db: Database, version: string): Promise<VersionRow | undefined> {
  const [row] = await db.select().from(questionnaireVersions).where(eq(questionnaireVersions.version, version))
  return row
}

export async function questionsOf(db: Database, version: string): Promise<QuestionRow[]> {
  return db.select().from(questionnaireQuestions).where(eq(questionnaireQuestions.version, version)).orderBy(asc(questionnaireQuestions.order))
}

export async function pillarsInOrder(db: Database): Promise<PillarRow[]> {
  return db.select().from(pillars).orderBy(asc(pillars.order), asc(pillars.id))
}

/** Question codes per version, in question order: answers are shown in that order. */
export async function questionCodesByVersion(db: Database, versions: string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>()
  if (versions.length === 0) return result
  const rows = await db
    .select({ version: questionnaireQuestions.version, code: questionnaireQuestions.code })
    .from(questionnaireQuestions)
    .where(inArray(questionnaireQuestions.version, [...new Set(versions)]))
    .orderBy(asc(questionnaireQuestions.order))
  for (const row of rows) result.set(row.version, [...(result.get(row.version) ?? []), row.code])
  return result
}

export async function insertResult(db: Database, values: typeof questionnaireResults.$inferInsert): Promise<ResultRow> {
  const [row] = await db.insert(questionnaireResults).values(values).returning()
  return row!
}

export async function findResult(db: Database, id: number): Promise<ResultRow | undefined> {
  const [row] = await db.select().from(questionnaireResults).where(eq(questionnaireResults.id, id))
  return row
}

const newestFirst = [desc(questionnaireResults.submittedAt), desc(questionnaireResults.id)]

export async function countResultsOf(db: Database, userId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(questionnaireResults).where(eq(questionnaireResults.userId, userId))
  return Number(row?.total ?? 0)
}

export async function resultsOf(db: Database, userId: number, { limit, offset }: { limit: number; offset: number }): Promise<ResultRow[]> {
  return db
    .select()
    .from(questionnaireResults)
    .where(eq(questionnaireResults.userId, userId))
    .orderBy(...newestFirst)
    .limit(limit)
    .offset(offset)
}

export async function latestResultOf(db: Database, userId: number): Promise<ResultRow | undefined> {
  const [row] = await resultsOf(db, userId, { limit: 1, offset: 0 })
  return row
}

/** The user's newest `limit` results, oldest first (a chart's points): submissions are not limited, a read is. */
export async function recentResultsOldestFirst(db: Database, userId: number, limit: number): Promise<ResultRow[]> {
  return (await resultsOf(db, userId, { limit, offset: 0 })).reverse()
}

export async function isSharedWith(db: Database, resultId: number, professionalId: number): Promise<boolean> {
  const [row] = await db
    .select({ resultId: questionnaireShares.resultId })
    .from(questionnaireShares)
    .where(and(eq(questionnaireShares.resultId, resultId), eq(questionnaireShares.professionalId, professionalId)))
  return row !== undefined
}

export async function sharesOf(db: Database, resultId: number): Promise<{ user: UserRow; sharedAt: Date }[]> {
  const rows = await db
    .select({ user: users, sharedAt: questionnaireShares.createdAt })
    .from(questionnaireShares)
    .innerJoin(users, eq(users.id, questionnaireShares.professionalId))
    .where(eq(questionnaireShares.resultId, resultId))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id))
  return rows
}

/** Of the given ids, those of active users in the profissional group. */
export async function activeProfessionalIds(db: Database, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(userGroups, eq(userGroups.userId, users.id))
    .innerJoin(groups, eq(groups.id, userGroups.groupId))
    .where(and(inArray(users.id, ids), eq(users.isActive, true), eq(groups.name, 'profissional')))
  return new Set(rows.map((row) => row.id))
}

export async function addShares(db: Database, resultId: number, professionalIds: number[], sharedAt: Date): Promise<void> {
  if (professionalIds.length === 0) return
  await db
    .insert(questionnaireShares)
    .values(professionalIds.map((professionalId) => ({ resultId, professionalId, createdAt: sharedAt })))
    .onConflictDoNothing()
}

export async function removeShare(db: Database, resultId: number, professionalId: number): Promise<void> {
  await db.delete(questionnaireShares).where(and(eq(questionnaireShares.resultId, resultId), eq(questionnaireShares.professionalId, professionalId)))
}

function sharedWithCondition(professionalId: number, patientId: number | undefined): SQL {
  const conditions: SQL[] = [eq(questionnaireShares.professionalId, professionalId)]
  if (patientId !== undefined) conditions.push(eq(questionnaireResults.userId, patientId))
  return and(...conditions)!
}

export async function countSharedWith(db: Database, professionalId: number, patientId?: number): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(questionnaireShares)
    .innerJoin(questionnaireResults, eq(questionnaireResults.id, questionnaireShares.resultId))
    .where(sharedWithCondition(professionalId, patientId))
  return Number(row?.total ?? 0)
}

/** Results shared with a professional, newest submission first, with their patients. */
export async function sharedWith(
  db: Database,
  professionalId: number,
  { patientId, limit, offset }: { patientId?: number; limit: number; offset: number },
): Promise<{ result: ResultRow; patient: UserRow; sharedAt: Date }[]> {
  return db
    .select({ result: questionnaireResults, patient: users, sharedAt: questionnaireShares.createdAt })
    .from(questionnaireShares)
    .innerJoin(questionnaireResults, eq(questionnaireResults.id, questionnaireShares.resultId))
    .innerJoin(users, eq(users.id, questionnaireResults.userId))
    .where(sharedWithCondition(professionalId, patientId))
    .orderBy(...newestFirst)
    .limit(limit)
    .offset(offset)
}
