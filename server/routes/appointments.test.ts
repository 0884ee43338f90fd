import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { Database, DatabaseHandle } from '#server/db/client.ts'
import { isExclusionViolation } from '#server/db/errors.ts'
import { appointments, outbox, professionalProfiles, users } from '#server/db/schema.ts'
import { client, createMemoryDatabase, createPostgresDatabase, fakeClock, PUBLIC_URL, resetDatabase, testApp, watchLockWaits, freeConsultations } from '#server/testing/harness.ts'

// Monday 2026-03-02, 09:00 in São Paulo (UTC-3).
const NOW = Date.parse('2026-03-02T12:00:00Z')
const HOUR = 3600
const DAY = 24 * HOUR
// Long-lived tokens and sessions: the tests move the clock by days.
const ENV = { ACCESS_TOKEN_LIFETIME: String(365 * DAY), REFRESH_TOKEN_LIFETIME: String(365 * DAY) }

const EMAILS = {
  admin: 'admin@innera.local',
  paula: 'profissional@innera.local',
  rafael: 'nutricionista@innera.local',
  pedro: 'paciente@innera.local',
  mariana: 'paciente2@innera.local',
  ines: 'psicologa@innera.local',
  lucas: 'educador@innera.local',
} as const
type Person = keyof typeof EMAILS
// Seed order.
const ID: Record<Person, number> = { admin: 1, paula: 2, rafael: 3, pedro: 4, mariana: 5, ines: 6, lucas: 7 }

const FORBIDDEN = { detail: 'You do not have permission to perform this action.' }
const NOT_FOUND = { status: 404, json: { detail: 'Not found.' } }
const MESSAGES = {
  past: 'This time is in the past.',
  notice: 'This time is inside the minimum notice of 12 hours.',
  horizon: 'This time is beyond the booking horizon of 60 days.',
  outside: "This time is outside the professional's availability.",
}

/** A wall time in São Paulo (UTC-3 all year since 2019) as a UTC instant string. */
const sp = (date: string, time: string) => new Date(`${date}T${time}:00-03:00`).toISOString()
const TUE = '2026-03-03'
const WED = '2026-03-04'
const THU = '2026-03-05'

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

const book = (who: Person, professional: Person, start: string, notes?: string) =>
  api.post('/appointments/create/', { professional_id: ID[professional], start_time: start, ...(notes !== undefined && { notes }) }, { token: tokens[who] })

async function booked(who: Person, professional: Person, start: string): Promise<number> {
  const response = await book(who, professional, start)
  if (response.status !== 201) throw new Error(`booking failed: ${response.status} ${response.text}`)
  return response.json.id
}

const as = (who: Person | undefined) => (who ? { token: tokens[who] } : {})
const put = (path: string, body: unknown, who?: Person) => api.call('PUT', path, { body, ...as(who) })
const del = (path: string, who?: Person) => api.call('DELETE', path, as(who))

describe('GET /appointments/professionals/', () => {
  it('lists the bookable professionals by name, with their next free time', async () => {
    const response = await api.get('/appointments/professionals/', { token: tokens.pedro })
    expect(response.status).toBe(200)
    expect(response.json.map((professional: { id: number }) => professional.id)).toEqual([ID.ines, ID.lucas, ID.paula, ID.rafael])
    expect(response.json[2]).toEqual({
      id: ID.paula,
      first_name: 'Paula',
      last_name: 'Ribeiro',
      photo: null,
      profession: 'Médica',
      registration_number: 'CRM-SP 123456',
      pillars: ['estresse', 'exercicio', 'sono', 'substancias'],
      languages: ['pt', 'en'],
      bio: 'Médica dedicada à medicina do estilo de vida, acompanha pacientes na construção de hábitos sustentáveis.',
      consultation_minutes: 50,
      // Made free for these tests (freeConsultations); the price and its payment: paid-consultations.test.ts.
      price_cents: 0,
      currency: 'BRL',
      time_zone: 'America/Sao_Paulo',
      // Now + 12 h is Monday 21:00: the first free time is Tuesday 08:00.
      next_free_time: sp(TUE, '08:00'),
    })
    // Inês works in Lisbon: her Tuesday 08:00 comes three hours earlier.
    expect(response.json[0]).toMatchObject({ first_name: 'Inês', time_zone: 'Europe/Lisbon', next_free_time: '2026-03-03T08:00:00.000Z' })
    for (const who of ['paula', 'admin'] as const) expect((await api.get('/appointments/professionals/', as(who))).status).toBe(200)
    expect((await api.get('/appointments/professionals/')).status).toBe(401)
  })

  it('filters by pillar', async () => {
    const names = async (query: string) =>
      (await api.get(`/appointments/professionals/${query}`, { token: tokens.pedro })).json.map((professional: { first_name: string }) => professional.first_name)
    expect(await names('?pillar=alimento')).toEqual(['Rafael'])
    expect(await names('?pillar=relacionamentos')).toEqual(['Inês'])
    expect(await names('?pillar=exercicio')).toEqual(['Lucas', 'Paula', 'Rafael'])
    expect(await names('?pillar=')).toHaveLength(4)
    expect(await api.get('/appointments/professionals/?pillar=yoga', { token: tokens.pedro })).toMatchObject({
      status: 400,
      json: { pillar: ['"yoga" is not a valid choice.'] },
    })
  })

  it('leaves out inactive, unaccredited and schedule-less professionals; next_free_time is null when nothing is free', async () => {
    await database.db.update(users).set({ isActive: false }).where(eq(users.id, ID.lucas))
    await database.db.update(professionalProfiles).set({ accredited: false }).where(eq(professionalProfiles.userId, ID.rafael))
    await database.db.delete(professionalProfiles).where(eq(professionalProfiles.userId, ID.ines))
    const closed = { time_zone: 'America/Sao_Paulo', consultation_minutes: 50, availability: {} }
    expect((await put('/appointments/update-schedule/', closed, 'paula')).status).toBe(200)
    const response = await api.get('/appointments/professionals/', { token: tokens.pedro })
    expect(response.json).toEqual([expect.objectContaining({ id: ID.paula, next_free_time: null })])
  })
})

