import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database, DatabaseHandle } from '#server/db/client.ts'
import { outbox, users } from '#server/db/schema.ts'
import { dispatchMessageNotices } from '#server/messages/notices.ts'
import { insertMessage, markRead, openConversation, saveNotificationSettings, setMuted } from '#server/messages/repository.ts'
import { APP_URL, createMemoryDatabase, describeOnPostgres, resetDatabase } from '#server/testing/harness.ts'

const MINUTE = 60_000
const START = Date.UTC(2026, 11, 7, 15, 0) // 12:00 in São Paulo
let database: DatabaseHandle
let db: Database
const ids = { paula: 0, pedro: 0 }

const idOf = async (handle: Database, email: string) => (await handle.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id
const tick = (at: number, on = db) => dispatchMessageNotices(on, { now: at, appPublicUrl: APP_URL })
const mailTo = async (email: string) => (await db.select().from(outbox).where(eq(outbox.to, email))).map((row) => ({ subject: row.subject, text: row.textBody, html: row.htmlBody }))

beforeAll(async () => {
  database = await createMemoryDatabase()
  db = database.db
  ids.paula = await idOf(db, 'profissional@innera.local')
  ids.pedro = await idOf(db, 'paciente@innera.local')
})
afterAll(() => database.close())
beforeEach(() => resetDatabase(db))

async function paulaWritesPedro(at: number, body = 'Sua glicemia de ontem está ótima.') {
  const { conversation } = await openConversation(db, ids.pedro, ids.paula)
  await insertMessage(db, { conversation, senderId: ids.paula, side: 'professional', body, now: new Date(at) })
  return conversation
}

describe('the e-mail of a message waiting', () => {
  it('goes after 15 minutes unread, once, with the link and never the text', async () => {
    const conversation = await paulaWritesPedro(START)
    expect(await tick(START + 14 * MINUTE)).toEqual({ sent: 0, quiet: 0 })
    expect(await tick(START + 15 * MINUTE)).toEqual({ sent: 1, quiet: 0 })
    expect(await tick(START + 16 * MINUTE)).toEqual({ sent: 0, quiet: 0 })
    const [mail, ...more] = await mailTo('paciente@innera.local')
    expect(more).toEqual([])
    expect(mail!.subject).toBe('Você tem uma nova mensagem de Paula na Innera')
    expect(mail!.text).toContain(`${APP_URL}/mensagens/${conversation.id}`)
    expect(`${mail!.text}${mail!.html}`).not.toContain('glicemia')
    // The sender is not told of their own message.
    expect(await mailTo('profissional@innera.local')).toEqual([])
  })

  it('is at most one an hour per conversation, and only for messages newer than the last one', async () => {
    const conversation = await paulaWritesPedro(START)
    await tick(START + 15 * MINUTE)
    await insertMessage(db, { conversation, senderId: ids.paula, side: 'professional', body: 'Outra', now: new Date(START + 20 * MINUTE) })
    expect((await tick(START + 50 * MINUTE)).sent).toBe(0)
    expect((await tick(START + 75 * MINUTE)).sent).toBe(1)
    // Nothing new since: an hour later still nothing, however long the messages wait unread.
    expect((await tick(START + 180 * MINUTE)).sent).toBe(0)
    expect(await mailTo('paciente@innera.local')).toHaveLength(2)
  })

  it('is not sent once read, muted, or with e-mail off; waits out quiet hours', async () => {
    const conversation = await paulaWritesPedro(START)
    await markRead(db, conversation, 'patient', Number.MAX_SAFE_INTEGER)
    expect((await tick(START + 20 * MINUTE)).sent).toBe(0)

    await insertMessage(db, { conversation, senderId: ids.paula, side: 'professional', body: 'Muted', now: new Date(START + 30 * MINUTE) })
    await setMuted(db, conversation.id, true)
    expect((await tick(START + 50 * MINUTE)).sent).toBe(0)
    await setMuted(db, conversation.id, false)
    await saveNotificationSettings(db, ids.pedro, { email: false, push: false, quiet: null }, new Date(START))
    expect((await tick(START + 50 * MINUTE)).sent).toBe(0)

    // Quiet from 12:30 to 14:00 in São Paulo: told at 14:00.
    await saveNotificationSettings(db, ids.pedro, { email: true, push: false, quiet: { start: '12:30', end: '14:00' } }, new Date(START))
    expect(await tick(START + 50 * MINUTE)).toEqual({ sent: 0, quiet: 1 })
    expect(await tick(START + 120 * MINUTE)).toEqual({ sent: 1, quiet: 0 })
  })

  it('is sent once when two workers tick together', async () => {
    await paulaWritesPedro(START)
    const reports = await Promise.all([tick(START + 15 * MINUTE), tick(START + 15 * MINUTE)])
    expect(reports.reduce((sum, report) => sum + report.sent, 0)).toBe(1)
    expect(await mailTo('paciente@innera.local')).toHaveLength(1)
  })
})

await describeOnPostgres('PostgreSQL: the e-mail of a message waiting, from two processes', (open) => {
  it('is queued exactly once', async () => {
    const { first, second, dispose } = await open()
    try {
      const [pedro, paula] = [await idOf(first.db, 'paciente@innera.local'), await idOf(first.db, 'profissional@innera.local')]
      const { conversation } = await openConversation(first.db, pedro, paula)
      await insertMessage(first.db, { conversation, senderId: paula, side: 'professional', body: 'oi', now: new Date(START) })
      const reports = await Promise.all(Array.from({ length: 6 }, (_, index) => tick(START + 15 * MINUTE, index % 2 ? first.db : second.db)))
      expect(reports.reduce((sum, report) => sum + report.sent, 0)).toBe(1)
      expect(await first.db.select().from(outbox).where(eq(outbox.to, 'paciente@innera.local'))).toHaveLength(1)
    } finally {
      await dispose()
    }
  })
})
