import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { DatabaseHandle } from '#server/db/client.ts'
import { databaseError } from '#server/db/errors.ts'
import { scheduledMessages, users } from '#server/db/schema.ts'
import { reminderTick } from '#server/jobs.ts'
import { client, createMemoryDatabase, createPostgresDatabase, fakeClock, resetDatabase, testApp } from '#server/testing/harness.ts'
import { scheduledMessagesOf } from './reminders'

/**
 * Confirmations and reminders (issue 12): scheduled at booking, each sent exactly once even with
 * two provider processes ticking at the same moment or after a restart, cancelled with the
 * appointment, moved with it, written in each recipient's time zone, and free of health details.
 * The same checks run on PGlite and, with TEST_DATABASE_URL, on PostgreSQL with two connection
 * pools (two processes) on one schema.
 */

// Monday 2026-03-02, 09:00 in São Paulo (UTC-3).
const NOW = Date.parse('2026-03-02T12:00:00Z')
const MINUTE = 60
const HOUR = 3600
const DAY = 24 * HOUR
const ENV = { ACCESS_TOKEN_LIFETIME: String(365 * DAY), REFRESH_TOKEN_LIFETIME: String(365 * DAY) }
const PEDRO = 'paciente@innera.local'
const PAULA = 'profissional@innera.local'
const PAULA_ID = 2
const PEDRO_ID = 4

/** A wall time in São Paulo (UTC-3 all year) as a UTC instant string. */
const sp = (date: string, time: string) => new Date(`${date}T${time}:00-03:00`).toISOString()
// Wednesday 2026-03-04 08:00 in São Paulo = 11:00 UTC.
const WED_8 = sp('2026-03-04', '08:00')
const at = (iso: string, offsetSeconds = 0) => Date.parse(iso) + offsetSeconds * 1000

type Mail = { subject: string; text: string; html: string }