describe('GET /appointments/calendar/availability/', () => {
  const availability = (query: string, who: Person = 'pedro') => api.get(`/appointments/calendar/availability/?${query}`, as(who))

  it('answers the free times from now + notice to the horizon by default', async () => {
    const response = await availability(`professional_id=${ID.paula}`)
    expect(response.status).toBe(200)
    expect(response.json).toMatchObject({ professional_id: ID.paula, time_zone: 'America/Sao_Paulo', consultation_minutes: 50 })
    const slots: { start: string; end: string }[] = response.json.slots
    expect(slots[0]).toEqual({ start: sp(TUE, '08:00'), end: sp(TUE, '08:50') })
    for (const slot of slots) expect(Date.parse(slot.end) - Date.parse(slot.start)).toBe(50 * 60_000)
    expect(Date.parse(slots.at(-1)!.start)).toBeLessThanOrEqual(NOW + 60 * DAY * 1000)
    expect(slots.some((slot) => slot.start.startsWith('2026-03-08'))).toBe(false) // Sunday
    // Anyone signed in may look.
    for (const who of ['rafael', 'admin'] as const) expect((await availability(`professional_id=${ID.paula}`, who)).json.slots).toEqual(slots)
  })

  it('takes a window of local dates or instants', async () => {
    const tuesday = await availability(`professional_id=${ID.paula}&start=${TUE}&end=${TUE}`)
    expect(tuesday.json.slots.map((slot: { start: string }) => slot.start)).toEqual(
      ['08:00', '08:50', '09:40', '10:30', '13:00', '13:50', '14:40', '15:30', '16:20', '17:10'].map((clock) => sp(TUE, clock)),
    )
    // The professional comes along, as the directory shows them, with the next free time of all.
    expect(tuesday.json.professional).toMatchObject({ id: ID.paula, first_name: 'Paula', time_zone: 'America/Sao_Paulo', next_free_time: expect.any(String) })
    const instants = await availability(`professional_id=${ID.paula}&start=${sp(TUE, '09:00')}&end=${sp(TUE, '11:00')}`)
    expect(instants.json.slots.map((slot: { start: string }) => slot.start)).toEqual([sp(TUE, '09:40'), sp(TUE, '10:30')])
    // Her local dates: Tuesday in Lisbon starts at 00:00Z.
    const ines = await availability(`professional_id=${ID.ines}&start=${TUE}&end=${TUE}`)
    expect(ines.json.slots[0].start).toBe('2026-03-03T08:00:00.000Z')
    expect(ines.json.slots.at(-1).start).toBe('2026-03-03T17:10:00.000Z')
    // Clipped to now + notice: today offers nothing.
    expect((await availability(`professional_id=${ID.paula}&start=2026-03-02&end=2026-03-02`)).json.slots).toEqual([])
  })

  it('in a time zone, answers the dates with their counts and one date’s times', async () => {
    const all = (await availability(`professional_id=${ID.ines}&start=${TUE}&end=${WED}`)).json.slots as { start: string }[]
    // Inês works from Lisbon (UTC+0 in March); in São Paulo (UTC-3) her 08:00-17:10 day is 05:00-14:10, the same date.
    const inSaoPaulo = await availability(`professional_id=${ID.ines}&start=${TUE}&end=${WED}&time_zone=America/Sao_Paulo&date=${WED}`)
    expect(inSaoPaulo.json.days).toEqual([
      { date: TUE, count: all.filter((slot) => slot.start.startsWith(TUE)).length },
      { date: WED, count: all.filter((slot) => slot.start.startsWith(WED)).length },
    ])
    expect(inSaoPaulo.json.date).toBe(WED)
    expect(inSaoPaulo.json.slots).toEqual(all.filter((slot) => slot.start.startsWith(WED)).map((slot) => ({ ...slot, end: expect.any(String) })))
    // In Tokyo (UTC+9) her afternoon falls on the next date; a date with nothing free gives the first.
    const inTokyo = await availability(`professional_id=${ID.ines}&start=${TUE}&end=${TUE}&time_zone=Asia/Tokyo&date=2026-03-09`)
    expect(inTokyo.json.days.map((day: { date: string }) => day.date)).toEqual([TUE, WED])
    expect(inTokyo.json.date).toBe(TUE)
    expect(inTokyo.json.slots[0].start).toBe('2026-03-03T08:00:00.000Z')
    expect((await availability(`professional_id=${ID.ines}&time_zone=America/Buenos_Aires`)).status).toBe(200) // an alias
    expect(await availability(`professional_id=${ID.ines}&time_zone=Mars/Olympus`)).toMatchObject({ status: 400, json: { time_zone: ['Enter a valid time zone.'] } })
    expect(await availability(`professional_id=${ID.ines}&time_zone=UTC&date=03/04/2026`)).toMatchObject({ status: 400, json: { date: [expect.stringContaining('YYYY-MM-DD')] } })
    expect(await availability(`professional_id=${ID.ines}&date=${TUE}`)).toMatchObject({ status: 400, json: { date: ['A date needs its time_zone.'] } })
  })

  it('leaves out booked times with their buffer', async () => {
    await booked('mariana', 'paula', sp(TUE, '09:40'))
    const tuesday = await availability(`professional_id=${ID.paula}&start=${TUE}&end=${TUE}`)
    expect(tuesday.json.slots.slice(0, 3).map((slot: { start: string }) => slot.start)).toEqual([sp(TUE, '08:00'), sp(TUE, '13:00'), sp(TUE, '13:50')])
  })

  it('refuses bad queries', async () => {
    expect(await availability('')).toMatchObject({ status: 400, json: { professional_id: ['This field is required.'] } })
    expect(await availability('professional_id=abc')).toMatchObject({ status: 400, json: { professional_id: ['A valid integer is required.'] } })
    expect(await availability(`professional_id=${ID.pedro}`)).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    expect(await availability(`professional_id=${ID.paula}&start=tomorrow`)).toMatchObject({
      status: 400,
      json: { start: ['Enter a date as YYYY-MM-DD or a date and time with its offset, e.g. 2026-12-01T12:00:00Z.'] },
    })
    expect(await availability(`professional_id=${ID.paula}&start=${WED}&end=${TUE}`)).toMatchObject({ status: 400, json: { end: ['The end must be after the start.'] } })
    expect(await availability(`professional_id=${ID.paula}&start=${TUE}&end=2026-06-01`)).toMatchObject({
      status: 400,
      json: { end: ['The window can span at most 62 days.'] },
    })
    expect((await api.get(`/appointments/calendar/availability/?professional_id=${ID.paula}`)).status).toBe(401)
  })

  it('answers 400, not 500, for dates and instants beyond the years 2000-2100', async () => {
    const early = { status: 400, json: { start: ['Ensure this value is greater than or equal to 2000-01-01.'] } }
    expect(await availability(`professional_id=${ID.rafael}&start=0999-01-01`)).toMatchObject(early)
    expect(await availability(`professional_id=${ID.rafael}&end=9999-12-31`)).toMatchObject({ status: 400, json: { end: ['Ensure this value is less than or equal to 2100-12-31.'] } })
    expect(await availability(`professional_id=${ID.rafael}&start=0999-01-01T00:00:00Z`)).toMatchObject({
      status: 400,
      json: { start: ['Ensure this value is greater than or equal to 2000-01-01T00:00:00Z.'] },
    })
    expect(await availability(`professional_id=${ID.rafael}&time_zone=UTC&date=9999-12-27`)).toMatchObject({ status: 400, json: { date: ['Ensure this value is less than or equal to 2100-12-31.'] } })
    // The edges themselves are dates like any other.
    expect((await availability(`professional_id=${ID.rafael}&start=2100-12-01&end=2100-12-31`)).json.slots).toEqual([])
  })
})

describe('POST /appointments/create/', () => {
  it('books a free time for the signed-in patient', async () => {
    const response = await book('pedro', 'paula', sp(TUE, '08:00'), '  Primeira consulta  ')
    expect(response.status).toBe(201)
    expect(response.json).toEqual({
      id: 1,
      status: 'scheduled',
      start_time: sp(TUE, '08:00'),
      end_time: sp(TUE, '08:50'),
      time_zone: 'America/Sao_Paulo',
      notes: 'Primeira consulta',
      shared_notes: '',
      professional: { id: ID.paula, first_name: 'Paula', last_name: 'Ribeiro', photo: null, profession: 'Médica', registration_number: 'CRM-SP 123456' },
      patient: { id: ID.pedro, first_name: 'Pedro', last_name: 'Santos' },
      payment_reference: null,
      // Free when booked without a payment (decision 0051); nothing paid, nothing to give back.
      price_cents: null,
      payment: null,
      cancellation: null,
      created_at: new Date(NOW).toISOString(),
      cancelled_at: null,
      cancelled_by: null,
      refund: null,
    })
    const [row] = await database.db.select().from(appointments)
    expect(row!.blockedUntil.toISOString()).toBe(sp(TUE, '09:00'))
    expect(row!.meetingLink).toMatch(/^https:\/\/meet\.jit\.si\/innera-[A-Za-z0-9_-]{24}$/)
  })

  it('makes the patient one of the professional\'s patients (docs/product.md §6), once', async () => {
    const patientsOfLucas = async () => (await api.get('/users/professionals/patients/', { token: tokens.lucas })).json.results.map((patient: { id: number }) => patient.id)
    expect(await patientsOfLucas()).not.toContain(ID.pedro)
    expect((await book('pedro', 'lucas', sp(WED, '08:00'))).status).toBe(201)
    expect((await book('pedro', 'lucas', sp(THU, '08:00'))).status).toBe(201)
    expect((await patientsOfLucas()).filter((id: number) => id === ID.pedro)).toHaveLength(1)
  })

  it('uses MEETING_BASE_URL for the meeting link', async () => {
    const other = client(testApp(database.db, { clock: time.clock, env: { ...ENV, MEETING_BASE_URL: 'https://video.example.com/rooms/' } }))
    const response = await other.post('/appointments/create/', { professional_id: ID.paula, start_time: sp(TUE, '08:00') }, { token: tokens.pedro })
    expect(response.status).toBe(201)
    const [row] = await database.db.select().from(appointments)
    expect(row!.meetingLink).toMatch(/^https:\/\/video\.example\.com\/rooms\/innera-[A-Za-z0-9_-]{24}$/)
  })

  it('answers each start_time rule in order, as field errors', async () => {
    const error = async (start: string) => {
      const response = await book('pedro', 'paula', start)
      expect(response.status).toBe(400)
      return response.json
    }
    expect(await error(sp('2026-03-02', '08:00'))).toEqual({ start_time: [MESSAGES.past] })
    expect(await error(sp('2026-03-02', '17:10'))).toEqual({ start_time: [MESSAGES.notice] })
    expect(await error(sp('2026-05-04', '08:00'))).toEqual({ start_time: [MESSAGES.horizon] })
    expect(await error(sp(TUE, '08:10'))).toEqual({ start_time: [MESSAGES.outside] }) // off-step
    expect(await error(sp(TUE, '12:00'))).toEqual({ start_time: [MESSAGES.outside] }) // lunch
    expect(await error(sp('2026-03-08', '09:00'))).toEqual({ start_time: [MESSAGES.outside] }) // Sunday
    expect(await error(sp(TUE, '11:20'))).toEqual({ start_time: [MESSAGES.outside] }) // would end after 12:00
    expect(await database.db.select().from(appointments)).toEqual([])
  })

  it('validates the fields', async () => {
    const post = (body: unknown) => api.post('/appointments/create/', body, { token: tokens.pedro })
    expect((await post({})).json).toEqual({ professional_id: ['This field is required.'], start_time: ['This field is required.'] })
    expect((await post({ professional_id: ID.paula, start_time: '2026-03-03 08:00', notes: 'x'.repeat(1001) })).json).toEqual({
      start_time: ['Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]](+HH:MM|-HH:MM|Z).'],
      notes: ['Ensure this field has no more than 1000 characters.'],
    })
    expect((await post({ professional_id: ID.mariana, start_time: sp(TUE, '08:00') })).json).toEqual({ professional_id: [`Invalid pk "${ID.mariana}" - object does not exist.`] })
    expect((await post({ professional_id: 2147483648, start_time: sp(TUE, '08:00') })).json).toEqual({ professional_id: ['Ensure this value is less than or equal to 2147483647.'] })
    expect(await post({ professional_id: ID.paula, start_time: sp(TUE, '08:00'), notes: 'a\u0000b' })).toMatchObject({ status: 400, json: { detail: 'Null characters are not allowed.' } })
    // Any offset is read as the instant it names.
    expect((await post({ professional_id: ID.paula, start_time: `${TUE}T08:00-03:00` })).status).toBe(201)
  })

  it('answers 409 slot_taken with the nearest free times when the time (or its buffer) is taken', async () => {
    await booked('pedro', 'paula', sp(TUE, '08:00'))
    const taken = await book('mariana', 'paula', sp(TUE, '08:00'))
    expect(taken).toMatchObject({
      status: 409,
      json: { detail: 'This time is no longer available.', code: 'slot_taken', nearest: [sp(TUE, '09:40'), sp(TUE, '10:30'), sp(TUE, '13:00')] },
    })
    // 08:00 ends at 08:50 but blocks until 09:00 (its buffer): 08:50 overlaps it.
    expect((await book('mariana', 'paula', sp(TUE, '08:50'))).status).toBe(409)
    // Another professional at the same time is fine.
    expect((await book('mariana', 'rafael', sp(TUE, '08:00'))).status).toBe(201)
  })

  it('is for patients only', async () => {
    for (const who of ['paula', 'admin'] as const) expect(await book(who, 'rafael', sp(TUE, '08:00'))).toMatchObject({ status: 403, json: FORBIDDEN })
    expect((await api.post('/appointments/create/', { professional_id: ID.paula, start_time: sp(TUE, '08:00') })).status).toBe(401)
  })
})

