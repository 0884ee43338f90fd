import { and, asc, count, desc, eq, gte, inArray, isNull, isNotNull, lte, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { habitEntries, habits, users, type HabitEntryStatus, type HabitFrequency } from '#server/db/schema.ts'

export type HabitRow = typeof habits.$inferSelect
export type HabitEntryRow = typeof habitEntries.$inferSelect
type NewHabit = Omit<typeof habits.$inferInsert, 'id' | 'createdAt' | 'archivedAt'>
export type HabitChanges = Partial<{ pillarSlug: string; name: string; frequency: HabitFrequency; target: number | null; unit: string; reminderTime: string | null; archivedAt: Date | null }>

/**
 * A user's habits: active ones in the order they were made, or archived ones, the latest archived
 * first; at most `limit` of them from `offset`, so a read costs the same however many the user keeps.
 */
export async function habitsOf(
  db: Database,
  userId: number,
  { archived = false, pillarSlug, limit, offset = 0 }: { archived?: boolean; pillarSlug?: string; limit: number; offset?: number },
): Promise<HabitRow[]> {
  return db
    .select()
    .from(habits)
    .where(and(eq(habits.userId, userId), archived ? isNotNull(habits.archivedAt) : isNull(habits.archivedAt), pillarSlug ? eq(habits.pillarSlug, pillarSlug) : undefined))
    .orderBy(...(archived ? [desc(habits.archivedAt), desc(habits.id)] : [asc(habits.id)]))
    .limit(limit)
    .offset(offset)
}

type HabitCounts = { active: number; total: number }

/** How many habits a user keeps: active ones, and all of them, archived ones included (one read of the user's index). */
export async function countHabits(db: Pick<Database, 'select'>, userId: number): Promise<HabitCounts> {
  const [row] = await db
    .select({ active: count(sql`CASE WHEN ${habits.archivedAt} IS NULL THEN 1 END`), total: count() })
    .from(habits)
    .where(eq(habits.userId, userId))
  return { active: Number(row?.active ?? 0), total: Number(row?.total ?? 0) }
}

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]

/**
 * Runs `write` with the user's habit counts, in a transaction that holds the user's row locked
 * (FOR NO KEY UPDATE: other tables' rows may still reference it meanwhile): two creates (or
 * restores) of one user, from one process or several, take turns, so neither can pass a limit
 * the other has just reached (a count then an insert, unlocked, would let parallel requests all
 * see 29 active habits and all insert).
 */
export async function withHabitCounts<T>(db: Database, userId: number, write: (tx: Transaction, counts: HabitCounts) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update')
    return write(tx, await countHabits(tx, userId))
  })
}

/** The user's own habit; someone else's is as good as missing. */
export async function findOwnHabit(db: Database, userId: number, id: number): Promise<HabitRow | undefined> {
  const [row] = await db.select().from(habits).where(and(eq(habits.id, id), eq(habits.userId, userId)))
  return row
}

export async function insertHabit(db: Pick<Database, 'insert'>, values: NewHabit): Promise<HabitRow> {
  const [row] = await db.insert(habits).values(values).returning()
  return row!
}

export async function updateHabit(db: Pick<Database, 'select' | 'update'>, id: number, changes: HabitChanges): Promise<HabitRow> {
  if (Object.keys(changes).length === 0) {
    const [row] = await db.select().from(habits).where(eq(habits.id, id))
    return row!
  }
  const [row] = await db.update(habits).set(changes).where(eq(habits.id, id)).returning()
  return row!
}

export async function deleteHabit(db: Database, id: number): Promise<void> {
  await db.delete(habits).where(eq(habits.id, id))
}

/** Entries of some habits between two local dates (inclusive), oldest first. */
export async function entriesOf(db: Database, habitIds: number[], from: string, to: string): Promise<HabitEntryRow[]> {
  if (habitIds.length === 0) return []
  return db
    .select()
    .from(habitEntries)
    .where(and(inArray(habitEntries.habitId, habitIds), gte(habitEntries.date, from), lte(habitEntries.date, to)))
    .orderBy(asc(habitEntries.habitId), asc(habitEntries.date))
}

/**
 * One answer per habit and date, written with one upsert: the primary key makes the day count
 * once, however many times (or from however many processes) it is tracked.
 */
export async function trackDay(db: Database, habitId: number, entry: { date: string; status: HabitEntryStatus; amount: number | null }, now: Date): Promise<HabitEntryRow> {
  const [row] = await db
    .insert(habitEntries)
    .values({ habitId, date: entry.date, status: entry.status, amount: entry.amount, updatedAt: now })
    .onConflictDoUpdate({ target: [habitEntries.habitId, habitEntries.date], set: { status: entry.status, amount: entry.amount, updatedAt: now } })
    .returning()
  return row!
}

/** Forgets a day's answer (back to "not answered"). */
export async function clearDay(db: Database, habitId: number, date: string): Promise<void> {
  await db.delete(habitEntries).where(and(eq(habitEntries.habitId, habitId), eq(habitEntries.date, date)))
}
