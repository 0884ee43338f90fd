import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { asc, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findMigrationsDir, openDatabase, rowsOf, type DatabaseHandle } from '#server/db/client.ts'
import { isUniqueViolation } from '#server/db/errors.ts'
import { purchaseClaims } from '#server/db/schema.ts'
import { seedDatabase } from '#server/seed/seed.ts'
import { countOwnedGrants } from '#server/purchases/repository.ts'

/**
 * Migration 0027 (decision 0072) on a database that already holds what the new rules forbid: a
 * course paid twice, two checkouts of one course open, two plans running at once. It applies,
 * claims for each buyer and product the purchase that is to keep it, moves no money, and from then
 * on the database refuses a second live plan.
 */

const TAG = '0027_one_open_purchase'
type Journal = { entries: { tag: string }[] }

let handle: DatabaseHandle
let folder: string

/** The migrations folder as it was before this one: its files and journal entries up to the one before. */
function migrationsBefore(tag: string): string {
  const source = findMigrationsDir()
  const target = mkdtempSync(join(tmpdir(), 'innera-migrations-'))
  const journal = JSON.parse(readFileSync(join(source, 'meta', '_journal.json'), 'utf8')) as Journal
  const entries = journal.entries.slice(0, journal.entries.findIndex((entry) => entry.tag === tag))
  mkdirSync(join(target, 'meta'))
  writeFileSync(join(target, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }))
  for (const entry of entries) cpSync(join(source, `${entry.tag}.sql`), join(target, `${entry.tag}.sql`))
  return target
}

const run = async (statement: ReturnType<typeof sql>) => rowsOf<Record<string, unknown>>(handle.db.execute(statement))
const one = async (statement: ReturnType<typeof sql>) => (await run(statement))[0]!

const ids = { patient: 0, patient2: 0, course: 0, course2: 0, material: 0, program: 0, monthly: 0, yearly: 0, trial: 0 }

let minutes = 0

/** A purchase of one product, each one a minute after the one before. */
async function purchase(userId: number, status: string, productId: number, type: string, key: string, { grant, revoked = false }: { grant?: string; revoked?: boolean } = {}) {
  const paid = status === 'paid' || status === 'refunded'
  const at = new Date(Date.parse('2026-03-01T12:00:00Z') + ++minutes * 60_000).toISOString()
  const { id } = await one(sql`insert into purchases (user_id, status, method, total_cents, idempotency_key, paid_at, created_at)
    values (${userId}, ${status}, 'pix', 19700, ${key}, ${paid ? at : null}::timestamptz, ${at}::timestamptz) returning id`)
  await run(sql`insert into purchase_items (purchase_id, product_id, product_type, name, quantity, unit_cents, line_cents)
    values (${id}, ${productId}, ${type}, '{"pt": "x", "en": "x", "es": "x"}'::jsonb, 1, 19700, 19700)`)
  if (grant) await run(sql`insert into purchase_grants (user_id, product_id, purchase_id, kind, available_at, revoked_at) values (${userId}, ${productId}, ${id}, ${grant}, now(), ${revoked ? sql`now()` : null})`)
  return Number(id)
}

async function subscription(userId: number, productId: number, status: string, key: string) {
  const live = ['trialing', 'active', 'past_due'].includes(status)
  const { id } = await one(sql`insert into subscriptions (user_id, product_id, method, status, price_cents, idempotency_key, current_period_start, current_period_end, ended_at, ended_reason)
    values (${userId}, ${productId}, 'pix', ${status}, 8990, ${key}, ${live || status === 'ended' ? sql`now()` : null}, ${live || status === 'ended' ? sql`now() + interval '30 days'` : null},
      ${status === 'ended' ? sql`now()` : null}, ${status === 'ended' ? 'term_over' : null}) returning id`)
  return Number(id)
}

const made: Record<string, number> = {}