/** Ten of Paula's free times on Tuesday and Wednesday that can all be booked (each with its buffer). */
const TEN_TIMES = [TUE, WED].flatMap((date) => ['08:00', '09:40', '13:00', '14:40', '16:20'].map((clock) => sp(date, clock)))

describe('limits on upcoming appointments (issue 22: one patient cannot take every free time)', () => {
  const LIMIT_WITH_PAULA = { detail: 'You already have 4 upcoming appointments with this professional.', code: 'upcoming_limit', scope: 'professional', limit: 4 }

  it('a patient holds at most 4 upcoming appointments with one professional: the fifth is a 409 with its code, nothing booked', async () => {
    for (const start of TEN_TIMES.slice(0, 4)) expect((await book('pedro', 'paula', start)).status).toBe(201)
    expect(await book('pedro', 'paula', TEN_TIMES[4]!)).toMatchObject({ status: 409, json: LIMIT_WITH_PAULA })
    // Said before the time is looked at: a taken time or one outside the agenda gets the same answer.
    expect(await book('pedro', 'paula', TEN_TIMES[0]!)).toMatchObject({ status: 409, json: LIMIT_WITH_PAULA })
    expect(await database.db.select().from(appointments)).toHaveLength(4)
    // Other professionals and other patients are not affected.
    expect((await book('pedro', 'rafael', sp(TUE, '08:00'))).status).toBe(201)
    expect((await book('mariana', 'paula', TEN_TIMES[4]!)).status).toBe(201)
  })

  it('counts only what is ahead and live: a cancelled or past appointment frees a place; rescheduling is not a new one', async () => {
    const ids = []
    for (const start of TEN_TIMES.slice(0, 4)) ids.push(await booked('pedro', 'paula', start))
    // Moving one of the four is allowed: it stays one appointment.
    expect((await api.patch(`/appointments/${ids[0]}/update/`, { start_time: TEN_TIMES[5] }, { token: tokens.pedro })).status).toBe(200)
    expect((await book('pedro', 'paula', TEN_TIMES[6]!)).status).toBe(409)
    expect((await api.post(`/appointments/${ids[1]}/cancel/`, {}, { token: tokens.pedro })).status).toBe(200)
    expect((await book('pedro', 'paula', TEN_TIMES[6]!)).status).toBe(201)
    expect((await book('pedro', 'paula', TEN_TIMES[7]!)).status).toBe(409)
    // Once Tuesday 13:00 (the third) has started, it no longer counts.
    time.set(Date.parse(sp(TUE, '13:10')))
    expect((await book('pedro', 'paula', sp(THU, '08:00'))).status).toBe(201)
  })

  it('a patient holds at most 8 upcoming appointments in all', async () => {
    // Inês works in Lisbon (UTC in March): her afternoon starts three hours before São Paulo's.
    const starts: [Person, string][] = [
      ...(['paula', 'rafael', 'lucas'] as const).flatMap((professional) => [sp(WED, '13:00'), sp(WED, '14:40')].map((start): [Person, string] => [professional, start])),
      ['ines', '2026-03-04T13:00:00.000Z'],
      ['ines', '2026-03-04T14:40:00.000Z'],
    ]
    let booked8 = 0
    for (const [professional, start] of starts) {
      expect((await book('pedro', professional, start)).status).toBe(201)
      booked8 += 1
    }
    expect(booked8).toBe(8)
    expect(await book('pedro', 'paula', sp(THU, '08:00'))).toMatchObject({
      status: 409,
      json: { detail: 'You already have 8 upcoming appointments.', code: 'upcoming_limit', scope: 'total', limit: 8 },
    })
  })

  it('takes its limits from BOOKING_MAX_UPCOMING_PER_PROFESSIONAL and BOOKING_MAX_UPCOMING', async () => {
    const strict = client(testApp(database.db, { clock: time.clock, env: { ...ENV, BOOKING_MAX_UPCOMING_PER_PROFESSIONAL: '1', BOOKING_MAX_UPCOMING: '2' } }))
    const post = (professional: Person, start: string) => strict.post('/appointments/create/', { professional_id: ID[professional], start_time: start }, { token: tokens.pedro })
    expect((await post('paula', TEN_TIMES[0]!)).status).toBe(201)
    expect((await post('paula', TEN_TIMES[1]!)).json).toMatchObject({ code: 'upcoming_limit', scope: 'professional', limit: 1 })
    expect((await post('rafael', TEN_TIMES[1]!)).status).toBe(201)
    expect((await post('lucas', TEN_TIMES[2]!)).json).toMatchObject({ code: 'upcoming_limit', scope: 'total', limit: 2 })
  })
})

describe('throttles per user (issue 22): booking, rescheduling and cancelling', () => {
  const RATES = { THROTTLE_DISABLED: '0', THROTTLE_BOOKING_PER_USER: '2/h', THROTTLE_RESCHEDULE_PER_USER: '2/h', THROTTLE_CANCEL_PER_USER: '2/h' }
  const throttledApi = () => client(testApp(database.db, { clock: time.clock, env: { ...ENV, ...RATES } }))
  const expectThrottled = (response: { status: number; headers: Headers; json: { detail: string } }) => {
    expect(response.status).toBe(429)
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(3500)
    expect(response.json.detail).toMatch(/^Request was throttled\. Expected available in \d+ seconds\.$/)
  }

  it('answers 429 with Retry-After past the rate of bookings, whatever the answers were; another patient still books', async () => {
    const limited = throttledApi()
    const post = (who: Person, start: string) => limited.post('/appointments/create/', { professional_id: ID.paula, start_time: start }, { token: tokens[who] })
    expect((await post('pedro', TEN_TIMES[0]!)).status).toBe(201)
    // A refused booking (a time outside the agenda) counts too: the flood is of requests.
    expect((await post('pedro', sp(TUE, '12:00'))).status).toBe(400)
    expectThrottled(await post('pedro', TEN_TIMES[1]!))
    expect(await database.db.select().from(appointments)).toHaveLength(1)
    expect((await post('mariana', TEN_TIMES[1]!)).status).toBe(201)
  })

  it('answers 429 past the rate of reschedules and of cancellations, per user', async () => {
    const limited = throttledApi()
    const ids = [await booked('pedro', 'paula', TEN_TIMES[0]!), await booked('pedro', 'paula', TEN_TIMES[1]!), await booked('pedro', 'paula', TEN_TIMES[2]!)]
    const move = (id: number, start: string) => limited.patch(`/appointments/${id}/update/`, { start_time: start }, { token: tokens.pedro })
    expect((await move(ids[0]!, TEN_TIMES[5]!)).status).toBe(200)
    expect((await move(ids[0]!, TEN_TIMES[6]!)).status).toBe(200)
    expectThrottled(await move(ids[0]!, TEN_TIMES[7]!))
    expect((await api.get(`/appointments/${ids[0]}/`, { token: tokens.pedro })).json.start_time).toBe(TEN_TIMES[6])

    const cancel = (id: number, who: Person) => limited.post(`/appointments/${id}/cancel/`, {}, { token: tokens[who] })
    expect((await cancel(ids[0]!, 'pedro')).status).toBe(200)
    expect((await cancel(ids[1]!, 'pedro')).status).toBe(200)
    expectThrottled(await cancel(ids[2]!, 'pedro'))
    // The professional counts on her own.
    expect((await cancel(ids[2]!, 'paula')).status).toBe(200)
  })
})

