import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { SMTPServer, type SMTPServerError } from 'smtp-server'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createProviderApp, type ProviderApp } from '#server/app.ts'
import type { Database, DatabaseHandle } from '#server/db/client.ts'
import { outbox } from '#server/db/schema.ts'
import { mailTick } from '#server/jobs.ts'
import type { LogEntry } from '#server/log.ts'
import { client, createMemoryDatabase, describeOnPostgres, fakeClock, resetDatabase, testConfig } from '#server/testing/harness.ts'
import { backoffMs, deliverOutbox, describeFailure, isPermanentFailure, MAX_ATTEMPTS } from '#server/mail/delivery.ts'
import { confirmationMessage } from '#server/mail/messages.ts'
import { queueMail } from '#server/mail/outbox.ts'

/**
 * SMTP delivery of the outbox (issue 12) against a real SMTP server started here on a free
 * loopback port (smtp-server): a message is sent once and marked sent; a temporary refusal is
 * retried after the backoff; a permanent one is recorded and never retried; the attempts run out;
 * the password never reaches a stored error or the log; without SMTP_URL nothing is sent; and two
 * workers claiming at once on PostgreSQL send every message exactly once.
 */

const USER = 'innera'
const PASSWORD = 's3cret/pass word'
const START = Date.parse('2026-03-02T12:00:00Z')
const MINUTE = 60_000

type Received = { from: string; to: string[]; messageId: string; subject: string; raw: string }
type Behaviour = {
  /** Refuse this DATA with this reply code. */
  refuseData?: () => number | undefined
  /** Refuse this recipient with this reply code. */
  refuseRecipient?: (address: string) => number | undefined
}

/** An SMTP server on 127.0.0.1 that checks the login, records every message, and refuses on cue. */
async function startSmtp(behaviour: Behaviour = {}) {
  const received: Received[] = []
  const refusal = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code }) as SMTPServerError
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER })
      else callback(refusal(535, 'Authentication credentials invalid'))
    },
    onRcptTo(address, _session, callback) {
      const code = behaviour.refuseRecipient?.(address.address)
      callback(code ? refusal(code, `Mailbox ${address.address} unavailable`) : null)
    },
    onData(stream, session, callback) {
      let raw = ''
      stream.setEncoding('utf8')
      stream.on('data', (chunk: string) => (raw += chunk))
      stream.on('end', () => {
        const code = behaviour.refuseData?.()
        if (code) return callback(refusal(code, 'Try again later'))
        const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(raw)?.[1]?.trim() ?? ''
        received.push({
          from: header('From'),
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          messageId: header('Message-ID'),
          subject: header('Subject'),
          raw,
        })
        callback(null)
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    received,
    url: (password = PASSWORD) => `smtp://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const time = fakeClock(START)

/** Queues a message as the provider would, due now on the fake clock. */
async function queue(db: Database, to: string, subject = 'Assunto', text = 'Corpo da mensagem secreta'): Promise<number> {
  const [row] = await db
    .insert(outbox)
    .values({ to, subject, textBody: text, htmlBody: `<p>${text}</p>`, createdAt: new Date(time.clock()), nextAttemptAt: new Date(time.clock()) })
    .returning({ id: outbox.id })
  return row!.id
}

const rowOf = async (db: Database, id: number) => (await db.select().from(outbox).where(eq(outbox.id, id)))[0]!

describe('backoff and failure classification', () => {
  it('waits 1 min × 2^(attempts − 1), at most an hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempts) => backoffMs(attempts) / MINUTE)).toEqual([1, 2, 4, 8, 16, 32, 60, 60])
  })

  it('treats a 5xx about the message as permanent; 4xx, 503, bad credentials and broken connections are retried', () => {
    expect(isPermanentFailure({ code: 'EENVELOPE', responseCode: 550, permanent: true })).toBe(true)
    expect(isPermanentFailure({ code: 'EMESSAGE', responseCode: 554 })).toBe(true)
    expect(isPermanentFailure({ code: 'EMESSAGE', responseCode: 451, permanent: false })).toBe(false)
    expect(isPermanentFailure({ code: 'EPROTOCOL', responseCode: 503 })).toBe(false)
    expect(isPermanentFailure({ code: 'EAUTH', responseCode: 535, permanent: true })).toBe(false)
    expect(isPermanentFailure({ code: 'ESOCKET' })).toBe(false)
  })

  it('describes a failure without the secrets it may quote, in at most 500 characters', () => {
    const error = Object.assign(new Error(`Invalid login for smtp://innera:hunter22@mail.test: hunter22 ${'x'.repeat(600)}`), { code: 'EAUTH', responseCode: 535 })
    const text = describeFailure(error, ['smtp://innera:hunter22@mail.test', 'hunter22'])
    expect(text.startsWith('EAUTH 535: Invalid login for [redacted]: [redacted] xxx')).toBe(true)
    expect(text).not.toContain('hunter22')
    expect(text).toHaveLength(500)
  })
})

