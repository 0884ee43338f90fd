import { asc } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database, DatabaseHandle } from '#server/db/client.ts'
import { databaseError } from '#server/db/errors.ts'
import { outbox } from '#server/db/schema.ts'
import { createMemoryDatabase, describeOnPostgres, resetDatabase, watchLockWaits } from '#server/testing/harness.ts'
import { appointmentCollapseKey, type NoticeState } from '#server/mail/collapse.ts'
import { DROPPED_OVER_BOUND, queueCollapsibleMail, type CollapsibleMail } from '#server/mail/outbox.ts'

/**
 * The outbox's collapsing and hourly bound (issue 22, finding 4; decision 0035), on PGlite and,
 * with TEST_DATABASE_URL, on PostgreSQL with two connection pools (two processes) on one schema.
 */

const NOW = new Date('2026-03-02T12:00:00.000Z')
const LIMITS = { collapseMs: 120_000, perUserPerHour: 30 }
const PEDRO_ID = 4
const later = (ms: number) => new Date(NOW.getTime() + ms)

/** A message about appointment `appointmentId` to its patient, saying its state. */
function mail(appointmentId: number, state: NoticeState, causedBy: number | null = PEDRO_ID): CollapsibleMail {
  return {
    collapseKey: appointmentCollapseKey(appointmentId, 'patient'),
    appointmentId,
    state,
    render: (current) => ({ to: 'paciente@innera.local', subject: `${current.kind}${current.kind === 'moved' ? ` from ${current.previousStart}` : ''}`, text: 'texto', html: '<p>texto</p>' }),
    causedBy,
  }
}

/** On PostgreSQL: until `count` sessions of this test's pools wait for a lock on the outbox or an advisory lock. */
async function untilWaiting(count: number): Promise<void> {
  const watcher = await watchLockWaits(['%"outbox"%', '%pg_advisory_xact_lock%'])
  try {
    expect(await watcher.until(count)).toBeGreaterThanOrEqual(count)
  } finally {
    await watcher.end()
  }
}