describe('idempotency keys (issue 22: a booking the patient is told failed went through)', () => {
  const KEY = 'k3y-0f-the-review-step-1234'
  const bookWithKey = (who: Person, start: string, key = KEY, notes?: string) =>
    api.post('/appointments/create/', { professional_id: ID.paula, start_time: start, idempotency_key: key, ...(notes !== undefined && { notes }) }, { token: tokens[who] })
  const subjectsTo = async (email: string) => (await api.mailTo(email)).map((mail) => mail.subject)

  it('the same key gives back the same appointment (200), not a 409 against oneself; nothing is booked or mailed twice', async () => {
    const first = await bookWithKey('pedro', sp(TUE, '08:00'), KEY, 'Primeira')
    expect(first.status).toBe(201)
    expect(first.headers.get('cache-control')).toBe('private, no-store')
    const again = await bookWithKey('pedro', sp(TUE, '08:00'), KEY, 'Primeira')
    expect(again).toMatchObject({ status: 200, json: { id: first.json.id, start_time: sp(TUE, '08:00'), notes: 'Primeira' } })
    expect(again.json).toEqual(first.json)
    // The key names the attempt: sent again with another time (the patient chose again after a lost answer), it is still that booking.
    expect(await bookWithKey('pedro', sp(TUE, '13:00'))).toMatchObject({ status: 200, json: { id: first.json.id, start_time: sp(TUE, '08:00') } })
    expect(await database.db.select().from(appointments)).toHaveLength(1)
    expect((await subjectsTo(EMAILS.pedro)).filter((subject) => subject.includes('agendada'))).toHaveLength(1)
    // Another key is another booking.
    expect((await bookWithKey('pedro', sp(TUE, '13:00'), 'another-key-of-another-review')).status).toBe(201)
  })

  it("keys are the patient's own: another patient's same key books anew", async () => {
    expect((await bookWithKey('pedro', sp(TUE, '08:00'))).status).toBe(201)
    expect(await bookWithKey('mariana', sp(TUE, '08:00'))).toMatchObject({ status: 409, json: { code: 'slot_taken' } })
    expect((await bookWithKey('mariana', sp(TUE, '13:00'))).status).toBe(201)
  })

  it('a repeat is answered even at the limit or once throttled: it books nothing new', async () => {
    const limited = client(testApp(database.db, { clock: time.clock, env: { ...ENV, THROTTLE_DISABLED: '0', THROTTLE_BOOKING_PER_USER: '4/h' } }))
    const post = (start: string, key: string) => limited.post('/appointments/create/', { professional_id: ID.paula, start_time: start, idempotency_key: key }, { token: tokens.pedro })
    for (const [index, start] of TEN_TIMES.slice(0, 4).entries()) expect((await post(start, `key-number-${index}-of-four`)).status).toBe(201)
    expect((await post(TEN_TIMES[4]!, 'key-number-4-of-four')).status).toBe(429)
    expect(await post(TEN_TIMES[3]!, 'key-number-3-of-four')).toMatchObject({ status: 200, json: { start_time: TEN_TIMES[3] } })
    expect((await api.post('/appointments/create/', { professional_id: ID.paula, start_time: TEN_TIMES[4], idempotency_key: 'key-number-4-of-four' }, { token: tokens.pedro })).json).toMatchObject({ code: 'upcoming_limit' })
    expect((await api.post('/appointments/create/', { professional_id: ID.paula, start_time: TEN_TIMES[4], idempotency_key: 'key-number-3-of-four' }, { token: tokens.pedro })).status).toBe(200)
  })

  it("GET /appointments/by-idempotency-key/ answers the patient's booking with that key, or 404", async () => {
    const id = (await bookWithKey('pedro', sp(TUE, '08:00'))).json.id
    const lookup = (who: Person, key: string) => api.get(`/appointments/by-idempotency-key/?key=${encodeURIComponent(key)}`, { token: tokens[who] })
    const found = await lookup('pedro', KEY)
    expect(found).toMatchObject({ status: 200, json: { id, start_time: sp(TUE, '08:00') } })
    expect(found.headers.get('cache-control')).toBe('private, no-store')
    expect((await lookup('pedro', 'a-key-never-used-here')).status).toBe(404)
    expect((await lookup('mariana', KEY)).status).toBe(404)
    expect(await lookup('paula', KEY)).toMatchObject({ status: 403, json: FORBIDDEN })
    expect((await api.get(`/appointments/by-idempotency-key/?key=${KEY}`)).status).toBe(401)
    expect((await lookup('pedro', 'short')).json).toEqual({ key: ['Enter a valid idempotency key: 16 to 64 letters, digits, "-" or "_".'] })
  })

  it('validates the key', async () => {
    expect((await bookWithKey('pedro', sp(TUE, '08:00'), 'no spaces allowed in keys')).json).toEqual({ idempotency_key: ['Enter a valid idempotency key: 16 to 64 letters, digits, "-" or "_".'] })
    expect((await bookWithKey('pedro', sp(TUE, '08:00'), 'k'.repeat(65))).json).toEqual({ idempotency_key: ['Ensure this field has no more than 64 characters.'] })
    expect(await database.db.select().from(appointments)).toHaveLength(0)
  })

  it('a reschedule sent again with its key changes nothing more: 200, the appointment as it is, no second notice', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    // Past the confirmation's hold, so the notice is a message of its own (not collapsed into it).
    time.set(NOW + 3 * 60_000)
    const move = (start: string, key: string) => api.patch(`/appointments/${id}/update/`, { start_time: start, idempotency_key: key }, { token: tokens.pedro })
    expect(await move(sp(WED, '13:00'), 'reschedule-key-number-1')).toMatchObject({ status: 200, json: { start_time: sp(WED, '13:00') } })
    const moved = (await subjectsTo(EMAILS.paula)).filter((subject) => subject.includes('remarcada'))
    expect(moved).toHaveLength(1)
    // The professional confirms it meanwhile; the repeat does not set it back to scheduled.
    await api.patch(`/appointments/${id}/status/`, { status: 'confirmed' }, { token: tokens.paula })
    expect(await move(sp(WED, '13:00'), 'reschedule-key-number-1')).toMatchObject({ status: 200, json: { start_time: sp(WED, '13:00'), status: 'confirmed' } })
    expect(await move(sp(THU, '13:00'), 'reschedule-key-number-1')).toMatchObject({ status: 200, json: { start_time: sp(WED, '13:00') } })
    expect((await subjectsTo(EMAILS.paula)).filter((subject) => subject.includes('remarcada'))).toHaveLength(1)
    // A new key is a new reschedule.
    expect(await move(sp(THU, '13:00'), 'reschedule-key-number-2')).toMatchObject({ status: 200, json: { start_time: sp(THU, '13:00'), status: 'scheduled' } })
  })
})

describe('GET /appointments/', () => {
  it('lists own appointments: upcoming soonest first, past (and cancelled) latest first; admins see all', async () => {
    const paulaTuesday = await booked('pedro', 'paula', sp(TUE, '08:00'))
    const paulaWednesday = await booked('pedro', 'paula', sp(WED, '08:00'))
    const rafaelTuesday = await booked('pedro', 'rafael', sp(TUE, '09:40'))
    const mariana = await booked('mariana', 'paula', sp(THU, '08:00'))
    time.set(Date.parse(sp(TUE, '09:00')))
    expect((await api.post(`/appointments/${rafaelTuesday}/cancel/`, {}, { token: tokens.pedro })).status).toBe(200)

    const ids = async (query: string, who: Person) => {
      const response = await api.get(`/appointments/${query}`, as(who))
      expect(response.status).toBe(200)
      return response.json.results.map((appointment: { id: number }) => appointment.id)
    }
    expect(await ids('?when=upcoming', 'pedro')).toEqual([paulaWednesday])
    expect(await ids('?when=past', 'pedro')).toEqual([rafaelTuesday, paulaTuesday])
    expect(await ids('', 'pedro')).toEqual([paulaWednesday, rafaelTuesday, paulaTuesday])
    expect(await ids('?when=upcoming', 'paula')).toEqual([paulaWednesday, mariana])
    expect(await ids('?when=past', 'rafael')).toEqual([rafaelTuesday])
    expect(await ids('?when=upcoming', 'mariana')).toEqual([mariana])
    expect(await ids('?when=upcoming', 'admin')).toEqual([paulaWednesday, mariana])
    expect(await ids('', 'lucas')).toEqual([])

    const page = await api.get('/appointments/?when=upcoming&page_size=1', { token: tokens.paula })
    expect(page.json).toMatchObject({ count: 2, previous: null, next: `${PUBLIC_URL}/appointments/?when=upcoming&page_size=1&page=2` })
    expect(page.json.results[0]).toMatchObject({ id: paulaWednesday, patient: { id: ID.pedro } })
    expect(await api.get('/appointments/?when=soon', { token: tokens.pedro })).toMatchObject({ status: 400, json: { when: ['"soon" is not a valid choice.'] } })
    expect((await api.get('/appointments/?page=9', { token: tokens.pedro })).status).toBe(404)
    expect((await api.get('/appointments/')).status).toBe(401)

    // A professional's (or an admin's) appointments with one patient; a patient's own list ignores it.
    expect(await ids(`?patient=${ID.pedro}`, 'paula')).toEqual([paulaWednesday, paulaTuesday])
    expect(await ids(`?patient=${ID.mariana}`, 'paula')).toEqual([mariana])
    expect(await ids(`?patient=${ID.pedro}`, 'admin')).toEqual([paulaWednesday, rafaelTuesday, paulaTuesday])
    expect(await ids(`?patient=${ID.mariana}`, 'pedro')).toEqual([paulaWednesday, rafaelTuesday, paulaTuesday])
    expect(await api.get('/appointments/?patient=abc', { token: tokens.paula })).toMatchObject({ status: 400, json: { patient: ['A valid integer is required.'] } })
  })
})

describe('GET /appointments/{id}/', () => {
  it('shows an appointment to its patient, its professional and admins only; to anyone else it does not exist (404)', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    for (const who of ['pedro', 'paula', 'admin'] as const) {
      expect(await api.get(`/appointments/${id}/`, as(who))).toMatchObject({ status: 200, json: { id, start_time: sp(TUE, '08:00') } })
    }
    for (const who of ['mariana', 'rafael'] as const) expect(await api.get(`/appointments/${id}/`, as(who))).toMatchObject(NOT_FOUND)
    expect((await api.get(`/appointments/${id}/`)).status).toBe(401)
    expect(await api.get('/appointments/999/', { token: tokens.pedro })).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    expect((await api.get('/appointments/99999999999/', { token: tokens.pedro })).status).toBe(400)
  })
})