describe('the SMTP worker (PGlite)', () => {
  let database: DatabaseHandle
  let smtp: Awaited<ReturnType<typeof startSmtp>>
  const logged: LogEntry[] = []
  const behaviour: Behaviour = {}

  const appWith = (env: Record<string, string>): ProviderApp =>
    createProviderApp({ db: database.db, config: testConfig(env), clock: time.clock, log: (entry) => logged.push(entry) })
  const worker = () => appWith({ SMTP_URL: smtp.url() })

  beforeAll(async () => {
    database = await createMemoryDatabase()
    smtp = await startSmtp(behaviour)
  })
  afterAll(async () => {
    await smtp.close()
    await database.close()
  })
  beforeEach(async () => {
    time.set(START)
    await resetDatabase(database.db)
    smtp.received.length = 0
    logged.length = 0
    delete behaviour.refuseData
    delete behaviour.refuseRecipient
  })
  afterEach(() => {
    // Never the password, never a body, whatever happened.
    const log = JSON.stringify(logged)
    for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), 'Corpo da mensagem']) expect(log).not.toContain(secret)
  })

  it('sends a queued message once, from SMTP_FROM, with a fixed Message-ID, and marks it sent', async () => {
    const id = await queue(database.db, 'ana@example.com', 'Confirme seu e-mail na Innera')
    const app = worker()
    expect(await mailTick(app.services)).toEqual({ sent: 1, retrying: 0, failed: 0, expired: 0 })
    expect(smtp.received).toHaveLength(1)
    expect(smtp.received[0]).toMatchObject({
      from: 'Innera <nao-responda@innera.local>',
      to: ['ana@example.com'],
      subject: 'Confirme seu e-mail na Innera',
      messageId: `<outbox-${id}-${START}@innera.local>`,
    })
    expect(smtp.received[0]!.raw).toContain('Corpo da mensagem secreta')
    expect(await rowOf(database.db, id)).toMatchObject({ sentAt: new Date(START), failedAt: null, attempts: 1, lastError: null, sendingUntil: null })
    // Sent is sent: later ticks, from this process or another, send nothing.
    time.set(START + 10 * MINUTE)
    expect(await mailTick(worker().services)).toEqual({ sent: 0, retrying: 0, failed: 0, expired: 0 })
    expect(smtp.received).toHaveLength(1)
    expect(logged).toContainEqual(expect.objectContaining({ level: 'info', msg: 'mail sent', outbox_id: id }))
  })

  // Issue 41: what reaches the reader is both parts, the HTML one a whole document in the message's language.
  it('sends a message as its text part and, beside it, its HTML part as a whole document', async () => {
    await queueMail(database.db, confirmationMessage({ to: 'ana@example.com', firstName: 'Ana', link: 'http://app.test/auth/confirm/MQ/t' }))
    // queueMail stamps the row with the database's clock: the worker's comes after it.
    time.set(Date.now() + MINUTE)
    expect(await mailTick(worker().services)).toMatchObject({ sent: 1 })
    const raw = smtp.received[0]!.raw
    expect(raw).toMatch(/^Content-Type: multipart\/alternative;/m)
    const part = (type: string) => {
      const found = new RegExp(`Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: ([\\w-]+)\r\n\r\n([\\s\\S]*?)\r\n----`).exec(raw)
      expect(found, type).not.toBeNull()
      const [, encoding, content] = found!
      if (encoding === 'base64') return Buffer.from(content!, 'base64').toString('utf8')
      // quoted-printable: soft line breaks out, =XX bytes back.
      expect(encoding).toBe('quoted-printable')
      const bytes = content!.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
      return Buffer.from(bytes, 'latin1').toString('utf8').replace(/\r\n/g, '\n')
    }
    const text = part('text/plain')
    expect(text).toContain('Olá, Ana!')
    expect(text).not.toContain('<p>')
    const html = part('text/html')
    expect(html.startsWith('<!doctype html>\n<html lang="pt-BR">\n<head>\n<meta charset="utf-8">\n<title>Confirme seu e-mail na Innera</title>')).toBe(true)
    expect(html).toContain('<body>\n<p>Olá, Ana!</p>')
    expect(html.trimEnd().endsWith('</body>\n</html>')).toBe(true)
  })

  it('shows the delivery in the development mailbox', async () => {
    const id = await queue(database.db, 'ana@example.com')
    const app = worker()
    await mailTick(app.services)
    const [entry] = (await client(app).get('/dev/mailbox/messages/?to=ana%40example.com')).json.results
    expect(entry).toMatchObject({ id, delivery: { status: 'sent', sent_at: new Date(START).toISOString(), failed_at: null, attempts: 1, last_error: null } })
    const page = await client(app).get('/dev/mailbox/')
    expect(page.text).toContain(`sent ${new Date(START).toISOString().replace('T', ' ').slice(0, 19)} UTC`)
  })

  it('retries a temporary refusal after the backoff, then sends', async () => {
    let messages = 0
    behaviour.refuseData = () => ((messages += 1) === 1 ? 451 : undefined)
    const id = await queue(database.db, 'ana@example.com')
    const app = worker()
    expect(await mailTick(app.services)).toEqual({ sent: 0, retrying: 1, failed: 0, expired: 0 })
    const waiting = await rowOf(database.db, id)
    expect(waiting).toMatchObject({ sentAt: null, failedAt: null, attempts: 1, sendingUntil: null, nextAttemptAt: new Date(START + MINUTE) })
    expect(waiting.lastError).toMatch(/^EMESSAGE 451: .*Try again later/)
    // Not before the backoff has passed.
    time.set(START + MINUTE - 1000)
    expect((await mailTick(app.services))!.sent).toBe(0)
    time.set(START + MINUTE)
    expect(await mailTick(app.services)).toEqual({ sent: 1, retrying: 0, failed: 0, expired: 0 })
    expect(smtp.received).toHaveLength(1)
    expect(await rowOf(database.db, id)).toMatchObject({ sentAt: new Date(START + MINUTE), attempts: 2, lastError: null })
    expect(logged).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'mail delivery failed; will retry', outbox_id: id, attempts: 1 }))
  })

  it('records a permanent refusal as failed and never tries it again; the other messages go', async () => {
    behaviour.refuseRecipient = (address) => (address === 'nobody@example.com' ? 550 : undefined)
    const refused = await queue(database.db, 'nobody@example.com')
    const fine = await queue(database.db, 'ana@example.com')
    const app = worker()
    expect(await mailTick(app.services)).toEqual({ sent: 1, retrying: 0, failed: 1, expired: 0 })
    const row = await rowOf(database.db, refused)
    expect(row).toMatchObject({ sentAt: null, failedAt: new Date(START), attempts: 1, sendingUntil: null })
    expect(row.lastError).toMatch(/^EENVELOPE 550: .*nobody@example\.com unavailable/)
    expect((await rowOf(database.db, fine)).sentAt).toEqual(new Date(START))
    time.set(START + 24 * 60 * MINUTE - 1)
    expect(await mailTick(app.services)).toEqual({ sent: 0, retrying: 0, failed: 0, expired: 0 })
    expect(smtp.received.map((mail) => mail.to)).toEqual([['ana@example.com']])
    expect(logged).toContainEqual(expect.objectContaining({ level: 'error', msg: 'mail delivery failed; given up', outbox_id: refused }))
  })

  it('retries bad credentials (they get fixed) without ever storing or logging the password', async () => {
    const wrong = 'not-the/password'
    const id = await queue(database.db, 'ana@example.com')
    const app = appWith({ SMTP_URL: smtp.url(wrong) })
    expect(await mailTick(app.services)).toEqual({ sent: 0, retrying: 1, failed: 0, expired: 0 })
    const row = await rowOf(database.db, id)
    expect(row.lastError).toMatch(/^EAUTH 535: /)
    for (const secret of [wrong, encodeURIComponent(wrong), PASSWORD]) {
      expect(row.lastError).not.toContain(secret)
      expect(JSON.stringify(logged)).not.toContain(secret)
    }
  })

  it('gives up after the last attempt, waiting longer each time', async () => {
    behaviour.refuseData = () => 421
    const id = await queue(database.db, 'ana@example.com')
    const app = worker()
    const waits: number[] = []
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const report = await mailTick(app.services)
      const row = await rowOf(database.db, id)
      expect(row.attempts).toBe(attempt)
      if (attempt < MAX_ATTEMPTS) {
        expect(report).toMatchObject({ retrying: 1, failed: 0 })
        waits.push((row.nextAttemptAt.getTime() - time.clock()) / MINUTE)
        time.set(row.nextAttemptAt.getTime())
      } else {
        expect(report).toMatchObject({ retrying: 0, failed: 1 })
        expect(row.failedAt).toEqual(new Date(time.clock()))
      }
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60])
    time.set(time.clock() + 2 * 60 * MINUTE)
    expect((await mailTick(app.services))!.retrying + (await mailTick(app.services))!.failed).toBe(0)
    expect(smtp.received).toHaveLength(0)
  })

  it('gives up a message not delivered within 24 hours instead of sending it stale', async () => {
    const stale = await queue(database.db, 'ana@example.com')
    time.set(START + 24 * 60 * MINUTE + 1000)
    const fresh = await queue(database.db, 'bruno@example.com')
    expect(await mailTick(worker().services)).toEqual({ sent: 1, retrying: 0, failed: 0, expired: 1 })
    expect((await rowOf(database.db, stale)).lastError).toMatch(/^EXPIRED/)
    expect((await rowOf(database.db, fresh)).sentAt).not.toBeNull()
    expect(smtp.received.map((mail) => mail.to)).toEqual([['bruno@example.com']])
  })

  it('takes a row back when the worker that leased it died mid-send (its lease ran out)', async () => {
    const id = await queue(database.db, 'ana@example.com')
    await database.db.update(outbox).set({ sendingUntil: new Date(START + 5 * MINUTE), attempts: 1 }).where(eq(outbox.id, id))
    const app = worker()
    expect((await mailTick(app.services))!.sent).toBe(0)
    time.set(START + 5 * MINUTE)
    expect((await mailTick(app.services))!.sent).toBe(1)
    expect(await rowOf(database.db, id)).toMatchObject({ attempts: 2, sendingUntil: null })
  })

  it('sends nothing without SMTP_URL: the development mailbox shows the message as not sent', async () => {
    const id = await queue(database.db, 'ana@example.com')
    const app = appWith({})
    expect(app.services.mailSender).toBeUndefined()
    expect(await mailTick(app.services)).toBeUndefined()
    expect(smtp.received).toHaveLength(0)
    expect(await rowOf(database.db, id)).toMatchObject({ sentAt: null, failedAt: null, attempts: 0 })
    const [entry] = (await client(app).get('/dev/mailbox/messages/?to=ana%40example.com')).json.results
    expect(entry.delivery).toEqual({ status: 'pending', sent_at: null, failed_at: null, attempts: 0, last_error: null })
  })
})