beforeAll(async () => {
  folder = migrationsBefore(TAG)
  handle = await openDatabase({ memory: true })
  await handle.migrate(folder)
  await seedDatabase(handle.db)
  const user = async (email: string) => Number((await one(sql`select id from users where email = ${email}`)).id)
  const product = async (slug: string) => Number((await one(sql`select id from products where slug = ${slug}`)).id)
  Object.assign(ids, {
    patient: await user('paciente@innera.local'),
    patient2: await user('paciente2@innera.local'),
    course: await product('curso-sono-reparador'),
    course2: await product('curso-comida-de-verdade'),
    material: await product('diario-do-sono'),
    program: await product('programa-essencial-8-semanas'),
    monthly: await product('plano-mensal'),
    yearly: await product('plano-anual'),
    trial: await product('teste-7-dias'),
  })
  // A course paid twice (both charged, before the rule), the first one first.
  made.paidFirst = await purchase(ids.patient, 'paid', ids.course, 'course', 'migration-paid-1', { grant: 'course' })
  made.paidAgain = await purchase(ids.patient, 'paid', ids.course, 'course', 'migration-paid-2', { grant: 'course' })
  // Two checkouts of another course open: the newer keeps it.
  made.openOlder = await purchase(ids.patient, 'pending', ids.course2, 'course', 'migration-open-1')
  made.openNewer = await purchase(ids.patient, 'pending', ids.course2, 'course', 'migration-open-2')
  // A material bought, and a checkout of it opened before it was paid: the paid one keeps it.
  made.material = await purchase(ids.patient, 'paid', ids.material, 'digital_material', 'migration-material-1', { grant: 'material' })
  made.materialOpen = await purchase(ids.patient, 'pending', ids.material, 'digital_material', 'migration-material-2')
  // Failed, refunded (its access ended): nothing to keep.
  made.failed = await purchase(ids.patient, 'failed', ids.program, 'program', 'migration-failed-1')
  made.refunded = await purchase(ids.patient2, 'refunded', ids.program, 'program', 'migration-refunded-1', { grant: 'program', revoked: true })
  // Two plans at once for the patient; one for the other patient, beside an ended one.
  made.monthly = await subscription(ids.patient, ids.monthly, 'active', 'migration-subscription-1')
  made.yearly = await subscription(ids.patient, ids.yearly, 'incomplete', 'migration-subscription-2')
  made.ended = await subscription(ids.patient2, ids.yearly, 'ended', 'migration-subscription-3')
  made.single = await subscription(ids.patient2, ids.monthly, 'active', 'migration-subscription-4')
  await handle.migrate(findMigrationsDir())
}, 120_000)

afterAll(async () => {
  await handle?.close()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

describe('migration 0027 on a database that holds what it forbids', () => {
  it('claims for each buyer and product the first purchase that paid it, else the newest open one; nothing for a failed or refunded one', async () => {
    const claims = await handle.db.select().from(purchaseClaims).orderBy(asc(purchaseClaims.purchaseId))
    expect(claims.map(({ userId, productId, purchaseId }) => ({ userId, productId, purchaseId }))).toEqual([
      { userId: ids.patient, productId: ids.course, purchaseId: made.paidFirst },
      { userId: ids.patient, productId: ids.course2, purchaseId: made.openNewer },
      { userId: ids.patient, productId: ids.material, purchaseId: made.material },
    ])
    // No money moved: both payments of the course stay paid, their grants in force; my products lists it once.
    expect(await run(sql`select status from purchases where id in (${made.paidFirst}, ${made.paidAgain}) order by id`)).toEqual([{ status: 'paid' }, { status: 'paid' }])
    expect((await one(sql`select count(*)::int as total from purchase_grants where product_id = ${ids.course} and revoked_at is null`)).total).toBe(2)
    expect(await countOwnedGrants(handle.db, ids.patient, ids.course)).toBe(1)
  })

  it('leaves two plans already running side by side as they are, and refuses any more from then on', async () => {
    const rows = await run(sql`select id, status, legacy_overlap from subscriptions order by id`)
    expect(rows).toEqual([
      { id: made.monthly, status: 'active', legacy_overlap: true },
      { id: made.yearly, status: 'incomplete', legacy_overlap: false },
      { id: made.ended, status: 'ended', legacy_overlap: false },
      { id: made.single, status: 'active', legacy_overlap: false },
    ])
    for (const userId of [ids.patient, ids.patient2]) {
      const error = await subscription(userId, ids.trial, 'incomplete', `migration-after-${userId}`).catch((caught: unknown) => caught)
      expect(isUniqueViolation(error, 'subscriptions_one_live_per_user_unique'), String(error)).toBe(true)
    }
  })
})