describe('PATCH /appointments/{id}/update/', () => {
  const move = (id: number, body: unknown, who: Person = 'pedro') => api.patch(`/appointments/${id}/update/`, body, as(who))

  it('moves an appointment to another free time, back to scheduled', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    expect((await api.patch(`/appointments/${id}/status/`, { status: 'confirmed' }, { token: tokens.paula })).json.status).toBe('confirmed')
    const moved = await move(id, { start_time: sp(WED, '13:00'), notes: 'Mudei para quarta' })
    expect(moved).toMatchObject({ status: 200, json: { id, status: 'scheduled', start_time: sp(WED, '13:00'), end_time: sp(WED, '13:50'), notes: 'Mudei para quarta' } })
    // The old time is free again.
    expect((await book('mariana', 'paula', sp(TUE, '08:00'))).status).toBe(201)
  })

  it('counts its own old time as free', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    // 08:50 overlaps 08:00's buffer, but that is this appointment's own.
    expect(await move(id, { start_time: sp(TUE, '08:50') })).toMatchObject({ status: 200, json: { start_time: sp(TUE, '08:50'), notes: '' } })
    expect((await move(id, { start_time: sp(TUE, '08:50') })).status).toBe(200)
  })

  it('answers 409 with the nearest free times for a taken time, and field errors as create does', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    await booked('mariana', 'paula', sp(TUE, '13:00'))
    expect(await move(id, { start_time: sp(TUE, '13:00') })).toMatchObject({
      status: 409,
      json: { code: 'slot_taken', detail: 'This time is no longer available.', nearest: [sp(TUE, '14:40'), sp(TUE, '10:30'), sp(TUE, '15:30')] },
    })
    expect((await move(id, { start_time: sp(TUE, '12:30') })).json).toEqual({ start_time: [MESSAGES.outside] })
    expect((await move(id, { start_time: sp('2026-03-02', '08:00') })).json).toEqual({ start_time: [MESSAGES.past] })
    expect((await move(id, { start_time: sp('2026-03-02', '13:00') })).json).toEqual({ start_time: [MESSAGES.notice] })
    expect((await move(id, {})).json).toEqual({ start_time: ['This field is required.'] })
    expect((await api.get(`/appointments/${id}/`, { token: tokens.pedro })).json.start_time).toBe(sp(TUE, '08:00'))
  })

  it('is for the patient and admins, while the appointment is open', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    // Its professional may not move it (403); strangers do not see it (404).
    expect(await move(id, { start_time: sp(WED, '08:00') }, 'paula')).toMatchObject({ status: 403, json: FORBIDDEN })
    for (const who of ['mariana', 'rafael'] as const) expect(await move(id, { start_time: sp(WED, '08:00') }, who)).toMatchObject(NOT_FOUND)
    expect((await api.patch(`/appointments/${id}/update/`, { start_time: sp(WED, '08:00') })).status).toBe(401)
    expect((await move(999, { start_time: sp(WED, '08:00') })).status).toBe(404)
    expect(await move(id, { start_time: sp(WED, '08:00') }, 'admin')).toMatchObject({ status: 200, json: { start_time: sp(WED, '08:00') } })

    time.set(Date.parse(sp(WED, '08:10')))
    expect(await move(id, { start_time: sp(THU, '13:00') })).toMatchObject({ status: 400, json: { detail: 'This appointment has already started.' } })
    const other = await booked('pedro', 'rafael', sp(THU, '13:00'))
    await api.post(`/appointments/${other}/cancel/`, {}, { token: tokens.pedro })
    expect(await move(other, { start_time: sp(THU, '13:50') })).toMatchObject({ status: 400, json: { detail: 'This appointment is already cancelled.' } })
  })
})

describe('POST /appointments/{id}/cancel/', () => {
  const cancel = (id: number, who: Person, body: unknown = {}) => api.post(`/appointments/${id}/cancel/`, body, as(who))

  it('refunds in full when the patient cancels 24 h or more ahead, not later', async () => {
    const early = await booked('pedro', 'paula', sp(WED, '08:00'))
    const late = await booked('pedro', 'paula', sp(TUE, '13:00'))
    time.set(Date.parse(sp(TUE, '08:00'))) // exactly 24 h before `early`
    expect(await cancel(early, 'pedro', { reason: 'Viagem' })).toMatchObject({
      status: 200,
      json: { id: early, status: 'cancelled', cancelled_by: 'patient', refund: 'full', cancelled_at: sp(TUE, '08:00') },
    })
    expect(await cancel(late, 'pedro')).toMatchObject({ status: 200, json: { cancelled_by: 'patient', refund: 'none' } })
    const [row] = await database.db.select().from(appointments).where(eq(appointments.id, early))
    expect(row!.cancellationReason).toBe('Viagem')
  })

  it('refunds in full whenever the professional or an admin cancels', async () => {
    const byProfessional = await booked('pedro', 'paula', sp(TUE, '08:00'))
    const byAdmin = await booked('mariana', 'paula', sp(TUE, '09:40'))
    time.set(Date.parse(sp(TUE, '07:00')))
    expect(await cancel(byProfessional, 'paula')).toMatchObject({ status: 200, json: { cancelled_by: 'professional', refund: 'full' } })
    expect(await cancel(byAdmin, 'admin')).toMatchObject({ status: 200, json: { cancelled_by: 'admin', refund: 'full' } })
  })

  it('refuses cancelled, finished and started appointments, and strangers', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    for (const who of ['mariana', 'rafael'] as const) expect(await cancel(id, who)).toMatchObject(NOT_FOUND)
    expect((await api.post(`/appointments/${id}/cancel/`, {})).status).toBe(401)
    expect((await cancel(999, 'pedro')).status).toBe(404)
    expect(await cancel(id, 'pedro', { reason: 'x'.repeat(1001) })).toMatchObject({ status: 400, json: { reason: ['Ensure this field has no more than 1000 characters.'] } })
    expect((await cancel(id, 'pedro')).status).toBe(200)
    expect(await cancel(id, 'pedro')).toMatchObject({ status: 400, json: { detail: 'This appointment is already cancelled.' } })

    const started = await booked('pedro', 'paula', sp(WED, '08:00'))
    time.set(Date.parse(sp(WED, '08:00')))
    expect(await cancel(started, 'paula')).toMatchObject({ status: 400, json: { detail: 'This appointment has already started.' } })
    await api.patch(`/appointments/${started}/status/`, { status: 'completed' }, { token: tokens.paula })
    expect(await cancel(started, 'admin')).toMatchObject({ status: 400, json: { detail: 'This appointment has already taken place.' } })
  })
})

describe('DELETE /appointments/{id}/delete/', () => {
  it('is for admins only', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    for (const who of ['pedro', 'paula'] as const) expect(await del(`/appointments/${id}/delete/`, who)).toMatchObject({ status: 403, json: FORBIDDEN })
    expect((await del(`/appointments/${id}/delete/`)).status).toBe(401)
    expect((await del(`/appointments/${id}/delete/`, 'admin')).status).toBe(204)
    expect((await del(`/appointments/${id}/delete/`, 'admin')).status).toBe(404)
    expect((await api.get(`/appointments/${id}/`, { token: tokens.pedro })).status).toBe(404)
  })
})

describe('PATCH /appointments/{id}/status/', () => {
  const status = (id: number, body: unknown, who: Person = 'paula') => api.patch(`/appointments/${id}/status/`, body, as(who))

  it('confirms before the start; completes or marks no-show after it', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    expect(await status(id, { status: 'completed' })).toMatchObject({
      status: 400,
      json: { status: ['An appointment can be marked completed or no-show only after it starts.'] },
    })
    expect(await status(id, { status: 'confirmed' })).toMatchObject({ status: 200, json: { status: 'confirmed' } })
    time.set(Date.parse(sp(TUE, '08:00')))
    expect(await status(id, { status: 'confirmed' })).toMatchObject({ status: 400, json: { status: ['An appointment can be confirmed only before it starts.'] } })
    expect(await status(id, { status: 'no_show' })).toMatchObject({ status: 200, json: { status: 'no_show' } })
    expect(await status(id, { status: 'completed', shared_notes: 'Caminhar 20 minutos por dia.' }, 'admin')).toMatchObject({
      status: 200,
      json: { status: 'completed', shared_notes: 'Caminhar 20 minutos por dia.' },
    })
  })

  it('validates the status and the shared notes', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    expect((await status(id, { status: 'cancelled' })).json).toEqual({ status: ['"cancelled" is not a valid choice.'] })
    expect((await status(id, { status: 'scheduled' })).json).toEqual({ status: ['"scheduled" is not a valid choice.'] })
    expect((await status(id, { shared_notes: 'x'.repeat(5001) })).json).toEqual({ shared_notes: ['Ensure this field has no more than 5000 characters.'] })
    expect(await status(id, { shared_notes: 'Antes da consulta: diário do sono.' })).toMatchObject({ status: 200, json: { status: 'scheduled', shared_notes: 'Antes da consulta: diário do sono.' } })
    await api.post(`/appointments/${id}/cancel/`, {}, { token: tokens.pedro })
    expect((await status(id, { status: 'confirmed' })).json).toEqual({ status: ['A cancelled appointment cannot change status.'] })
  })

  it('keeps private notes that only the professional and admins read; the patient reads the shared ones', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    expect(await status(id, { private_notes: 'Sono fragmentado; rever em 4 semanas.', shared_notes: 'Diário do sono.' })).toMatchObject({
      status: 200,
      json: { private_notes: 'Sono fragmentado; rever em 4 semanas.', shared_notes: 'Diário do sono.' },
    })
    for (const who of ['paula', 'admin'] as const) expect((await api.get(`/appointments/${id}/`, as(who))).json.private_notes).toBe('Sono fragmentado; rever em 4 semanas.')
    const patientView = await api.get(`/appointments/${id}/`, as('pedro'))
    expect(patientView.json.shared_notes).toBe('Diário do sono.')
    expect(patientView.json).not.toHaveProperty('private_notes')
    expect((await api.get('/appointments/', as('pedro'))).json.results[0]).not.toHaveProperty('private_notes')
    expect((await api.get('/appointments/', as('paula'))).json.results[0].private_notes).toBe('Sono fragmentado; rever em 4 semanas.')
    expect(JSON.stringify((await api.get(`/appointments/${id}/consultation/`, as('pedro'))).json)).not.toContain('Sono fragmentado')
    expect((await status(id, { private_notes: 'x'.repeat(5001) })).json).toEqual({ private_notes: ['Ensure this field has no more than 5000 characters.'] })
  })

  it('is for the professional and admins', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    // Its patient may not (403); strangers do not see it (404).
    expect(await status(id, { status: 'confirmed' }, 'pedro')).toMatchObject({ status: 403, json: FORBIDDEN })
    for (const who of ['mariana', 'rafael'] as const) expect(await status(id, { status: 'confirmed' }, who)).toMatchObject(NOT_FOUND)
    expect((await api.patch(`/appointments/${id}/status/`, { status: 'confirmed' })).status).toBe(401)
    expect((await status(999, { status: 'confirmed' })).status).toBe(404)
  })
})

