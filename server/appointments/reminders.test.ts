import { asc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { DatabaseHandle } from '#server/db/client.ts'
import { databaseError } from '#server/db/errors.ts'
import { outbox, scheduledMessages, users } from '#server/db/schema.ts'
import { reminderTick } from '#server/jobs.ts'
import type { LogEntry } from '#server/log.ts'
import { deliverOutbox, type MailSender, type OutgoingMail } from '#server/mail/delivery.ts'
import { client, createMemoryDatabase, describeOnPostgres, fakeClock, resetDatabase, testApp, watchLockWaits, freeConsultations } from '#server/testing/harness.ts'
import { scheduledMessagesOf } from '#server/appointments/reminders.ts'

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

/**
 * On PostgreSQL: holds the outbox table locked until `count` other sessions wait for a lock (the
 * table, or an advisory lock), then lets them go on `release()`.
 */
async function holdOutboxUntilWaiting(handle: DatabaseHandle, count: number) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let locked!: () => void
  const isLocked = new Promise<void>((resolve) => (locked = resolve))
  const holder = handle.db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${outbox} in exclusive mode`)
    locked()
    await released
  })
  await isLocked
  return {
    async release() {
      const watcher = await watchLockWaits(['%"outbox"%', '%pg_advisory_xact_lock%'])
      try {
        expect(await watcher.until(count)).toBeGreaterThanOrEqual(count)
      } finally {
        await watcher.end()
        release()
        await holder
      }
    },
  }
}

function remindersSuite(kind: 'pglite' | 'postgres', open: () => Promise<{ first: DatabaseHandle; second: DatabaseHandle; dispose(): Promise<void> }>) {
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
    await freeConsultations(first.db)
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
    // Past the confirmation's hold: it is no longer open to collapsing with the notice.
    time.set(NOW + 3 * MINUTE * 1000)
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

  // Issue 22, finding 4: 30 reschedules in 4 s sent 30 "remarcada" e-mails to each person.
  describe('collapsing and bounding appointment mail', () => {
    const SECOND = 1000
    const HOLD = 2 * MINUTE * SECOND
    const move = (id: number, start: string, token = tokens[PEDRO]!, via = api) => via.patch(`/appointments/${id}/update/`, { start_time: start }, { token })
    const FRI_1030 = sp('2026-03-06', '10:30')
    const THU_13 = sp('2026-03-05', '13:00')

    /** A sender that keeps what it was given (the SMTP side is delivery.test.ts's). */
    function fakeSender(): MailSender & { sent: OutgoingMail[] } {
      const sent: OutgoingMail[] = []
      return { sent, send: async (mail) => void sent.push(mail), secrets: [], description: 'smtp://fake', domain: 'innera.local', close: () => undefined }
    }

    it('messages about one appointment within the hold collapse into one: the booking at its latest time', async () => {
      const id = await book(WED_8)
      time.set(NOW + 10 * SECOND)
      expect((await move(id, FRI_1030)).status).toBe(200)
      time.set(NOW + 20 * SECOND)
      expect((await move(id, THU_13)).status).toBe(200)
      // Neither person ever heard of Wednesday or Friday: one message each, the booking on Thursday.
      expect(await subjects(PEDRO)).toEqual(['Consulta Innera com Paula agendada para 5/03 às 13:00'])
      expect(await subjects(PAULA)).toEqual(['Consulta Innera com Pedro agendada para 5/03 às 13:00'])
      const [pedro] = await mailTo(PEDRO)
      expect(pedro!.text).toContain('está agendada para quinta-feira, 5 de março de 2026 às 13:00')
      // A cancellation within the hold is the last word.
      time.set(NOW + 30 * SECOND)
      expect((await api.post(`/appointments/${id}/cancel/`, {}, { token: tokens[PEDRO] })).status).toBe(200)
      expect(await subjects(PEDRO)).toEqual(['Consulta Innera com Paula cancelada'])
      expect(await subjects(PAULA)).toEqual(['Consulta Innera com Pedro cancelada'])
    })

    it('thirty reschedules in a few seconds tell each person once, from where they last knew it to the latest time', async () => {
      const id = await book(WED_8)
      time.set(NOW + HOLD + SECOND)
      for (let index = 0; index < 30; index += 1) {
        time.set(NOW + HOLD + (index + 2) * 100)
        expect((await move(id, index % 2 === 0 ? FRI_1030 : THU_13)).status).toBe(200)
      }
      expect(await subjects(PAULA)).toEqual(['Consulta Innera com Pedro agendada para 4/03 às 08:00', 'Consulta Innera com Pedro remarcada para 5/03 às 13:00'])
      const [notice] = await mailTo(PEDRO)
      expect(notice!.subject).toBe('Consulta Innera com Paula remarcada para 5/03 às 13:00')
      expect(notice!.text).toContain('foi remarcada de quarta-feira, 4 de março de 2026 às 08:00 (Horário Padrão de Brasília) para quinta-feira, 5 de março de 2026 às 13:00')
      // Moved back to where they knew it: the message says where it is, not "from 08:00 to 08:00".
      expect((await move(id, WED_8)).status).toBe(200)
      const [back] = await mailTo(PEDRO)
      expect(back!.subject).toBe('Consulta Innera com Paula remarcada para 4/03 às 08:00')
      expect(back!.text).toContain('foi remarcada para quarta-feira, 4 de março de 2026 às 08:00')
      expect(await subjects(PEDRO)).toHaveLength(2)
    })

    it('holds a message for MAIL_COLLAPSE_MS before delivery; one tried or past its hold is not replaced: the next is a message of its own', async () => {
      const sender = fakeSender()
      const deliver = () => deliverOutbox(first.db, { sender, clock: time.clock, log: () => undefined })
      const id = await book(WED_8)
      expect((await deliver()).sent).toBe(0)
      time.set(NOW + HOLD)
      expect((await deliver()).sent).toBe(2)
      expect(sender.sent.map((mail) => mail.to).sort()).toEqual([PAULA, PEDRO].sort())
      // Sent: the move is told on its own, and waits its hold in turn.
      time.set(NOW + HOLD + SECOND)
      expect((await move(id, FRI_1030)).status).toBe(200)
      expect((await deliver()).sent).toBe(0)
      // Past its hold but not yet sent (no tick yet): no longer collapsing either.
      time.set(NOW + 2 * HOLD + 2 * SECOND)
      expect((await move(id, THU_13)).status).toBe(200)
      expect(await subjects(PEDRO)).toEqual([
        'Consulta Innera com Paula agendada para 4/03 às 08:00',
        'Consulta Innera com Paula remarcada para 6/03 às 10:30',
        'Consulta Innera com Paula remarcada para 5/03 às 13:00',
      ])
      expect((await deliver()).sent).toBe(2)
      expect(sender.sent.slice(2).map((mail) => mail.subject)).toEqual(expect.arrayContaining(['Consulta Innera com Paula remarcada para 6/03 às 10:30']))
    })

    it('without a hold (MAIL_COLLAPSE_MS=0) nothing waits and nothing collapses', async () => {
      const immediate = client(testApp(first.db, { clock: time.clock, env: { ...ENV, MAIL_COLLAPSE_MS: '0' } }))
      const created = await immediate.post('/appointments/create/', { professional_id: PAULA_ID, start_time: WED_8 }, { token: tokens[PEDRO] })
      expect((await move(created.json.id, FRI_1030, tokens[PEDRO], immediate)).status).toBe(200)
      expect(await subjects(PEDRO)).toEqual(['Consulta Innera com Paula agendada para 4/03 às 08:00', 'Consulta Innera com Paula remarcada para 6/03 às 10:30'])
    })

    it('reminders are neither held nor collapsed: each goes once, on time', async () => {
      const id = await book(WED_8)
      time.set(at(WED_8, -DAY))
      await tickBoth()
      const [reminder] = await first.db.select().from(outbox).where(eq(outbox.subject, 'Lembrete: Consulta Innera com Paula em 4/03 às 08:00'))
      expect(reminder).toMatchObject({ collapseKey: null, causedBy: null, nextAttemptAt: new Date(at(WED_8, -DAY)) })
      expect((await move(id, FRI_1030)).status).toBe(200)
      expect(await subjects(PEDRO)).toEqual([
        'Consulta Innera com Paula agendada para 4/03 às 08:00',
        'Lembrete: Consulta Innera com Paula em 4/03 às 08:00',
        'Consulta Innera com Paula remarcada para 6/03 às 10:30',
      ])
    })

    it("bounds what one person's actions put in the outbox per hour (MAIL_PER_USER_PER_HOUR): beyond it, stored as dropped, never sent, and logged without addresses", async () => {
      const logged: LogEntry[] = []
      const bounded = client(testApp(first.db, { clock: time.clock, env: { ...ENV, MAIL_COLLAPSE_MS: '0', MAIL_PER_USER_PER_HOUR: '4' }, log: (entry) => void logged.push(entry) }))
      const created = await bounded.post('/appointments/create/', { professional_id: PAULA_ID, start_time: WED_8 }, { token: tokens[PEDRO] })
      const id = created.json.id
      // The booking's two confirmations and a move's two notices: four, Pedro's bound.
      expect((await move(id, FRI_1030, tokens[PEDRO], bounded)).status).toBe(200)
      expect((await move(id, THU_13, tokens[PEDRO], bounded)).status).toBe(200)
      expect((await move(id, FRI_1030, tokens[PEDRO], bounded)).status).toBe(200)
      const rows = await first.db.select().from(outbox).orderBy(asc(outbox.id))
      expect(rows.map((row) => [row.subject.replace(/ com (Paula|Pedro)/, ''), row.failedAt === null ? 'waiting' : row.lastError])).toEqual([
        ['Consulta Innera agendada para 4/03 às 08:00', 'waiting'],
        ['Consulta Innera agendada para 4/03 às 08:00', 'waiting'],
        ['Consulta Innera remarcada para 6/03 às 10:30', 'waiting'],
        ['Consulta Innera remarcada para 6/03 às 10:30', 'waiting'],
        ...Array(4).fill([expect.stringMatching(/^Consulta Innera remarcada para/), 'DROPPED: over the hourly bound of messages one person may cause; not sent.']),
      ])
      const drops = logged.filter((entry) => entry.msg === 'appointment mail dropped: over the hourly bound of the person who caused it')
      expect(drops).toHaveLength(4)
      expect(drops[0]).toMatchObject({ level: 'warn', user_id: PEDRO_ID, appointment_id: id })
      expect(JSON.stringify(logged)).not.toContain('@')
      // The SMTP worker never sends a dropped one.
      const sender = fakeSender()
      expect((await deliverOutbox(first.db, { sender, clock: time.clock, log: () => undefined })).sent).toBe(4)
      // Paula's own actions are hers to count; an hour later Pedro's count again.
      expect((await bounded.post(`/appointments/${id}/cancel/`, {}, { token: tokens[PAULA] })).status).toBe(200)
      expect(await subjects(PAULA)).toContain('Consulta Innera com Pedro cancelada')
      time.set(NOW + 61 * MINUTE * SECOND)
      const again = await bounded.post('/appointments/create/', { professional_id: PAULA_ID, start_time: THU_13 }, { token: tokens[PEDRO] })
      expect(again.status).toBe(201)
      expect(await subjects(PEDRO)).toContain('Consulta Innera com Paula agendada para 5/03 às 13:00')
    })

    it('keeps one waiting message per appointment and person when a tick and a reschedule write at once, in two processes', async () => {
      const id = await book(WED_8)
      // The confirmations are due again and not yet written: a tick and a move race to write them.
      await first.db.execute(sql`delete from ${outbox}`)
      await first.db.update(scheduledMessages).set({ status: 'pending', outboxId: null }).where(eq(scheduledMessages.kind, 'confirmation'))
      time.set(NOW + 10 * 1000)
      // On PostgreSQL both are made to reach the outbox at once: its writes wait behind a table
      // lock until both wait (the one without the appointment's turn then waits for that turn).
      // PGlite has one connection: there they simply run together.
      const held = kind === 'postgres' ? await holdOutboxUntilWaiting(first, 2) : undefined
      const racing = Promise.all([reminderTick(appA.services), move(id, FRI_1030, tokens[PEDRO], client(appB))])
      await held?.release()
      const [ticked, moved] = await racing
      expect(moved.status).toBe(200)
      expect(ticked.sent).toBe(2)
      const rows = await first.db.select().from(outbox)
      expect(rows.map((row) => row.to).sort()).toEqual([PAULA, PEDRO].sort())
      // Whichever came first, each says the latest: booked, on Friday.
      expect(rows.map((row) => row.subject).sort()).toEqual(['Consulta Innera com Paula agendada para 6/03 às 10:30', 'Consulta Innera com Pedro agendada para 6/03 às 10:30'])
    })
  })

  it('refuses a second row for the same appointment, kind and recipient (a unique index)', async () => {
    const id = await book(WED_8)
    const duplicate = first.db.insert(scheduledMessages).values({ appointmentId: id, kind: 'reminder_1h', recipient: 'patient', dueAt: new Date(NOW) })
    const failure = await duplicate.then(() => undefined, (error: unknown) => error)
    expect(databaseError(failure)?.code).toBe('23505')
  })
}

describe('PGlite: two provider apps on one embedded database', () => {
  remindersSuite('pglite', async () => {
    const handle = await createMemoryDatabase()
    return { first: handle, second: handle, dispose: () => handle.close() }
  })
})

await describeOnPostgres('PostgreSQL: two provider processes (two pools) on one database', (open) => remindersSuite('postgres', open))
