import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { END_BEFORE_START, PERIOD_TOO_LONG } from '#server/admin/periods.ts'
import type { Database, DatabaseHandle } from '#server/db/client.ts'
import { appointments, conversations, messages, products, purchases, purchaseTransitions, questionnaireResults, subscriptions, users } from '#server/db/schema.ts'
import { DATE_FORMAT_MESSAGE, notBefore, TIME_ZONE_MESSAGE } from '#server/http/fields.ts'
import { client, createMemoryDatabase, describeOnPostgres, fakeClock, resetDatabase, testApp } from '#server/testing/harness.ts'

/** GET /admin/dashboard/ (issue 26, decision 0062): what happened in a period, bucket by bucket. */

let database: DatabaseHandle
// 12:00 in São Paulo on Tuesday 18 March 2025.
const NOW = Date.parse('2025-03-18T15:00:00Z')
const time = fakeClock(NOW)
let api: ReturnType<typeof client>
const tokens = { admin: '', paula: '', pedro: '' }
const ids = { paula: 0, pedro: 0, mariana: 0, plans: [] as number[] }
let seededUsers = 0

const at = (iso: string) => new Date(iso)

beforeAll(async () => {
  database = await createMemoryDatabase()
  api = client(testApp(database.db, { clock: time.clock }))
  tokens.admin = (await api.login('admin@innera.local')).access
  tokens.paula = (await api.login('profissional@innera.local')).access
  tokens.pedro = (await api.login('paciente@innera.local')).access
})
afterAll(() => database.close())