describe('GET /appointments/{id}/consultation/', () => {
  it('opens the room 10 minutes before the start until the end', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    await api.patch(`/appointments/${id}/status/`, { shared_notes: 'Traga seus exames.' }, { token: tokens.paula })
    const [row] = await database.db.select().from(appointments)
    const consultation = (who: Person = 'pedro') => api.get(`/appointments/${id}/consultation/`, as(who))
    const closed = { appointment_id: id, status: 'scheduled', opens_at: sp(TUE, '07:50'), closes_at: sp(TUE, '08:50'), is_open: false, meeting_link: null, shared_notes: 'Traga seus exames.' }

    time.set(Date.parse(sp(TUE, '07:49')))
    expect((await consultation()).json).toEqual(closed)
    time.set(Date.parse(sp(TUE, '07:50')))
    expect((await consultation()).json).toEqual({ ...closed, is_open: true, meeting_link: row!.meetingLink })
    expect((await consultation('paula')).json.meeting_link).toBe(row!.meetingLink)
    expect((await consultation('admin')).json.is_open).toBe(true)
    for (const who of ['mariana', 'rafael'] as const) expect(await consultation(who)).toMatchObject(NOT_FOUND)
    expect((await api.get(`/appointments/${id}/consultation/`)).status).toBe(401)
    expect((await api.get('/appointments/999/consultation/', { token: tokens.pedro })).status).toBe(404)
    time.set(Date.parse(sp(TUE, '08:50')))
    expect((await consultation()).json).toMatchObject({ is_open: false, meeting_link: null })
  })

  it('stays closed for a cancelled appointment', async () => {
    const id = await booked('pedro', 'paula', sp(TUE, '08:00'))
    await api.post(`/appointments/${id}/cancel/`, {}, { token: tokens.pedro })
    time.set(Date.parse(sp(TUE, '08:10')))
    expect((await api.get(`/appointments/${id}/consultation/`, { token: tokens.pedro })).json).toMatchObject({ status: 'cancelled', is_open: false, meeting_link: null })
  })
})

describe('GET /appointments/dashboard/', () => {
  it("shows the professional's local days, cancelled appointments included", async () => {
    // Sunday 22:00 in São Paulo is already Monday in UTC: it belongs to Sunday's column.
    await put(
      '/appointments/update-schedule/',
      {
        ...(await api.get('/appointments/current-schedule/', { token: tokens.paula })).json,
        exceptions: [{ date: '2026-03-08', slots: [{ start: '22:00', end: '23:00' }] }],
      },
      'paula',
    )
    const sunday = await booked('pedro', 'paula', sp('2026-03-08', '22:00'))
    expect(sunday).toBeGreaterThan(0)
    const tuesday = await booked('mariana', 'paula', sp(TUE, '08:00'))
    const cancelled = await booked('pedro', 'paula', sp(TUE, '13:00'))
    await api.post(`/appointments/${cancelled}/cancel/`, {}, { token: tokens.pedro })
    await booked('pedro', 'rafael', sp(TUE, '09:40'))
    await booked('pedro', 'paula', sp('2026-03-09', '08:00'))

    const week = await api.get('/appointments/dashboard/?start=2026-03-02&days=7', { token: tokens.paula })
    expect(week.status).toBe(200)
    expect(week.json).toMatchObject({ time_zone: 'America/Sao_Paulo', start: '2026-03-02', end: '2026-03-08' })
    expect(week.json.appointments.map((appointment: { id: number; status: string }) => [appointment.id, appointment.status])).toEqual([
      [tuesday, 'scheduled'],
      [cancelled, 'cancelled'],
      [sunday, 'scheduled'],
    ])
    expect(week.json.appointments[2].start_time).toBe('2026-03-09T01:00:00.000Z')
    const monday = await api.get('/appointments/dashboard/?start=2026-03-09&days=1', { token: tokens.paula })
    expect(monday.json.appointments.map((appointment: { start_time: string }) => appointment.start_time)).toEqual([sp('2026-03-09', '08:00')])
  })

  it('answers at most 500 appointments, the live ones first: a pile of cancelled bookings is what is left out', async () => {
    const tuesday = await booked('mariana', 'paula', sp(TUE, '08:00'))
    const wednesday = await booked('pedro', 'paula', sp('2026-03-04', '08:00'))
    // 700 cancelled bookings on Monday (each booking and cancellation leaves one), straight into the table.
    await database.db.execute(sql`INSERT INTO appointments (professional_id, patient_id, start_time, end_time, blocked_until, status, meeting_link)
      SELECT ${ID.paula}, ${ID.pedro}, ${sp('2026-03-02', '09:00')}::timestamptz, ${sp('2026-03-02', '09:50')}::timestamptz, ${sp('2026-03-02', '09:50')}::timestamptz, 'cancelled', 'https://meet.example/x' || n FROM generate_series(1, 700) n`)
    const week = await api.get('/appointments/dashboard/?start=2026-03-02&days=7', { token: tokens.paula })
    expect(week.json.truncated).toBe(true)
    expect(week.headers.get('cache-control')).toBe('private, no-store')
    expect(week.json.appointments).toHaveLength(500)
    const ids = week.json.appointments.map((appointment: { id: number }) => appointment.id)
    expect(ids).toEqual(expect.arrayContaining([tuesday, wednesday]))
    // Still in the order of the day: Monday's cancelled ones, then Tuesday, then Wednesday.
    expect(ids.slice(-2)).toEqual([tuesday, wednesday])
    expect((await api.get('/appointments/dashboard/?start=2026-03-03&days=7', { token: tokens.paula })).json).toMatchObject({ truncated: false, appointments: [{ id: tuesday }, { id: wednesday }] })
  })

  it('defaults to the seven days from today, in her time zone', async () => {
    await booked('pedro', 'ines', '2026-03-03T08:00:00.000Z')
    time.set(Date.parse('2026-03-03T00:30:00Z')) // already Tuesday in Lisbon, still Monday in São Paulo
    const ines = await api.get('/appointments/dashboard/', { token: tokens.ines })
    expect(ines.json).toMatchObject({ time_zone: 'Europe/Lisbon', start: TUE, end: '2026-03-09' })
    expect(ines.json.appointments).toHaveLength(1)
    expect((await api.get('/appointments/dashboard/', { token: tokens.paula })).json).toMatchObject({ start: '2026-03-02', end: '2026-03-08', appointments: [] })
  })

  it('validates the query and is for professionals only', async () => {
    const dashboard = (query: string, who: Person = 'paula') => api.get(`/appointments/dashboard/${query}`, as(who))
    expect((await dashboard('?days=0')).json).toEqual({ days: ['Ensure this value is greater than or equal to 1.'] })
    expect((await dashboard('?days=32')).json).toEqual({ days: ['Ensure this value is less than or equal to 31.'] })
    expect((await dashboard('?days=a&start=02/03/2026')).json).toEqual({
      start: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
      days: ['A valid integer is required.'],
    })
    for (const who of ['pedro', 'admin'] as const) expect(await dashboard('', who)).toMatchObject({ status: 403, json: FORBIDDEN })
    expect((await api.get('/appointments/dashboard/')).status).toBe(401)
  })

  it('answers 400, not 500, for a week beyond the years 2000-2100', async () => {
    const dashboard = (start: string) => api.get(`/appointments/dashboard/?start=${start}`, as('paula'))
    expect(await dashboard('0999-01-04')).toMatchObject({ status: 400, json: { start: ['Ensure this value is greater than or equal to 2000-01-01.'] } })
    expect(await dashboard('9999-12-27')).toMatchObject({ status: 400, json: { start: ['Ensure this value is less than or equal to 2100-12-31.'] } })
    expect(await dashboard('2100-12-27')).toMatchObject({ status: 200, json: { start: '2100-12-27', end: '2101-01-02' } })
  })
})

