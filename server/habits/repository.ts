import { and, asc, count, desc, eq, gte, inArray, isNull, isNotNull, lte } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { habitEntries, habits, type HabitEntryStatus, type HabitFrequency } from '#server/db/schema.ts'

export type HabitRow = typeof habits.$inferSelect
export type HabitEntryRow = typeof habitEntries.$inferSelect
export type NewHabit = Omit<typeof habits.$inferInsert, 'id' | 'createdAt' | 'archivedAt'>
export type HabitChanges = Partial<{ pillarSlug: string; name: string; frequency: HabitFrequency; target: number | null; unit: string; reminderTime: string | null; archivedAt: Date | null }>

/** A user's habits, active ones (or archived ones) in the order they were made. */
export async function habitsOf(db: Database, userId: number, { archived = false, pillarSlug }: { archived?: boolean; pillarSlug?: string } = {}): Promise<HabitRow[]> {
  return db
    .select()
    .from(habits)
    .where(and(eq(habits.userId, userId), archived ? isNotNull(habits.archivedAt) : isNull(habits.archivedAt), pillarSlug ? eq(habits.pillarSlug, pillarSlug) : undefined))
    .orderBy(archived ? desc(habits.archivedAt) : asc(habits.id))
}

export async function countActiveHabits(db: Database, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(habits).where(and(eq(habits.userId, userId), isNull(habits.archivedAt)))
  return row?.n ?? 0
}

/** The user's own habit; someone else's is as good as missing. */
export async function findOwnHabit(db: Database, userId: number, id: number): Promise<HabitRow | undefined> {
  const [row] = await db.select().from(habits).where(and(eq(habits.id, id), eq(habits.userId, userId)))
  return row
}

export async function insertHabit(db: Database, values: NewHabit): Promise<HabitRow> {
  const [row] = await db.insert(habits).values(values).returning()
  return row!
}

export async function updateHabit(db: Database, id: number, changes: HabitChanges): Promise<HabitRow> {
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