/** The seeded accounts (joined on 1 March, at 09:00 in São Paulo) and a month of activity around them. */
async function prepare(db: Database) {
  const people = await db.select({ id: users.id, email: users.email }).from(users)
  const idOf = (email: string) => people.find((person) => person.email === email)!.id
  ids.paula = idOf('profissional@innera.local')
  ids.pedro = idOf('paciente@innera.local')
  ids.mariana = idOf('paciente2@innera.local')
  ids.plans = (await db.select({ id: products.id }).from(products).where(eq(products.productType, 'subscription')).orderBy(products.id)).map((row) => row.id)
  seededUsers = people.length
  await db.update(users).set({ dateJoined: at('2025-03-01T12:00:00Z') })

  const account = (username: string, dateJoined: string) => ({ username, email: `${username}@example.com`, password: '!', dateJoined: at(dateJoined) })
  // 23:30 on 9 March in São Paulo (already the 10th in UTC); 17 March; 28 February.
  const [late, recent] = await db
    .insert(users)
    .values([account('late', '2025-03-10T02:30:00Z'), account('recent', '2025-03-17T10:00:00Z'), account('before', '2025-02-28T23:00:00Z')])
    .returning({ id: users.id })

  const result = (userId: number, submittedAt: string) => ({ userId, version: '2025.1', submittedAt: at(submittedAt), answers: {}, scores: {}, focusPillars: [] })
  await db.insert(questionnaireResults).values([result(ids.pedro, '2025-03-02T12:00:00Z'), result(ids.mariana, '2025-03-02T20:00:00Z')])

  const appointment = (start: string, fields: Partial<typeof appointments.$inferInsert>) => {
    const startTime = at(start)
    const endTime = new Date(startTime.getTime() + 50 * 60_000)
    return { professionalId: ids.paula, patientId: ids.pedro, startTime, endTime, blockedUntil: endTime, meetingLink: 'https://meet.example/x', ...fields }
  }
  await db.insert(appointments).values([
    appointment('2025-03-20T13:00:00Z', { createdAt: at('2025-03-05T13:00:00Z'), status: 'scheduled' }),
    appointment('2025-03-21T13:00:00Z', { createdAt: at('2025-03-05T14:00:00Z'), status: 'cancelled', cancelledAt: at('2025-03-07T12:00:00Z'), cancelledBy: 'patient' }),
    // A paid consultation's held time released unpaid: neither booked nor cancelled by anyone.
    appointment('2025-03-22T13:00:00Z', { createdAt: at('2025-03-06T12:00:00Z'), status: 'cancelled', cancelledAt: at('2025-03-06T12:30:00Z'), cancellationReason: 'payment_not_completed' }),
    appointment('2025-03-12T13:00:00Z', { createdAt: at('2025-02-20T12:00:00Z'), status: 'no_show' }),
    // Cancelled at 23:00 on 15 March in São Paulo.
    appointment('2025-03-25T13:00:00Z', { createdAt: at('2025-02-20T12:00:00Z'), status: 'cancelled', cancelledAt: at('2025-03-16T02:00:00Z'), cancelledBy: 'admin' }),
  ])

  let key = 0
  const purchase = (fields: Pick<typeof purchases.$inferInsert, 'status' | 'method' | 'totalCents'> & Partial<typeof purchases.$inferInsert>) => ({
    userId: ids.pedro,
    idempotencyKey: `dashboard-purchase-${++key}`,
    ...fields,
  })
  const rows = await db
    .insert(purchases)
    .values([
      purchase({ status: 'paid', method: 'pix', totalCents: 10_000, paidAt: at('2025-03-02T12:00:00Z') }),
      purchase({ status: 'paid', method: 'card', totalCents: 25_000, paidAt: at('2025-03-02T18:00:00Z') }),
      purchase({ status: 'refunded', method: 'card', totalCents: 5_000, refundedCents: 5_000, paidAt: at('2025-03-03T12:00:00Z') }),
      purchase({ status: 'pending', method: 'pix', totalCents: 7_000 }),
      // Paid before the period, partly refunded within it.
      purchase({ status: 'refunded', method: 'pix', totalCents: 8_000, refundedCents: 3_000, paidAt: at('2025-02-27T12:00:00Z') }),
      purchase({ status: 'expired', method: 'pix', totalCents: 9_000 }),
    ])
    .returning({ id: purchases.id })
  await db.insert(purchaseTransitions).values([
    { purchaseId: rows[2]!.id, fromStatus: 'paid', toStatus: 'refunded', at: at('2025-03-08T12:00:00Z'), source: 'cancel' },
    { purchaseId: rows[4]!.id, fromStatus: 'paid', toStatus: 'refunded', at: at('2025-03-04T12:00:00Z'), source: 'webhook' },
  ])

  const [plan, otherPlan] = ids.plans as [number, number]
  const subscription = (userId: number, productId: number, fields: Partial<typeof subscriptions.$inferInsert> & Pick<typeof subscriptions.$inferInsert, 'status'>) => ({
    userId,
    productId,
    method: 'card' as const,
    priceCents: 8_990,
    idempotencyKey: `dashboard-subscription-${++key}`,
    ...fields,
  })
  await db.insert(subscriptions).values([
    subscription(ids.pedro, plan, { status: 'active', firstPaidAt: at('2025-02-01T12:00:00Z'), currentPeriodStart: at('2025-03-01T12:00:00Z'), currentPeriodEnd: at('2025-04-01T12:00:00Z') }),
    subscription(ids.mariana, plan, {
      status: 'ended',
      firstPaidAt: at('2025-02-10T12:00:00Z'),
      currentPeriodStart: at('2025-02-10T12:00:00Z'),
      currentPeriodEnd: at('2025-03-10T12:00:00Z'),
      endedAt: at('2025-03-10T12:00:00Z'),
      endedReason: 'term_over',
    }),
    // Another plan's checkout left open (one live plan per user, decision 0072).
    subscription(recent!.id, otherPlan, { status: 'incomplete' }),
    // A card trial: no payment yet, its period started on 15 March.
    subscription(ids.mariana, otherPlan, { status: 'trialing', currentPeriodStart: at('2025-03-15T12:00:00Z'), currentPeriodEnd: at('2025-03-22T12:00:00Z') }),
    subscription(late!.id, plan, { status: 'active', firstPaidAt: at('2025-03-12T12:00:00Z'), currentPeriodStart: at('2025-03-12T12:00:00Z'), currentPeriodEnd: at('2025-04-12T12:00:00Z') }),
  ])
}