function remindersSuite(open: () => Promise<{ first: DatabaseHandle; second: DatabaseHandle; dispose(): Promise<void> }>) {
  let first: DatabaseHandle
  let second: DatabaseHandle
  let dispose: () => Promise<void>
  const time = fakeClock(NOW)
  // Two provider processes: on PostgreSQL each has its own pool; on PGlite they share the one database.
  let appA: ProviderApp
  let appB: ProviderApp
  let api: ReturnType<typeof client>
  const tokens: Record<string, string> = {}

  beforeAll(async () => {
    ;({ first, second, dispose } = await open())
    appA = testApp(first.db, { clock: time.clock, env: ENV })
    appB = testApp(second.db, { clock: time.clock, env: ENV })
    api = client(appA)
    for (const email of [PEDRO, PAULA, 'admin@innera.local']) tokens[email] = (await api.login(email)).access
  })
  afterAll(() => dispose())
  beforeEach(async () => {
    time.set(NOW)
    await resetDatabase(first.db)
  })

  async function book(start: string, notes = ''): Promise<number> {
    const response = await api.post('/appointments/create/', { professional_id: PAULA_ID, start_time: start, notes }, { token: tokens[PEDRO] })
    if (response.status !== 201) throw new Error(`booking failed: ${response.status} ${response.text}`)
    return response.json.id
  }

  const mailTo = async (email: string): Promise<Mail[]> => (await api.mailTo(email)) as Mail[]
  const subjects = async (email: string) => (await mailTo(email)).map((mail) => mail.subject).reverse()
  /** Both processes tick at the same moment, as their timers would. */
  const tickBoth = () => Promise.all([reminderTick(appA.services), reminderTick(appB.services)])

  it('books: the confirmation goes to both people at once; the reminders wait for 24 h and 1 h before', async () => {
    const id = await book(WED_8)
    expect(await subjects(PEDRO)).toEqual(['Consulta Innera com Paula agendada para 4/03 às 08:00'])
    expect(await subjects(PAULA)).toEqual(['Consulta Innera com Pedro agendada para 4/03 às 08:00'])
    const rows = await scheduledMessagesOf(first.db, id)
    expect(rows.map((row) => [row.kind, row.recipient, row.dueAt.toISOString(), row.status])).toEqual([
      ['confirmation', 'patient', new Date(NOW).toISOString(), 'sent'],
      ['confirmation', 'professional', new Date(NOW).toISOString(), 'sent'],
      ['reminder_24h', 'patient', '2026-03-03T11:00:00.000Z', 'pending'],
      ['reminder_24h', 'professional', '2026-03-03T11:00:00.000Z', 'pending'],
      ['reminder_1h', 'patient', '2026-03-04T10:00:00.000Z', 'pending'],
      ['reminder_1h', 'professional', '2026-03-04T10:00:00.000Z', 'pending'],
    ])
    // Nothing is due yet: a tick sends nothing more.
    expect(await tickBoth()).toEqual([{ sent: 0, skipped: 0 }, { sent: 0, skipped: 0 }])
  })

  it('sends each reminder exactly once when two processes tick together, again and again', async () => {
    await book(WED_8)
    time.set(at(WED_8, -DAY))
    const [a, b] = await tickBoth()
    // The two processes share the two 24-hour reminders between them, however they raced.
    expect(a.sent + b.sent).toBe(2)
    await tickBoth()
    await tickBoth()
    time.set(at(WED_8, -HOUR + 5 * MINUTE))
    const repeated = await Promise.all([...Array.from({ length: 3 }, () => reminderTick(appA.services)), ...Array.from({ length: 3 }, () => reminderTick(appB.services))])
    expect(repeated.reduce((sum, report) => sum + report.sent, 0)).toBe(2)
    time.set(at(WED_8, 2 * HOUR))
    await tickBoth()
    expect(await subjects(PEDRO)).toEqual([
      'Consulta Innera com Paula agendada para 4/03 às 08:00',
      'Lembrete: Consulta Innera com Paula em 4/03 às 08:00',
      'Sua Consulta Innera com Paula começa às 08:00',
    ])
    expect(await subjects(PAULA)).toEqual([
      'Consulta Innera com Pedro agendada para 4/03 às 08:00',
      'Lembrete: Consulta Innera com Pedro em 4/03 às 08:00',
      'Sua Consulta Innera com Pedro começa às 08:00',
    ])
  })

  it('sends what came due while no process ran, once, after a restart; a reminder whose moment is gone is skipped', async () => {
    const id = await book(WED_8)
    // Every process was down from before the 24-hour reminder until 30 minutes before the start.
    time.set(at(WED_8, -30 * MINUTE))
    const restarted = testApp(second.db, { clock: time.clock, env: ENV })
    const [afterRestart, other] = await Promise.all([reminderTick(restarted.services), reminderTick(appA.services)])
    // The 1-hour reminders go; the 24-hour ones, an hour from the start, would only confuse.
    expect(afterRestart.sent + other.sent).toBe(2)
    expect(afterRestart.skipped + other.skipped).toBe(2)
    expect(await subjects(PEDRO)).toEqual(['Consulta Innera com Paula agendada para 4/03 às 08:00', 'Sua Consulta Innera com Paula começa às 08:00'])
    const statuses = (await scheduledMessagesOf(first.db, id)).map((row) => `${row.kind}:${row.status}`)
    expect(statuses).toEqual(['confirmation:sent', 'confirmation:sent', 'reminder_24h:skipped', 'reminder_24h:skipped', 'reminder_1h:sent', 'reminder_1h:sent'])
  })

  it('does not schedule a reminder whose moment has passed at booking', async () => {
    // Tuesday 2026-03-03 08:00 in São Paulo: 23 hours ahead (the notice is 12 hours).
    const id = await book(sp('2026-03-03', '08:00'))
    expect((await scheduledMessagesOf(first.db, id)).map((row) => row.kind)).toEqual(['confirmation', 'confirmation', 'reminder_1h', 'reminder_1h'])
  })

  it('cancelling cancels the pending reminders and tells both people', async () => {
    const id = await book(WED_8)
    const cancelled = await api.post(`/appointments/${id}/cancel/`, { reason: 'Imprevisto' }, { token: tokens[PAULA] })
    expect(cancelled.status).toBe(200)
    const statuses = (await scheduledMessagesOf(first.db, id)).map((row) => `${row.kind}:${row.status}`)
    expect(statuses).toEqual(['confirmation:sent', 'confirmation:sent', 'reminder_24h:cancelled', 'reminder_24h:cancelled', 'reminder_1h:cancelled', 'reminder_1h:cancelled'])
    for (const moment of [at(WED_8, -DAY), at(WED_8, -HOUR)]) {
      time.set(moment)
      expect(await tickBoth()).toEqual([{ sent: 0, skipped: 0 }, { sent: 0, skipped: 0 }])
    }
    expect(await subjects(PEDRO)).toEqual(['Consulta Innera com Paula agendada para 4/03 às 08:00', 'Consulta Innera com Paula cancelada'])
    expect(await subjects(PAULA)).toEqual(['Consulta Innera com Pedro agendada para 4/03 às 08:00', 'Consulta Innera com Pedro cancelada'])
    const [notice] = await mailTo(PEDRO)
    expect(notice!.text).toContain('Sua Consulta Innera com Paula, marcada para quarta-feira, 4 de março de 2026 às 08:00 (Horário Padrão de Brasília), foi cancelada.')
    expect(notice!.text).toContain(`http://app.test/consultas/${id}`)
    // A second cancel is refused, and tells nobody anything.
    expect((await api.post(`/appointments/${id}/cancel/`, {}, { token: tokens[PEDRO] })).status).toBe(400)
    expect(await subjects(PEDRO)).toHaveLength(2)
  })

  it('moving moves the reminders (even one already sent) and tells both people, old and new time', async () => {
    const id = await book(WED_8)
    // The 24-hour reminder for Wednesday goes out on Tuesday...
    time.set(at(WED_8, -DAY))
    await tickBoth()
    // ...then the patient moves it to Friday 2026-03-06 10:30 in São Paulo (13:30 UTC).
    time.set(at(WED_8, -20 * HOUR))
    const friday = sp('2026-03-06', '10:30')
    const moved = await api.patch(`/appointments/${id}/update/`, { start_time: friday }, { token: tokens[PEDRO] })
    expect(moved.status).toBe(200)
    const rows = await scheduledMessagesOf(first.db, id)
    expect(rows.filter((row) => row.kind !== 'confirmation').map((row) => [row.kind, row.dueAt.toISOString(), row.status])).toEqual([
      ['reminder_24h', '2026-03-05T13:30:00.000Z', 'pending'],
      ['reminder_24h', '2026-03-05T13:30:00.000Z', 'pending'],
      ['reminder_1h', '2026-03-06T12:30:00.000Z', 'pending'],
      ['reminder_1h', '2026-03-06T12:30:00.000Z', 'pending'],
    ])
    const [notice] = await mailTo(PAULA)
    expect(notice!.subject).toBe('Consulta Innera com Pedro remarcada para 6/03 às 10:30')
    expect(notice!.text).toContain(
      'foi remarcada de quarta-feira, 4 de março de 2026 às 08:00 (Horário Padrão de Brasília) para sexta-feira, 6 de março de 2026 às 10:30 (Horário Padrão de Brasília).',
    )
    // The old times send nothing; the new ones send once, with the new time.
    for (const moment of [at(WED_8, -HOUR), at(WED_8, HOUR)]) {
      time.set(moment)
      expect((await tickBoth()).reduce((sum, report) => sum + report.sent, 0)).toBe(0)
    }
    time.set(at(friday, -DAY))
    await tickBoth()
    time.set(at(friday, -HOUR))
    await tickBoth()
    await tickBoth()
    expect(await subjects(PEDRO)).toEqual([
      'Consulta Innera com Paula agendada para 4/03 às 08:00',
      'Lembrete: Consulta Innera com Paula em 4/03 às 08:00',
      'Consulta Innera com Paula remarcada para 6/03 às 10:30',
      'Lembrete: Consulta Innera com Paula em 6/03 às 10:30',
      'Sua Consulta Innera com Paula começa às 10:30',
    ])
  })

  it('moving into the last 24 hours skips the 24-hour reminder', async () => {
    const id = await book(WED_8)
    time.set(at(WED_8, -DAY - 13 * HOUR))
    // Tuesday 2026-03-03 13:00 in São Paulo: 18 hours ahead of the clock now.
    const moved = await api.patch(`/appointments/${id}/update/`, { start_time: sp('2026-03-03', '13:00') }, { token: tokens[PEDRO] })
    expect(moved.status).toBe(200)
    const statuses = (await scheduledMessagesOf(first.db, id)).filter((row) => row.kind !== 'confirmation').map((row) => `${row.kind}:${row.status}`)
    expect(statuses.sort()).toEqual(['reminder_1h:pending', 'reminder_1h:pending', 'reminder_24h:skipped', 'reminder_24h:skipped'])
  })

  it("writes the professional's messages in the zone of their schedule, not their account's", async () => {
    // Paula's account says Lisbon (she travels); her schedule, and so her agenda, is in São Paulo.
    await first.db.update(users).set({ timeZone: 'Europe/Lisbon' }).where(eq(users.id, PAULA_ID))
    await book(WED_8)
    await tickBoth()
    const [paulaConfirmation] = await mailTo(PAULA)
    expect(paulaConfirmation!.subject).toBe('Consulta Innera com Pedro agendada para 4/03 às 08:00')
  })

  it("writes each person's message in their own time zone, with the other's first name and no health details", async () => {
    await first.db.update(users).set({ timeZone: 'Europe/Lisbon' }).where(eq(users.id, PEDRO_ID))
    const id = await book(WED_8, 'Insônia e ansiedade há meses')
    time.set(at(WED_8, -HOUR))
    await tickBoth()
    const [pedroReminder, pedroConfirmation] = await mailTo(PEDRO)
    const [paulaReminder, paulaConfirmation] = await mailTo(PAULA)
    // 08:00 in São Paulo is 11:00 in Lisbon.
    expect(pedroConfirmation!.subject).toBe('Consulta Innera com Paula agendada para 4/03 às 11:00')
    expect(pedroConfirmation!.text).toContain('Olá, Pedro!')
    expect(pedroConfirmation!.text).toContain('quarta-feira, 4 de março de 2026 às 11:00 (Horário Padrão da Europa Ocidental)')
    expect(pedroReminder!.subject).toBe('Sua Consulta Innera com Paula começa às 11:00')
    expect(paulaConfirmation!.text).toContain('Sua Consulta Innera com Pedro está agendada para quarta-feira, 4 de março de 2026 às 08:00 (Horário Padrão de Brasília).')
    expect(paulaReminder!.subject).toBe('Sua Consulta Innera com Pedro começa às 08:00')
    for (const mail of [pedroReminder!, pedroConfirmation!, paulaReminder!, paulaConfirmation!]) {
      expect(mail.text).toContain(`\nhttp://app.test/consultas/${id}\n`)
      expect(mail.html).toContain(`href="http://app.test/consultas/${id}"`)
      const everything = `${mail.subject}\n${mail.text}\n${mail.html}`
      // Neither the patient's notes, nor surnames, nor the profession, nor the meeting room.
      for (const detail of ['Insônia', 'ansiedade', 'Santos', 'Ribeiro', 'Medicina', 'estilo de vida', 'meet.jit.si']) expect(everything).not.toContain(detail)
    }
  })

  it('refuses a second row for the same appointment, kind and recipient (a unique index)', async () => {
    const id = await book(WED_8)
    const duplicate = first.db.insert(scheduledMessages).values({ appointmentId: id, kind: 'reminder_1h', recipient: 'patient', dueAt: new Date(NOW) })
    const failure = await duplicate.then(() => undefined, (error: unknown) => error)
    expect(databaseError(failure)?.code).toBe('23505')
  })
}

describe('PGlite: two provider apps on one embedded database', () => {
  remindersSuite(async () => {
    const handle = await createMemoryDatabase()
    return { first: handle, second: handle, dispose: () => handle.close() }
  })
})

const postgres = await createPostgresDatabase()
if ('unavailable' in postgres) {
  console.warn(`[provider] PostgreSQL reminder tests skipped: ${postgres.unavailable}. Set TEST_DATABASE_URL to run them.`)
  describe.skip(`PostgreSQL: two processes (skipped: ${postgres.unavailable})`, () => {
    it('needs TEST_DATABASE_URL', () => undefined)
  })
} else {
  describe('PostgreSQL: two provider processes (two pools) on one database', () => {
    remindersSuite(async () => {
      const second = await postgres.openAnother()
      return {
        first: postgres.handle,
        second,
        async dispose() {
          await second.close()
          await postgres.drop()
        },
      }
    })
  })
}