describe('schedule: GET /appointments/current-schedule/, PUT /appointments/update-schedule/', () => {
  const WEEKDAY = { enabled: true, slots: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }] }
  const SEEDED = {
    time_zone: 'America/Sao_Paulo',
    consultation_minutes: 50,
    buffer_minutes: 10,
    minimum_notice_hours: 12,
    horizon_days: 60,
    availability: {
      monday: WEEKDAY,
      tuesday: WEEKDAY,
      wednesday: WEEKDAY,
      thursday: WEEKDAY,
      friday: WEEKDAY,
      saturday: { enabled: true, slots: [{ start: '09:00', end: '12:00' }] },
      sunday: { enabled: false, slots: [] },
    },
    exceptions: [],
  }
  const schedule = async (who: Person = 'paula') => (await api.get('/appointments/current-schedule/', as(who))).json

  it('shows the seeded schedule', async () => {
    expect(await schedule()).toEqual(SEEDED)
    expect((await schedule('ines')).time_zone).toBe('Europe/Lisbon')
  })

  it('replaces the schedule whole and answers it', async () => {
    const next = {
      time_zone: 'America/Manaus',
      consultation_minutes: 30,
      buffer_minutes: 0,
      minimum_notice_hours: 2,
      horizon_days: 30,
      availability: { wednesday: { enabled: true, slots: [{ start: '14:00', end: '24:00' }, { start: '07:00', end: '09:00' }] } },
      exceptions: [
        { date: '2026-03-12', slots: [] },
        { date: '2026-03-10', slots: [{ start: '10:00', end: '11:00' }] },
      ],
    }
    const saved = await put('/appointments/update-schedule/', next, 'paula')
    const closedDay = { enabled: false, slots: [] }
    const expected = {
      ...next,
      availability: {
        monday: closedDay,
        tuesday: closedDay,
        wednesday: { enabled: true, slots: [{ start: '07:00', end: '09:00' }, { start: '14:00', end: '24:00' }] },
        thursday: closedDay,
        friday: closedDay,
        saturday: closedDay,
        sunday: closedDay,
      },
      exceptions: [next.exceptions[1], next.exceptions[0]],
    }
    expect(saved).toMatchObject({ status: 200, json: expected })
    expect(await schedule()).toEqual(expected)
    // The defaults of the contract fill what is left out.
    const minimal = await put('/appointments/update-schedule/', { time_zone: 'UTC', consultation_minutes: 60, availability: {} }, 'paula')
    expect(minimal.json).toMatchObject({ buffer_minutes: 0, minimum_notice_hours: 12, horizon_days: 60, exceptions: [] })
  })

  it('drives the free times: exceptions replace their day', async () => {
    const withExceptions = { ...SEEDED, exceptions: [{ date: TUE, slots: [] }, { date: WED, slots: [{ start: '10:00', end: '11:00' }] }] }
    expect((await put('/appointments/update-schedule/', withExceptions, 'paula')).status).toBe(200)
    const slots = async (date: string) =>
      (await api.get(`/appointments/calendar/availability/?professional_id=${ID.paula}&start=${date}&end=${date}`, { token: tokens.pedro })).json.slots.map(
        (slot: { start: string }) => slot.start,
      )
    expect(await slots(TUE)).toEqual([])
    expect(await slots(WED)).toEqual([sp(WED, '10:00')])
    expect(await slots(THU)).toHaveLength(10)
  })

  it('starts from a closed week for a professional without one, and publishes it once saved', async () => {
    await database.db.delete(professionalProfiles).where(eq(professionalProfiles.userId, ID.lucas))
    expect(await schedule('lucas')).toEqual({
      ...SEEDED,
      buffer_minutes: 0,
      availability: Object.fromEntries(Object.keys(SEEDED.availability).map((day) => [day, { enabled: false, slots: [] }])),
    })
    const directory = async () => (await api.get('/appointments/professionals/', { token: tokens.pedro })).json.map((professional: { id: number }) => professional.id)
    expect(await directory()).not.toContain(ID.lucas)
    expect((await put('/appointments/update-schedule/', SEEDED, 'lucas')).status).toBe(200)
    expect(await directory()).toContain(ID.lucas)
  })

  it('names every bad slot, nested like DRF, and changes nothing', async () => {
    const refused = async (body: unknown) => {
      const response = await put('/appointments/update-schedule/', body, 'paula')
      expect(response.status).toBe(400)
      expect(await schedule()).toEqual(SEEDED)
      return response.json
    }
    const monday = (slots: unknown) => ({ ...SEEDED, availability: { ...SEEDED.availability, monday: { enabled: true, slots } } })

    expect(await refused(monday([{ start: '8:00', end: '12:00' }, { start: '13:00', end: '24:30' }, { start: '24:00', end: '24:00' }]))).toEqual({
      availability: {
        monday: {
          slots: [{ start: ['Enter a time as HH:MM.'] }, { end: ['Enter a time as HH:MM.'] }, { start: ['Enter a time as HH:MM.'] }],
        },
      },
    })
    expect(await refused(monday([{ start: '08:00', end: '12:00' }, { start: '14:00', end: '13:00' }]))).toEqual({
      availability: { monday: { slots: [{}, { end: ['The end must be after the start.'] }] } },
    })
    expect(await refused(monday([{ start: '08:00', end: '12:00' }, { start: '12:00', end: '13:00' }, { start: '11:00', end: '12:30' }]))).toEqual({
      availability: {
        monday: {
          slots: [
            { non_field_errors: ['This slot overlaps another slot on the same day.'] },
            { non_field_errors: ['This slot overlaps another slot on the same day.'] },
            { non_field_errors: ['This slot overlaps another slot on the same day.'] },
          ],
        },
      },
    })
    expect(await refused(monday([{ start: '08:00' }, 'noon']))).toEqual({
      availability: { monday: { slots: [{ end: ['This field is required.'] }, { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] }] } },
    })
    const thirteen = Array.from({ length: 13 }, (_, hour) => ({ start: `${String(hour + 6).padStart(2, '0')}:00`, end: `${String(hour + 6).padStart(2, '0')}:30` }))
    expect(await refused(monday(thirteen))).toEqual({ availability: { monday: { slots: ['Ensure this field has no more than 12 elements.'] } } })
    expect(await refused({ ...SEEDED, availability: { ...SEEDED.availability, friday: { enabled: 'maybe', slots: [] } } })).toEqual({
      availability: { friday: { enabled: ['Must be a valid boolean.'] } },
    })
    expect(await refused({ ...SEEDED, availability: [] })).toEqual({ availability: ['Expected a dictionary of items but got type "list".'] })

    const exceptions = (list: unknown) => ({ ...SEEDED, exceptions: list })
    expect(
      await refused(
        exceptions([
          { date: '2026-03-10', slots: [] },
          { date: '2026-03-10', slots: [] },
          { date: '10/03/2026', slots: [{ start: '10:00', end: '09:00' }] },
          { date: '2026-03-11' },
        ]),
      ),
    ).toEqual({
      exceptions: [
        {},
        { date: ['Each date can have only one exception.'] },
        { date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'], slots: [{ end: ['The end must be after the start.'] }] },
        { slots: ['This field is required.'] },
      ],
    })
    const many = Array.from({ length: 101 }, (_, day) => ({ date: new Date(Date.UTC(2026, 3, 1) + day * DAY * 1000).toISOString().slice(0, 10), slots: [] }))
    expect(await refused(exceptions(many))).toEqual({ exceptions: ['Ensure this field has no more than 100 elements.'] })
    expect(await refused(exceptions([{ date: '0999-01-04', slots: [] }, { date: '9999-12-31', slots: [] }]))).toEqual({
      exceptions: [{ date: ['Ensure this value is greater than or equal to 2000-01-01.'] }, { date: ['Ensure this value is less than or equal to 2100-12-31.'] }],
    })

    expect(await refused({ ...SEEDED, time_zone: 'Brasil/Brasília', consultation_minutes: 10, buffer_minutes: 121, minimum_notice_hours: -1, horizon_days: 366 })).toEqual({
      time_zone: ['Enter a valid time zone.'],
      consultation_minutes: ['Ensure this value is greater than or equal to 15.'],
      buffer_minutes: ['Ensure this value is less than or equal to 120.'],
      minimum_notice_hours: ['Ensure this value is greater than or equal to 0.'],
      horizon_days: ['Ensure this value is less than or equal to 365.'],
    })
    expect(await refused({})).toEqual({
      time_zone: ['This field is required.'],
      consultation_minutes: ['This field is required.'],
      availability: ['This field is required.'],
    })
  })

  it('is for professionals only', async () => {
    for (const who of ['pedro', 'admin'] as const) {
      expect(await api.get('/appointments/current-schedule/', as(who))).toMatchObject({ status: 403, json: FORBIDDEN })
      expect(await put('/appointments/update-schedule/', SEEDED, who)).toMatchObject({ status: 403, json: FORBIDDEN })
    }
    expect((await api.get('/appointments/current-schedule/')).status).toBe(401)
    expect((await put('/appointments/update-schedule/', SEEDED)).status).toBe(401)
    expect((await api.post('/appointments/update-schedule/', SEEDED, { token: tokens.paula })).status).toBe(405)
  })
})

/**
 * Ten bookings of one time at once, through two provider apps sharing the database (two
 * processes): exactly one wins, the others hear 409 slot_taken. The database's exclusion
 * constraint decides, not the apps' own check.
 */