type Counts = Record<string, number>
type Dashboard = { from: string; to: string; time_zone: string; bucket: string; series: (Counts & { start: string })[]; totals: Counts; active_subscriptions: number; active_subscriptions_at_end: number }

const dashboard = async (query = '', token = tokens.admin) => {
  const response = await api.get(`/admin/dashboard/${query}`, { token })
  expect(response.status, response.text).toBe(200)
  return response.json as Dashboard
}

const zero = {
  new_users: 0,
  assessments: 0,
  appointments_booked: 0,
  appointments_cancelled: 0,
  appointments_no_show: 0,
  revenue_pix_cents: 0,
  revenue_card_cents: 0,
  refunds_cents: 0,
  conversations_started: 0,
  messages_sent: 0,
}

describe('GET /admin/dashboard/', () => {
  beforeEach(async () => {
    await resetDatabase(database.db)
    time.set(NOW)
    await prepare(database.db)
  })

  it('counts each metric on its day in São Paulo', async () => {
    const body = await dashboard('?from=2025-03-01&to=2025-03-17')
    expect(body).toMatchObject({ from: '2025-03-01', to: '2025-03-17', time_zone: 'America/Sao_Paulo', bucket: 'day' })
    expect(body.series.map((point) => point.start)).toEqual(Array.from({ length: 17 }, (_, index) => `2025-03-${String(index + 1).padStart(2, '0')}`))
    const day = (date: string) => body.series.find((point) => point.start === date)
    expect(day('2025-03-01')).toEqual({ ...zero, start: '2025-03-01', new_users: seededUsers })
    expect(day('2025-03-02')).toEqual({ ...zero, start: '2025-03-02', assessments: 2, revenue_pix_cents: 10_000, revenue_card_cents: 25_000 })
    expect(day('2025-03-03')).toEqual({ ...zero, start: '2025-03-03', revenue_card_cents: 5_000 })
    expect(day('2025-03-04')).toEqual({ ...zero, start: '2025-03-04', refunds_cents: 3_000 })
    expect(day('2025-03-05')).toEqual({ ...zero, start: '2025-03-05', appointments_booked: 2 })
    expect(day('2025-03-06')).toEqual({ ...zero, start: '2025-03-06' })
    expect(day('2025-03-07')).toEqual({ ...zero, start: '2025-03-07', appointments_cancelled: 1 })
    expect(day('2025-03-08')).toEqual({ ...zero, start: '2025-03-08', refunds_cents: 5_000 })
    // 02:30 UTC on the 10th is 23:30 on the 9th in São Paulo.
    expect(day('2025-03-09')).toEqual({ ...zero, start: '2025-03-09', new_users: 1 })
    expect(day('2025-03-10')).toEqual({ ...zero, start: '2025-03-10' })
    expect(day('2025-03-12')).toEqual({ ...zero, start: '2025-03-12', appointments_no_show: 1 })
    expect(day('2025-03-15')).toEqual({ ...zero, start: '2025-03-15', appointments_cancelled: 1 })
    expect(day('2025-03-17')).toEqual({ ...zero, start: '2025-03-17', new_users: 1 })
    expect(body.totals).toEqual({
      new_users: seededUsers + 2,
      assessments: 2,
      appointments_booked: 2,
      appointments_cancelled: 2,
      appointments_no_show: 1,
      revenue_pix_cents: 10_000,
      revenue_card_cents: 30_000,
      refunds_cents: 8_000,
      conversations_started: 0,
      messages_sent: 0,
    })
    // Now: Pedro's plan, Mariana's trial and the newest one; at the end of the 17th, the same three.
    expect(body.active_subscriptions).toBe(3)
    expect(body.active_subscriptions_at_end).toBe(3)
  })

  it('tells the subscriptions that gave access at the end of an earlier period', async () => {
    const body = await dashboard('?from=2025-03-01&to=2025-03-09')
    // At midnight of the 10th: Pedro's, and Mariana's that ended at noon that day.
    expect(body.active_subscriptions_at_end).toBe(2)
    expect(body.active_subscriptions).toBe(3)
    expect((await dashboard('?from=2025-02-01&to=2025-02-05')).active_subscriptions_at_end).toBe(1)
  })

  it('defaults to the last 30 days, today included, and counts what the product records', async () => {
    const answers = Object.fromEntries(
      (await api.get('/questionnaire/')).json.pillars.flatMap((pillar: { questions: { code: string }[] }) => pillar.questions.map((question) => [question.code, 2])),
    )
    expect((await api.post('/questionnaire/submit/', { version: '2025.1', answers }, { token: tokens.pedro })).status).toBe(201)
    const body = await dashboard()
    expect(body).toMatchObject({ from: '2025-02-17', to: '2025-03-18', bucket: 'day' })
    expect(body.series).toHaveLength(30)
    expect(body.series.at(-1)).toMatchObject({ start: '2025-03-18', assessments: 1 })
    // The account that joined at 20:00 on 28 February in São Paulo.
    expect(body.series.find((point) => point.start === '2025-02-28')).toMatchObject({ new_users: 1 })
    expect(body.totals).toMatchObject({ new_users: seededUsers + 3, assessments: 3, appointments_booked: 4, revenue_pix_cents: 18_000 })
    expect(body.active_subscriptions_at_end).toBe(body.active_subscriptions)
  })

  it('counts conversations started and messages sent, never reading them (decision 0085)', async () => {
    const [pedro] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, 'paciente@innera.local'))
    const [paula] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, 'profissional@innera.local'))
    // 02:30 UTC on the 10th is the 9th in São Paulo.
    const [talk] = await database.db.insert(conversations).values({ patientId: pedro!.id, professionalId: paula!.id, createdAt: new Date('2025-03-10T02:30:00Z') }).returning()
    await database.db.insert(messages).values([
      { conversationId: talk!.id, senderId: pedro!.id, body: 'oi', createdAt: new Date('2025-03-10T02:30:00Z') },
      { conversationId: talk!.id, senderId: paula!.id, body: 'olá', createdAt: new Date('2025-03-10T13:00:00Z') },
    ])
    const body = await dashboard('?from=2025-03-09&to=2025-03-10')
    expect(body.series.map((point) => [point.start, point.conversations_started, point.messages_sent])).toEqual([
      ['2025-03-09', 1, 1],
      ['2025-03-10', 0, 1],
    ])
    expect(JSON.stringify(body)).not.toContain('olá')
  })

  it('reads the days in the time zone asked for', async () => {
    const saoPaulo = await dashboard('?from=2025-03-09&to=2025-03-09')
    const utc = await dashboard('?from=2025-03-09&to=2025-03-09&tz=UTC')
    expect(saoPaulo.totals.new_users).toBe(1)
    expect(utc).toMatchObject({ time_zone: 'UTC', totals: { new_users: 0 } })
    expect((await dashboard('?from=2025-03-10&to=2025-03-10&tz=UTC')).totals.new_users).toBe(1)
  })

  it('goes by week past 62 days and by month past 183, with the same totals', async () => {
    const weeks = await dashboard('?from=2025-01-01&to=2025-03-31')
    expect(weeks.bucket).toBe('week')
    expect(weeks.series).toHaveLength(14)
    expect(weeks.series[0]!.start).toBe('2025-01-01')
    // The week of Monday 24 February holds the account of the 28th and the seeded ones of Saturday 1 March; the refund of 4 March belongs to the next.
    expect(weeks.series.find((point) => point.start === '2025-02-24')).toMatchObject({ new_users: seededUsers + 1, refunds_cents: 0 })
    expect(weeks.series.find((point) => point.start === '2025-03-03')).toMatchObject({ refunds_cents: 8_000, revenue_card_cents: 5_000, appointments_booked: 2 })

    const months = await dashboard('?from=2024-04-01&to=2025-03-18')
    expect(months.bucket).toBe('month')
    expect(months.series.map((point) => point.start)).toHaveLength(12)
    expect(months.series.at(-2)).toMatchObject({ start: '2025-02-01', new_users: 1 })
    expect(months.series.at(-1)).toMatchObject({ start: '2025-03-01', new_users: seededUsers + 2, revenue_card_cents: 30_000 })
    expect(months.totals).toEqual(weeks.totals)
  })

  it('refuses a bad period with DRF’s field errors', async () => {
    const refused = async (query: string) => {
      const response = await api.get(`/admin/dashboard/${query}`, { token: tokens.admin })
      expect(response.status).toBe(400)
      return response.json
    }
    expect(await refused('?from=2025-03-10&to=2025-03-09')).toEqual({ to: [END_BEFORE_START] })
    expect(await refused('?from=2024-03-01&to=2025-03-02')).toEqual({ to: [PERIOD_TOO_LONG] })
    // Only `to`: the 30 days before it; only `from`: up to today, so a year ago is too long.
    expect(await refused('?from=2024-03-17')).toEqual({ to: [PERIOD_TOO_LONG] })
    expect(await refused('?from=2025-3-1&to=tomorrow')).toEqual({ from: [DATE_FORMAT_MESSAGE], to: [DATE_FORMAT_MESSAGE] })
    expect(await refused('?from=1999-12-31')).toEqual({ from: [notBefore('2000-01-01')] })
    expect(await refused('?tz=Mars/Olympus_Mons')).toEqual({ tz: [TIME_ZONE_MESSAGE] })
    // 366 days, a leap year's, is the longest.
    expect((await dashboard('?from=2024-01-01&to=2024-12-31')).series).toHaveLength(12)
  })

  it('answers admins only, kept by no cache', async () => {
    const anonymous = await api.get('/admin/dashboard/')
    expect(anonymous.status).toBe(401)
    // The role is checked before the query: a patient or professional learns nothing from a 400.
    for (const token of [tokens.pedro, tokens.paula]) {
      for (const query of ['', '?from=bad']) {
        const refused = await api.get(`/admin/dashboard/${query}`, { token })
        expect(refused.status).toBe(403)
        expect(refused.json).toEqual({ detail: 'You do not have permission to perform this action.' })
      }
    }
    const allowed = await api.get('/admin/dashboard/', { token: tokens.admin })
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('cache-control')).toBe('private, no-store')
    expect((await api.post('/admin/dashboard/', {}, { token: tokens.admin })).status).toBe(405)
  })

  it('adds up in the database, whatever the number of rows', async () => {
    const { db } = database
    // A thousand accounts on one day: one row of the answer.
    await db.insert(users).values(Array.from({ length: 1000 }, (_, index) => ({ username: `bulk${index}`, email: `bulk${index}@example.com`, password: '!', dateJoined: at('2025-03-11T15:00:00Z') })))
    const body = await dashboard('?from=2025-03-11&to=2025-03-11')
    expect(body.series).toEqual([{ ...zero, start: '2025-03-11', new_users: 1000 }])
  })
})

await describeOnPostgres('GET /admin/dashboard/ on PostgreSQL', (open) => {
  it('counts the same as on PGlite (node-postgres answers counts as text)', async () => {
    const { first, dispose } = await open()
    try {
      time.set(NOW)
      const postgres = client(testApp(first.db, { clock: time.clock }))
      await prepare(first.db)
      const token = (await postgres.login('admin@innera.local')).access
      const response = await postgres.get('/admin/dashboard/?from=2025-03-01&to=2025-03-09', { token })
      expect(response.status).toBe(200)
      expect(response.json.series[1]).toEqual({ ...zero, start: '2025-03-02', assessments: 2, revenue_pix_cents: 10_000, revenue_card_cents: 25_000 })
      expect(response.json.totals).toEqual({
        new_users: seededUsers + 1,
        assessments: 2,
        appointments_booked: 2,
        appointments_cancelled: 1,
        appointments_no_show: 0,
        revenue_pix_cents: 10_000,
        revenue_card_cents: 30_000,
        refunds_cents: 8_000,
        conversations_started: 0,
        messages_sent: 0,
      })
      expect(response.json).toMatchObject({ active_subscriptions: 3, active_subscriptions_at_end: 2 })
    } finally {
      await dispose()
    }
  })
})
