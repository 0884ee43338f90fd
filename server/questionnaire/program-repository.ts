import { and, asc, desc, eq } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { programGoals, programs } from '#server/db/schema.ts'

export type ProgramRow = typeof programs.$inferSelect
export type GoalRow = typeof programGoals.$inferSelect
type NewGoal = Omit<typeof programGoals.$inferInsert, 'programId'>

export async function insertProgram(db: Database, values: typeof programs.$inferInsert, goals: NewGoal[]): Promise<{ program: ProgramRow; goals: GoalRow[] }> {
  return db.transaction(async (tx) => {
    const [program] = await tx.insert(programs).values(values).returning()
    const rows = goals.length > 0 ? await tx.insert(programGoals).values(goals.map((goal) => ({ ...goal, programId: program!.id }))).returning() : []
    return { program: program!, goals: rows }
  })
}

/** The patient's current program: the newest one. */
export async function currentProgramOf(db: Database, userId: number): Promise<ProgramRow | undefined> {
  const [row] = await db.select().from(programs).where(eq(programs.userId, userId)).orderBy(desc(programs.createdAt), desc(programs.id)).limit(1)
  return row
}

export async function goalsOf(db: Database, programId: number): Promise<GoalRow[]> {
  return db.select().from(programGoals).where(eq(programGoals.programId, programId)).orderBy(asc(programGoals.week), asc(programGoals.position))
}

/** A goal of one of the user's programs, or undefined. */
export async function findOwnGoal(db: Database, userId: number, goalId: number): Promise<GoalRow | undefined> {
  const [row] = await db
    .select({ goal: programGoals })
    .from(programGoals)
    .innerJoin(programs, eq(programs.id, programGoals.programId))
    .where(and(eq(programGoals.id, goalId), eq(programs.userId, userId)))
  return row?.goal
}

export async function setGoalDone(db: Database, goal: GoalRow, done: boolean, now: Date): Promise<GoalRow> {
  // Ticking an already-done goal keeps the moment it was first done.
  const doneAt = done ? (goal.doneAt ?? now) : null
  const [row] = await db.update(programGoals).set({ done, doneAt }).where(eq(programGoals.id, goal.id)).returning()
  return row!
}