function outboxSuite(kind: 'pglite' | 'postgres', open: () => Promise<{ first: DatabaseHandle; second: DatabaseHandle; dispose(): Promise<void> }>) {
  let first: DatabaseHandle
  let second: DatabaseHandle
  let dispose: () => Promise<void>
  beforeAll(async () => {
    ;({ first, second, dispose } = await open())
  })
  afterAll(() => dispose())
  beforeEach(() => resetDatabase(first.db))

  const queue = (db: Database, mails: CollapsibleMail[], now = NOW, limits = LIMITS) => db.transaction((tx) => queueCollapsibleMail(tx, mails, { now, limits }))
  const rows = () => first.db.select().from(outbox).orderBy(asc(outbox.id))

  it('a newer message replaces the one waiting out its hold, with the latest state; the hold is the first one’s', async () => {
    const [queued] = await queue(first.db, [mail(1, { kind: 'moved', previousStart: '2026-03-04T11:00:00.000Z' })])
    expect(queued).toMatchObject({ outcome: 'queued' })
    const [collapsed] = await queue(first.db, [mail(1, { kind: 'moved', previousStart: '2026-03-06T13:30:00.000Z' })], later(60_000))
    expect(collapsed).toMatchObject({ outcome: 'collapsed', outboxId: queued!.outboxId })
    expect(await rows()).toEqual([
      expect.objectContaining({ subject: 'moved from 2026-03-04T11:00:00.000Z', nextAttemptAt: later(120_000), collapseKey: 'appointment:1:patient', causedBy: PEDRO_ID }),
    ])
    // Another appointment, or the other person, is another key.
    expect((await queue(first.db, [mail(2, { kind: 'cancelled' })], later(61_000)))[0]).toMatchObject({ outcome: 'queued' })
  })

  it('past its hold, or once tried, a waiting message is no longer replaced', async () => {
    await queue(first.db, [mail(1, { kind: 'confirmation' })])
    expect((await queue(first.db, [mail(1, { kind: 'cancelled' })], later(120_000)))[0]).toMatchObject({ outcome: 'queued' })
    await first.db.update(outbox).set({ attempts: 1 })
    expect((await queue(first.db, [mail(1, { kind: 'cancelled' })], later(121_000)))[0]).toMatchObject({ outcome: 'queued' })
    expect((await rows()).map((row) => row.subject)).toEqual(['confirmation', 'cancelled', 'cancelled'])
  })

  it('allows one waiting, untried message per key in the database itself', async () => {
    await queue(first.db, [mail(1, { kind: 'confirmation' })])
    const duplicate = await first.db
      .insert(outbox)
      .values({ to: 'x@innera.local', subject: 'x', textBody: 'x', collapseKey: appointmentCollapseKey(1, 'patient') })
      .then(() => undefined, (error: unknown) => error)
    expect(databaseError(duplicate)?.code).toBe('23505')
  })

  it('stores a message beyond the hourly bound of the person who caused it as dropped; others and the product’s own are not counted', async () => {
    const limits = { collapseMs: 0, perUserPerHour: 2 }
    const outcomes = []
    for (let index = 0; index < 3; index += 1) outcomes.push(...(await queue(first.db, [mail(index + 1, { kind: 'cancelled' })], later(index * 1000), limits)))
    expect(outcomes.map((entry) => entry.outcome)).toEqual(['queued', 'queued', 'dropped'])
    expect((await rows())[2]).toMatchObject({ failedAt: later(2000), lastError: DROPPED_OVER_BOUND, collapseKey: null })
    expect((await queue(first.db, [mail(9, { kind: 'cancelled' }, 5)], later(3000), limits))[0]!.outcome).toBe('queued')
    expect((await queue(first.db, [mail(9, { kind: 'cancelled' }, null)], later(3000), limits))[0]!.outcome).toBe('queued')
    // The hour slides: an hour after the first two, there is room again.
    expect((await queue(first.db, [mail(10, { kind: 'cancelled' })], later(3_601_000), limits))[0]!.outcome).toBe('queued')
  })

  // Two processes write messages of one key; the first has not committed when the second comes.
  // The second waits for the appointment's turn, then replaces the first's message. (Without the
  // turn it would not see the uncommitted row, insert its own, and break the unique index.) PGlite
  // runs one transaction at a time, so the second simply comes after the first there.
  it('a second process writing the same key waits for the first to commit, then collapses into its message', async () => {
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let queuedFirst!: () => void
    const firstQueued = new Promise<void>((resolve) => (queuedFirst = resolve))
    const one = first.db.transaction(async (tx) => {
      await queueCollapsibleMail(tx, [mail(1, { kind: 'confirmation' })], { now: NOW, limits: LIMITS })
      queuedFirst()
      await released
    })
    await firstQueued
    // Caused by someone else (the professional cancelling while the patient's confirmation is written): their own bound's turn.
    const cancelling = () => queue(second.db, [mail(1, { kind: 'cancelled' }, 5)], later(1000))
    const two = kind === 'postgres' ? cancelling() : undefined
    // The second is seen waiting (for the turn, or without it at the unique index) before the first commits.
    if (two) await untilWaiting(1)
    release()
    await one
    const [result] = await (two ?? cancelling())
    expect(result).toMatchObject({ outcome: 'collapsed' })
    expect((await rows()).map((row) => row.subject)).toEqual(['cancelled'])
  })
}

describe('PGlite: the outbox on one embedded database', () => {
  outboxSuite('pglite', async () => {
    const handle = await createMemoryDatabase()
    return { first: handle, second: handle, dispose: () => handle.close() }
  })
})

await describeOnPostgres('PostgreSQL: two provider processes (two pools) on one database', (open) => outboxSuite('postgres', open))