/** Two workers (two processes) drain one outbox at the same moment: every message goes exactly once. */
function concurrentSuite(open: () => Promise<{ first: Database; second: Database; dispose(): Promise<void> }>) {
  let first: Database
  let second: Database
  let dispose: () => Promise<void>
  let smtp: Awaited<ReturnType<typeof startSmtp>>
  beforeAll(async () => {
    ;({ first, second, dispose } = await open())
    smtp = await startSmtp()
  })
  afterAll(async () => {
    await smtp.close()
    await dispose()
  })

  it('sends each of 40 messages once when two workers claim at once', async () => {
    time.set(START)
    await resetDatabase(first)
    const ids: number[] = []
    for (let index = 0; index < 40; index += 1) ids.push(await queue(first, `pessoa${index}@example.com`))
    const workers = [first, second].map((db) => {
      const app = createProviderApp({ db, config: testConfig({ SMTP_URL: smtp.url() }), clock: time.clock, log: () => undefined })
      // Small batches, so the two interleave their claims many times.
      return deliverOutbox(db, { sender: app.services.mailSender!, clock: time.clock, log: () => undefined, batch: 3, maxBatches: 100 })
    })
    const reports = await Promise.all(workers)
    expect(reports[0]!.sent + reports[1]!.sent).toBe(40)
    const messageIds = smtp.received.map((mail) => mail.messageId)
    expect(new Set(messageIds).size).toBe(40)
    expect(messageIds).toHaveLength(40)
    const rows = await first.select().from(outbox)
    expect(rows.every((row) => row.sentAt !== null && row.attempts === 1 && row.sendingUntil === null)).toBe(true)
  })
}

describe('two workers on PGlite', () => {
  concurrentSuite(async () => {
    const handle = await createMemoryDatabase()
    return { first: handle.db, second: handle.db, dispose: () => handle.close() }
  })
})

await describeOnPostgres('two workers on PostgreSQL (two pools, one database)', (open) =>
  concurrentSuite(async () => {
    const { first, second, dispose } = await open()
    return { first: first.db, second: second.db, dispose }
  }),
)