function raceSuite(kind: 'pglite' | 'postgres', open: () => Promise<{ db: Database; dispose(): Promise<void> }>) {
  let db: Database
  let dispose: () => Promise<void>
  beforeAll(async () => {
    ;({ db, dispose } = await open())
    await freeConsultations(db)
  })
  afterAll(() => dispose())

  it('refuses an overlapping live appointment in the database itself', async () => {
    const values = (start: string, end: string, status: 'scheduled' | 'cancelled' = 'scheduled') => ({
      professionalId: ID.rafael,
      patientId: ID.pedro,
      startTime: new Date(start),
      endTime: new Date(end),
      blockedUntil: new Date(end),
      status,
      meetingLink: 'https://meet.jit.si/innera-test',
    })
    await db.insert(appointments).values(values('2026-04-01T10:00:00Z', '2026-04-01T11:00:00Z'))
    const error = await db
      .insert(appointments)
      .values(values('2026-04-01T10:30:00Z', '2026-04-01T11:30:00Z'))
      .then(
        () => undefined,
        (caught: unknown) => caught,
      )
    expect(isExclusionViolation(error, 'appointments_no_overlap')).toBe(true)
    // Touching is not overlapping, and cancelled appointments do not count.
    await db.insert(appointments).values(values('2026-04-01T11:00:00Z', '2026-04-01T12:00:00Z'))
    await db.insert(appointments).values(values('2026-04-01T10:30:00Z', '2026-04-01T11:30:00Z', 'cancelled'))
    await db.execute(sql`delete from ${appointments}`)
  })

  it('lets exactly one of ten simultaneous bookings of one time through', async () => {
    const processes = [client(testApp(db, { clock: time.clock, env: ENV })), client(testApp(db, { clock: time.clock, env: ENV }))]
    const patients = [await processes[0]!.login(EMAILS.pedro), await processes[1]!.login(EMAILS.mariana)]
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        processes[index % 2]!.post('/appointments/create/', { professional_id: ID.paula, start_time: sp(TUE, '08:00') }, { token: patients[index % 2]!.access }),
      ),
    )
    expect(responses.map((response) => response.status).sort()).toEqual([201, ...Array(9).fill(409)])
    for (const response of responses.filter((response) => response.status === 409)) {
      expect(response.json).toMatchObject({ code: 'slot_taken', detail: 'This time is no longer available.' })
      expect(response.json.nearest[0]).toBe(sp(TUE, '09:40'))
    }
    const rows = await db.select().from(appointments)
    expect(rows).toHaveLength(1)
    await db.execute(sql`delete from ${appointments}`)
  })

  it('lets no patient past the limit with ten bookings at once through two processes', async () => {
    const processes = [client(testApp(db, { clock: time.clock, env: ENV })), client(testApp(db, { clock: time.clock, env: ENV }))]
    const patient = await processes[0]!.login(EMAILS.pedro)
    const responses = await Promise.all(
      TEN_TIMES.map((start, index) => processes[index % 2]!.post('/appointments/create/', { professional_id: ID.paula, start_time: start }, { token: patient.access })),
    )
    expect(responses.map((response) => response.status).sort()).toEqual([...Array(4).fill(201), ...Array(6).fill(409)])
    for (const response of responses.filter((response) => response.status === 409)) expect(response.json).toMatchObject({ code: 'upcoming_limit', scope: 'professional' })
    expect(await db.select().from(appointments)).toHaveLength(4)
    await db.execute(sql`delete from ${appointments}`)
  })

  it('lets no patient past the limit in all with bookings of four professionals at once through two processes', async () => {
    // The professionals' locks do not order these: the patient's lock must.
    const env = { ...ENV, BOOKING_MAX_UPCOMING: '4' }
    const processes = [client(testApp(db, { clock: time.clock, env })), client(testApp(db, { clock: time.clock, env }))]
    const patient = await processes[0]!.login(EMAILS.pedro)
    const starts: [Person, string][] = [
      ...(['paula', 'rafael', 'lucas'] as const).flatMap((professional) => [sp(WED, '13:00'), sp(WED, '14:40')].map((start): [Person, string] => [professional, start])),
      ['ines', '2026-03-04T13:00:00.000Z'],
      ['ines', '2026-03-04T14:40:00.000Z'],
    ]
    const responses = await Promise.all(
      starts.map(([professional, start], index) => processes[index % 2]!.post('/appointments/create/', { professional_id: ID[professional], start_time: start }, { token: patient.access })),
    )
    expect(responses.map((response) => response.status).sort()).toEqual([...Array(4).fill(201), ...Array(4).fill(409)])
    for (const response of responses.filter((response) => response.status === 409)) expect(response.json).toMatchObject({ code: 'upcoming_limit', scope: 'total', limit: 4 })
    expect(await db.select().from(appointments)).toHaveLength(4)
    await db.execute(sql`delete from ${appointments}`)
  })

  it('answers one appointment to the same key sent ten times at once through two processes (the first still in flight)', async () => {
    const processes = [client(testApp(db, { clock: time.clock, env: ENV })), client(testApp(db, { clock: time.clock, env: ENV }))]
    const patient = await processes[0]!.login(EMAILS.pedro)
    const body = { professional_id: ID.paula, start_time: sp(TUE, '08:00'), idempotency_key: 'one-key-sent-ten-times' }
    const responses = await Promise.all(Array.from({ length: 10 }, (_, index) => processes[index % 2]!.post('/appointments/create/', body, { token: patient.access })))
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201])
    expect(new Set(responses.map((response) => response.json.id)).size).toBe(1)
    expect(await db.select().from(appointments)).toHaveLength(1)
    await db.execute(sql`delete from ${appointments}`)
  })

  it('moves once for one reschedule key sent five times at once', async () => {
    const processes = [client(testApp(db, { clock: time.clock, env: ENV })), client(testApp(db, { clock: time.clock, env: ENV }))]
    const patient = await processes[0]!.login(EMAILS.pedro)
    const created = await processes[0]!.post('/appointments/create/', { professional_id: ID.paula, start_time: sp(TUE, '08:00') }, { token: patient.access })
    // Past the confirmation's hold, so each notice is a message of its own.
    time.set(NOW + 3 * 60_000)
    const before = Math.max(0, ...(await db.select({ id: outbox.id }).from(outbox)).map((row) => row.id))
    const body = { start_time: sp(WED, '13:00'), idempotency_key: 'one-reschedule-five-times' }
    const responses = await Promise.all(Array.from({ length: 5 }, (_, index) => processes[index % 2]!.patch(`/appointments/${created.json.id}/update/`, body, { token: patient.access })))
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200])
    expect(responses.every((response) => response.json.start_time === sp(WED, '13:00'))).toBe(true)
    // One notice to each of the two people.
    const notices = (await db.select().from(outbox)).filter((mail) => mail.id > before && mail.subject.includes('remarcada'))
    expect(notices.map((mail) => mail.to).sort()).toEqual([EMAILS.pedro, EMAILS.paula].sort())
    await db.execute(sql`delete from ${appointments}`)
  })

  // On PostgreSQL the inserts are made to wait behind a table lock until every request has passed
  // the app's own check (reads are not blocked): the exclusion constraint alone must then refuse
  // nine of them. (PGlite has one connection, so nothing can wait behind a lock there.)
  it.skipIf(kind === 'pglite')('refuses through the constraint when every check passed before any insert', async () => {
    // What went wrong, should a request fail: the assertion then names it.
    const logged: string[] = []
    const log = (entry: { level: string }) => void (entry.level === 'error' && logged.push(JSON.stringify(entry)))
    const processes = [client(testApp(db, { clock: time.clock, env: ENV, log })), client(testApp(db, { clock: time.clock, env: ENV, log }))]
    const patients = [await processes[0]!.login(EMAILS.pedro), await processes[1]!.login(EMAILS.mariana)]
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let locked!: () => void
    const isLocked = new Promise<void>((resolve) => (locked = resolve))
    const holder = db.transaction(async (tx) => {
      await tx.execute(sql`lock table ${appointments} in exclusive mode`)
      locked()
      await released
    })
    await isLocked
    const pending = Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        processes[index % 2]!.post('/appointments/create/', { professional_id: ID.paula, start_time: sp(TUE, '09:40') }, { token: patients[index % 2]!.access }),
      ),
    )
    // The pool holds 10 connections and the lock takes one: nine inserts can wait at once. They
    // are watched from a connection of its own (the pool's are all busy).
    // The first insert waits for the table; the others wait their turn behind it (the
    // professional's bookings lock, decision 0023) or, without it, at the insert.
    const watcher = await watchLockWaits(['insert into "appointments"%', '%pg_advisory_xact_lock%'])
    let waiting = 0
    try {
      waiting = await watcher.until(9)
    } finally {
      await watcher.end()
      release()
      await holder
    }
    expect(waiting).toBe(9)
    const responses = await pending
    expect(responses.map((response) => response.status).sort(), logged.join('\n')).toEqual([201, ...Array(9).fill(409)])
    expect(responses.filter((response) => response.status === 409).every((response) => response.json.code === 'slot_taken')).toBe(true)
    expect(await db.select().from(appointments)).toHaveLength(1)
  })
}

describe('double booking race: PGlite (embedded)', () => {
  raceSuite('pglite', async () => {
    const handle = await createMemoryDatabase()
    return { db: handle.db, dispose: () => handle.close() }
  })
})

const postgres = await createPostgresDatabase()
if ('unavailable' in postgres) {
  console.warn(`[provider] PostgreSQL double-booking race skipped: ${postgres.unavailable}. Set TEST_DATABASE_URL to run it.`)
  describe.skip(`double booking race: PostgreSQL (skipped: ${postgres.unavailable})`, () => {
    it('needs TEST_DATABASE_URL', () => undefined)
  })
} else {
  describe('double booking race: PostgreSQL (DATABASE_URL)', () => {
    raceSuite('postgres', async () => ({ db: postgres.handle.db, dispose: postgres.drop }))
  })
}
