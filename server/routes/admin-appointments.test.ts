import { asc } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { DatabaseHandle } from '#server/db/client.ts'
import { auditLog } from '#server/db/schema.ts'
import { client, createMemoryDatabase, fakeClock, freeConsultations, resetDatabase, testApp } from '#server/testing/harness.ts'

/**
 * Appointments for support (issue 26, decision 0061): an admin reads one professional's schedule
 * (GET /appointments/?professional=, with from, to and status), and cancels or moves someone's
 * appointment through its people's own endpoints and rules, each change audited.
 */

// Monday 2026-03-02, 09:00 in São Paulo (UTC-3).
const NOW = Date.parse('2026-03-02T12:00:00Z')
const DAY = 24 * 3600
const ENV = { ACCESS_TOKEN_LIFETIME: String(365 * DAY), REFRESH_TOKEN_LIFETIME: String(365 * DAY) }
const EMAILS = { admin: 'admin@innera.local', paula: 'profissional@innera.local', rafael: 'nutricionista@innera.local', pedro: 'paciente@innera.local', mariana: 'paciente2@innera.local' } as const
type Person = keyof typeof EMAILS
const ID: Record<Person, number> = { admin: 1, paula: 2, rafael: 3, pedro: 4, mariana: 5 }
const sp = (date: string, time: string) => new Date(`${date}T${time}:00-03:00`).toISOString()
const TUE = '2026-03-03'
const WED = '2026-03-04'

let database: DatabaseHandle
const time = fakeClock(NOW)
let app: ProviderApp
let api: ReturnType<typeof client>
const tokens = {} as Record<Person, string>

beforeAll(async () => {
  database = await createMemoryDatabase()
  app = testApp(database.db, { clock: time.clock, env: ENV })
  api = client(app)
  for (const person of Object.keys(EMAILS) as Person[]) tokens[person] = (await api.login(EMAILS[person])).access
})
afterAll(() => database.close())
beforeEach(async () => {
  time.set(NOW)
  await resetDatabase(database.db)
  await freeConsultations(database.db)
})

async function booked(who: Person, professional: Person, start: string): Promise<number> {
  const response = await api.post('/appointments/create/', { professional_id: ID[professional], start_time: start }, { token: tokens[who] })
  if (response.status !== 201) throw new Error(`booking failed: ${response.status} ${response.text}`)
  return response.json.id
}

const audits = () => database.db.select().from(auditLog).orderBy(asc(auditLog.id))
const ids = async (query: string, who: Person = 'admin') => {
  const answer = await api.get(`/appointments/${query}`, { token: tokens[who] })
  expect(answer.status, query).toBe(200)
  return answer.json.results.map((appointment: { id: number }) => appointment.id)
}

describe('GET /appointments/ for support', () => {
  it("gives an admin one professional's schedule, narrowed by dates (the caller's zone) and status", async () => {
    const paulaTue = await booked('pedro', 'paula', sp(TUE, '08:00'))
    const paulaWed = await booked('mariana', 'paula', sp(WED, '08:00'))
    const rafaelTue = await booked('pedro', 'rafael', sp(TUE, '13:00'))
    await api.post(`/appointments/${paulaWed}/cancel/`, {}, { token: tokens.mariana })
    expect(await ids('')).toEqual([paulaWed, rafaelTue, paulaTue])
    expect(await ids(`?professional=${ID.paula}`)).toEqual([paulaWed, paulaTue])
    expect(await ids(`?professional=${ID.rafael}&when=upcoming`)).toEqual([rafaelTue])
    expect(await ids(`?professional=${ID.paula}&status=cancelled`)).toEqual([paulaWed])
    expect(await ids(`?professional=${ID.paula}&from=${WED}`)).toEqual([paulaWed])
    expect(await ids(`?professional=${ID.paula}&from=${TUE}&to=${TUE}`)).toEqual([paulaTue])
    expect(await ids(`?professional=${ID.paula}&patient=${ID.pedro}`)).toEqual([paulaTue])
    expect(await ids('?professional=&from=&to=&status=')).toEqual([paulaWed, rafaelTue, paulaTue])
    // Everyone else reads their own, whatever `professional` says; the dates and status narrow theirs too.
    expect(await ids(`?professional=${ID.rafael}`, 'pedro')).toEqual([rafaelTue, paulaTue])
    expect(await ids(`?from=${WED}`, 'paula')).toEqual([paulaWed])
  })

  it('refuses malformed filters with 400, DRF-style', async () => {
    const bad = async (query: string) => {
      const answer = await api.get(`/appointments/${query}`, { token: tokens.admin })
      expect(answer.status, query).toBe(400)
      return answer.json
    }
    expect(await bad('?professional=paula')).toEqual({ professional: ['A valid integer is required.'] })
    expect(await bad('?professional=0')).toEqual({ professional: ['Ensure this value is greater than or equal to 1.'] })
    expect(await bad('?status=lost')).toEqual({ status: ['"lost" is not a valid choice.'] })
    expect(await bad('?from=2026-3-1')).toEqual({ from: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] })
    expect(await bad(`?from=${WED}&to=${TUE}`)).toEqual({ to: ['The end date must not be before the start date.'] })
  })
})

describe("an admin's changes to someone's appointment", () => {
  it('a cancellation under the same rule (refunded in full), audited with who, before, after and why', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    time.set(Date.parse(sp(TUE, '07:00')))
    const answer = await api.post(`/appointments/${id}/cancel/`, { reason: 'Profissional indisponível' }, { token: tokens.admin })
    expect(answer.json).toMatchObject({ status: 'cancelled', cancelled_by: 'admin', refund: 'full' })
    expect(await audits()).toMatchObject([
      {
        actorId: ID.admin,
        actorRole: 'admin',
        action: 'appointment.cancel',
        targetType: 'appointment',
        targetId: String(id),
        subjectUserId: ID.pedro,
        before: { status: 'scheduled' },
        after: { status: 'cancelled', refund: 'full' },
        reason: 'Profissional indisponível',
      },
    ])
    expect((await audits())[0]!.at.getTime()).toBe(Date.parse(sp(TUE, '07:00')))
  })

  it('a move, audited with the start before and after; nothing audited when its own people act', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    await api.patch(`/appointments/${id}/status/`, { status: 'confirmed' }, { token: tokens.paula })
    const moved = await api.patch(`/appointments/${id}/update/`, { start_time: sp(WED, '13:00') }, { token: tokens.admin })
    expect(moved.json).toMatchObject({ status: 'scheduled', start_time: sp(WED, '13:00') })
    expect(await audits()).toMatchObject([
      {
        actorId: ID.admin,
        action: 'appointment.move',
        targetType: 'appointment',
        targetId: String(id),
        subjectUserId: ID.pedro,
        before: { start_time: sp(TUE, '08:00'), status: 'confirmed' },
        after: { start_time: sp(WED, '13:00'), status: 'scheduled' },
        reason: null,
      },
    ])
    // The patient moves and cancels their own, the professional cancels theirs: no admin change.
    await api.patch(`/appointments/${id}/update/`, { start_time: sp(WED, '14:00') }, { token: tokens.pedro })
    await api.post(`/appointments/${id}/cancel/`, {}, { token: tokens.pedro })
    const other = await booked('mariana', 'paula', sp(TUE, '13:00'))
    await api.post(`/appointments/${other}/cancel/`, {}, { token: tokens.paula })
    expect(await audits()).toHaveLength(1)
  })
})
