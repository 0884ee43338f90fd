import { eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { rowsOf, type DatabaseHandle } from '#server/db/client.ts'
import { appointments, auditLog, conversations, messageAttachments, messages, notificationSettings, professionalPatients, questionnaireResults, questionnaireShares, users } from '#server/db/schema.ts'
import { openConversation, reopenConversationOf } from '#server/messages/repository.ts'
import type { ProviderApp } from '#server/app.ts'
import { client, createMemoryDatabase, describeOnPostgres, fakeClock, PUBLIC_URL, resetDatabase, testApp } from '#server/testing/harness.ts'

let database: DatabaseHandle
const NOW = Date.UTC(2026, 11, 7, 12, 0, 0)
const time = fakeClock(NOW)
let api: ReturnType<typeof client>
let streamingApp: ProviderApp
const tokens = { admin: '', paula: '', pedro: '', mariana: '', psicologa: '' }
const ids = { paula: 0, pedro: 0, mariana: 0, psicologa: 0 }

const idOf = async (email: string) => (await database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id

beforeAll(async () => {
  database = await createMemoryDatabase()
  streamingApp = testApp(database.db, { clock: time.clock, env: { THROTTLE_DISABLED: '0', THROTTLE_MESSAGE_PER_USER: '100/h' } })
  api = client(streamingApp)
  tokens.admin = (await api.login('admin@innera.local')).access
  tokens.paula = (await api.login('profissional@innera.local')).access
  tokens.pedro = (await api.login('paciente@innera.local')).access
  tokens.mariana = (await api.login('paciente2@innera.local')).access
  tokens.psicologa = (await api.login('psicologa@innera.local')).access
  ids.paula = await idOf('profissional@innera.local')
  ids.pedro = await idOf('paciente@innera.local')
  ids.mariana = await idOf('paciente2@innera.local')
  ids.psicologa = await idOf('psicologa@innera.local')
})
afterAll(async () => {
  await streamingApp.services.messageBus.close()
  await database.close()
})
beforeEach(async () => {
  await resetDatabase(database.db)
  time.set(NOW)
})

const start = (token: string, other: number) => api.post('/messages/conversations/', { with: other }, { token })
const send = (token: string, id: number, text: string, key?: string) => api.post(`/messages/conversations/${id}/messages/`, { text, ...(key && { idempotency_key: key }) }, { token })

async function pedroAndPaula(): Promise<number> {
  const response = await start(tokens.pedro, ids.paula)
  expect(response.status).toBe(201)
  return response.json.id
}

describe('a conversation between a patient and their professional', () => {
  it('is one per pair, whoever starts it, and says who the other is', async () => {
    const first = await start(tokens.pedro, ids.paula)
    expect(first.status).toBe(201)
    expect(first.headers.get('cache-control')).toBe('private, no-store')
    expect(first.json).toMatchObject({ role: 'patient', other: { id: ids.paula, first_name: 'Paula' }, closed: false, muted: false })
    const again = await start(tokens.pedro, ids.paula)
    const fromPaula = await start(tokens.paula, ids.pedro)
    expect([again.status, fromPaula.status]).toEqual([200, 200])
    expect(new Set([first.json.id, again.json.id, fromPaula.json.id]).size).toBe(1)
    expect(fromPaula.json).toMatchObject({ role: 'professional', other: { id: ids.pedro, first_name: 'Pedro' } })
  })

  it('needs a care link: anyone else is 404, as an id that names nobody; admins never read messages', async () => {
    expect((await start(tokens.pedro, ids.psicologa)).status).toBe(404)
    expect((await start(tokens.psicologa, ids.pedro)).status).toBe(404)
    // A patient writes to a professional, a professional to a patient: never patient to patient.
    expect((await start(tokens.pedro, ids.mariana)).status).toBe(404)
    expect((await start(tokens.pedro, 999_999)).status).toBe(404)
    expect((await start(tokens.admin, ids.pedro)).status).toBe(403)
    expect((await api.get('/messages/conversations/', { token: tokens.admin })).status).toBe(403)
    expect((await start('', ids.paula)).status).toBe(401)
  })

  it('is not made by a hold that expired unpaid, and is by a shared assessment', async () => {
    const now = new Date(time.clock())
    await database.db.insert(appointments).values({
      professionalId: ids.psicologa,
      patientId: ids.pedro,
      startTime: new Date(now.getTime() + 86_400_000),
      endTime: new Date(now.getTime() + 86_400_000 + 3_000_000),
      blockedUntil: new Date(now.getTime() + 86_400_000 + 3_000_000),
      meetingLink: 'https://meet.example/x',
      status: 'cancelled',
      cancellationReason: 'payment_not_completed',
    })
    // Every booking lists the patient, the held one too.
    await database.db.insert(professionalPatients).values({ professionalId: ids.psicologa, patientId: ids.pedro })
    expect((await start(tokens.pedro, ids.psicologa)).status).toBe(404)

    const [{ version }] = (await rowsOf<{ version: string }>(database.db.execute(sql`select version from questionnaire_versions where is_current`))) as [{ version: string }]
    const [result] = await database.db.insert(questionnaireResults).values({ userId: ids.pedro, version, answers: {}, scores: {}, focusPillars: [] }).returning({ id: questionnaireResults.id })
    await database.db.insert(questionnaireShares).values({ resultId: result!.id, professionalId: ids.psicologa })
    expect((await start(tokens.pedro, ids.psicologa)).status).toBe(201)
  })

  it('is 404 for everyone but its two', async () => {
    const id = await pedroAndPaula()
    for (const token of [tokens.mariana, tokens.psicologa]) {
      expect((await api.get(`/messages/conversations/${id}/`, { token })).status).toBe(404)
      expect((await send(token, id, 'oi')).status).toBe(404)
    }
    expect((await api.get(`/messages/conversations/${id}/`, { token: tokens.admin })).status).toBe(403)
  })
})

describe('messages', () => {
  it('go both ways with unread counts, first words in the list and "read" once seen', async () => {
    const id = await pedroAndPaula()
    const sent = await send(tokens.pedro, id, 'Olá, Paula!\nPosso mudar a caminhada para a noite?')
    expect(sent.status).toBe(201)
    expect(sent.json).toMatchObject({ mine: true, text: 'Olá, Paula!\nPosso mudar a caminhada para a noite?', deleted: false, read: false, can_delete: true })

    expect((await api.get('/messages/unread/', { token: tokens.paula })).json).toEqual({ unread: 1 })
    expect((await api.get('/messages/unread/', { token: tokens.pedro })).json).toEqual({ unread: 0 })
    const list = await api.get('/messages/conversations/', { token: tokens.paula })
    expect(list.json).toMatchObject({ count: 1, results: [{ id, unread_count: 1, other: { first_name: 'Pedro' }, last_message: { preview: 'Olá, Paula! Posso mudar a caminhada para a noite?', mine: false } }] })

    const thread = await api.get(`/messages/conversations/${id}/`, { token: tokens.paula })
    expect(thread.json.messages).toEqual([expect.objectContaining({ id: sent.json.id, mine: false, can_delete: false })])
    expect((await api.post(`/messages/conversations/${id}/read/`, { up_to: sent.json.id }, { token: tokens.paula })).json).toEqual({ read_up_to: sent.json.id })
    expect((await api.get('/messages/unread/', { token: tokens.paula })).json).toEqual({ unread: 0 })
    const seen = await api.get(`/messages/conversations/${id}/`, { token: tokens.pedro })
    expect(seen.json.messages[0]).toMatchObject({ mine: true, read: true })
    // A mark never goes past the last message, nor back.
    expect((await api.post(`/messages/conversations/${id}/read/`, { up_to: 2_000_000 }, { token: tokens.paula })).json).toEqual({ read_up_to: sent.json.id })

    const answer = await send(tokens.paula, id, 'Pode sim!')
    expect((await api.get('/messages/conversations/', { token: tokens.pedro })).json.results[0]).toMatchObject({ unread_count: 1, last_message: { id: answer.json.id, preview: 'Pode sim!' } })
  })

  it('are marked read by the thread read with `mark_read` on its newest page, never on an older one (decision 0088)', async () => {
    const id = await pedroAndPaula()
    const first = await send(tokens.pedro, id, 'primeira')
    const second = await send(tokens.pedro, id, 'segunda')
    const older = await api.get(`/messages/conversations/${id}/?before=${second.json.id}&mark_read=1`, { token: tokens.paula })
    expect(older.json.messages.map((m: { id: number }) => m.id)).toEqual([first.json.id])
    expect((await api.get('/messages/unread/', { token: tokens.paula })).json).toEqual({ unread: 2 })
    expect((await api.get(`/messages/conversations/${id}/`, { token: tokens.paula })).status).toBe(200)
    expect((await api.get('/messages/unread/', { token: tokens.paula })).json).toEqual({ unread: 2 })
    const newest = await api.get(`/messages/conversations/${id}/?mark_read=1`, { token: tokens.paula })
    expect(newest.json.messages.map((m: { id: number }) => m.id)).toEqual([first.json.id, second.json.id])
    expect((await api.get('/messages/unread/', { token: tokens.paula })).json).toEqual({ unread: 0 })
    expect((await api.get(`/messages/conversations/${id}/`, { token: tokens.pedro })).json.messages.at(-1)).toMatchObject({ id: second.json.id, read: true })
    expect((await api.get(`/messages/conversations/${id}/?mark_read=maybe`, { token: tokens.paula })).status).toBe(400)
  })

  it('refuse a blank text, one over 4,000 characters, and keep a resent form to one message', async () => {
    const id = await pedroAndPaula()
    expect((await send(tokens.pedro, id, ' \n ')).json).toEqual({ text: ['This field may not be blank.'] })
    expect((await send(tokens.pedro, id, 'a'.repeat(4001))).status).toBe(400)
    expect((await api.post(`/messages/conversations/${id}/messages/`, {}, { token: tokens.pedro })).json).toEqual({ text: ['This field is required.'] })
    const key = 'message-key-0123456789'
    const first = await send(tokens.pedro, id, 'uma vez', key)
    const second = await send(tokens.pedro, id, 'uma vez', key)
    expect([first.status, second.status]).toEqual([201, 200])
    expect(second.json.id).toBe(first.json.id)
    expect((await database.db.select().from(messages)).length).toBe(1)
  })

  it('page back by keyset: the newest 30, then those before, oldest first', async () => {
    const id = await pedroAndPaula()
    for (let index = 1; index <= 70; index += 1) await send(index % 2 ? tokens.pedro : tokens.paula, id, `mensagem ${index}`)
    const newest = await api.get(`/messages/conversations/${id}/`, { token: tokens.pedro })
    expect(newest.json.messages.map((message: { text: string }) => message.text)).toEqual(Array.from({ length: 30 }, (_, index) => `mensagem ${41 + index}`))
    const before = await api.get(`/messages/conversations/${id}/?before=${newest.json.older}`, { token: tokens.pedro })
    expect(before.json.messages[0].text).toBe('mensagem 11')
    const oldest = await api.get(`/messages/conversations/${id}/?before=${before.json.older}`, { token: tokens.pedro })
    expect(oldest.json.messages.map((message: { text: string }) => message.text)).toEqual(Array.from({ length: 10 }, (_, index) => `mensagem ${index + 1}`))
    expect(oldest.json.older).toBeNull()
    expect((await api.get(`/messages/conversations/${id}/?before=abc`, { token: tokens.pedro })).status).toBe(400)
  })

  it('can be deleted by their sender within 15 minutes, and stay in place as deleted', async () => {
    const id = await pedroAndPaula()
    const early = await send(tokens.pedro, id, 'ops')
    const late = await send(tokens.pedro, id, 'fica')
    const path = (messageId: number) => `/messages/conversations/${id}/messages/${messageId}/delete/`
    expect((await api.post(path(early.json.id), undefined, { token: tokens.paula })).status).toBe(403)
    const deleted = await api.post(path(early.json.id), undefined, { token: tokens.pedro })
    expect(deleted.json).toMatchObject({ deleted: true, text: '', can_delete: false })
    time.advance(15 * 60 + 1)
    // An access token lives as long: signed in again.
    const pedro = (await api.login('paciente@innera.local')).access
    expect((await api.post(path(late.json.id), undefined, { token: pedro })).json).toEqual({ detail: 'A message can be deleted by its sender within 15 minutes.' })
    const thread = await api.get(`/messages/conversations/${id}/`, { token: pedro })
    expect(thread.json.messages.map((message: { deleted: boolean; text: string }) => [message.deleted, message.text])).toEqual([[true, ''], [false, 'fica']])
  })

  it('go to the admins one at a time when reported, with the reason', async () => {
    const id = await pedroAndPaula()
    const sent = await send(tokens.paula, id, 'uma mensagem ruim')
    const path = `/messages/conversations/${id}/messages/${sent.json.id}/report/`
    expect((await api.post(path, { reason: '' }, { token: tokens.pedro })).status).toBe(400)
    const report = await api.post(path, { reason: 'Ofensiva' }, { token: tokens.pedro })
    expect(report.status).toBe(201)
    expect((await api.post(path, { reason: 'Ofensiva' }, { token: tokens.pedro })).status).toBe(200)
    expect((await api.post(path, { reason: 'minha' }, { token: tokens.paula })).status).toBe(400)

    // The admins read the reported message and the reason, nothing else of the conversation.
    await send(tokens.paula, id, 'outra mensagem')
    expect((await api.get('/admin/message-reports/', { token: tokens.pedro })).status).toBe(403)
    const queue = await api.get('/admin/message-reports/', { token: tokens.admin })
    expect(queue.json).toMatchObject({ count: 1, results: [{ id: report.json.id, text: 'uma mensagem ruim', reason: 'Ofensiva', author: { first_name: 'Paula' }, reporter: { first_name: 'Pedro' }, outcome: null }] })
    expect(JSON.stringify(queue.json)).not.toContain('outra mensagem')
    const resolve = (outcome: string) => api.post(`/admin/message-reports/${report.json.id}/resolve/`, { outcome }, { token: tokens.admin })
    expect((await resolve('maybe')).status).toBe(400)
    expect((await resolve('removed')).json).toMatchObject({ outcome: 'removed' })
    expect((await resolve('dismissed')).status).toBe(404)
    const thread = await api.get(`/messages/conversations/${id}/`, { token: tokens.pedro })
    expect(thread.json.messages[0]).toMatchObject({ id: sent.json.id, text: '', deleted: true, removed_by_admins: true })
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.action, 'message.remove'))
    expect(entry).toMatchObject({ targetType: 'message', targetId: String(sent.json.id), reason: 'Ofensiva' })
    expect((await api.get('/admin/message-reports/?handled=true', { token: tokens.admin })).json.count).toBe(1)
  })

  it('are throttled per user: 429 with Retry-After', async () => {
    const throttled = client(testApp(database.db, { clock: time.clock, env: { THROTTLE_DISABLED: '0', THROTTLE_MESSAGE_PER_USER: '2/h' } }))
    const token = (await throttled.login('paciente@innera.local')).access
    const id = (await throttled.post('/messages/conversations/', { with: ids.paula }, { token })).json.id
    const post = () => throttled.post(`/messages/conversations/${id}/messages/`, { text: 'oi' }, { token })
    expect([(await post()).status, (await post()).status]).toEqual([201, 201])
    const refused = await post()
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

describe('closing and muting', () => {
  it('a professional closes it (read-only for both); a new appointment reopens it', async () => {
    const id = await pedroAndPaula()
    expect((await api.post(`/messages/conversations/${id}/close/`, { closed: true }, { token: tokens.pedro })).status).toBe(403)
    expect((await api.post(`/messages/conversations/${id}/close/`, { closed: true }, { token: tokens.paula })).json).toMatchObject({ closed: true })
    for (const token of [tokens.pedro, tokens.paula]) expect((await send(token, id, 'oi')).json).toMatchObject({ code: 'conversation_closed' })
    expect((await api.get(`/messages/conversations/${id}/`, { token: tokens.pedro })).status).toBe(200)
    await reopenConversationOf(database.db, ids.pedro, ids.paula)
    expect((await send(tokens.pedro, id, 'voltei')).status).toBe(201)
  })

  it('a patient mutes it; a professional cannot', async () => {
    const id = await pedroAndPaula()
    expect((await api.post(`/messages/conversations/${id}/mute/`, { muted: true }, { token: tokens.paula })).status).toBe(403)
    expect((await api.post(`/messages/conversations/${id}/mute/`, { muted: true }, { token: tokens.pedro })).json).toMatchObject({ muted: true })
    expect((await database.db.select({ muted: conversations.patientMuted }).from(conversations))[0]).toEqual({ muted: true })
  })
})

describe('two starting the same conversation at once', () => {
  it('make one (the unique index decides)', async () => {
    const outcomes = await Promise.all([openConversation(database.db, ids.mariana, ids.paula), openConversation(database.db, ids.mariana, ids.paula)])
    expect(outcomes[0].conversation.id).toBe(outcomes[1].conversation.id)
    expect(outcomes.filter((outcome) => outcome.created)).toHaveLength(1)
  })
})

await describeOnPostgres('PostgreSQL: two processes start the same conversation', (open) => {
  it('one conversation, one of them made it', async () => {
    const { first, second, dispose } = await open()
    try {
      const [patient] = await first.db.select({ id: users.id }).from(users).where(eq(users.email, 'paciente@innera.local'))
      const [professional] = await first.db.select({ id: users.id }).from(users).where(eq(users.email, 'profissional@innera.local'))
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, index) => openConversation(index % 2 ? first.db : second.db, patient!.id, professional!.id)))
      expect(new Set(outcomes.map((outcome) => outcome.conversation.id)).size).toBe(1)
      expect(outcomes.filter((outcome) => outcome.created)).toHaveLength(1)
    } finally {
      await dispose()
    }
  })
})

describe('GET and PUT /users/me/notification-settings/', () => {
  it('answer the defaults, then what was saved; quiet hours need both ends', async () => {
    const path = '/users/me/notification-settings/'
    expect((await api.get(path, { token: tokens.pedro })).json).toEqual({ email: true, push: false, quiet_start: null, quiet_end: null })
    const put = (body: unknown) => api.call('PUT', path, { body, token: tokens.pedro })
    expect((await put({ email: false, push: true, quiet_start: '22:00' })).json).toEqual({ quiet_end: ['Quiet hours need a start and an end.'] })
    expect((await put({ email: true, push: false, quiet_start: '25:00', quiet_end: '07:00' })).json).toEqual({ quiet_start: ['Enter a time as HH:MM.'] })
    expect((await put({ email: true, push: false, quiet_start: '07:00', quiet_end: '07:00' })).json).toEqual({ quiet_end: ['The end must differ from the start.'] })
    const saved = await put({ email: false, push: true, quiet_start: '22:00', quiet_end: '07:00' })
    expect(saved.json).toEqual({ email: false, push: true, quiet_start: '22:00', quiet_end: '07:00' })
    expect((await api.get(path, { token: tokens.pedro })).json).toEqual(saved.json)
    expect((await api.get(path, { token: tokens.paula })).json.email).toBe(true)
    expect((await put({ email: true, push: false, quiet_start: '', quiet_end: '' })).json).toEqual({ email: true, push: false, quiet_start: null, quiet_end: null })
  })
})

describe('GET /messages/stream/', () => {
  /** Opens the caller's stream; `next(n)` waits for n more events (name and parsed data). */
  async function openStream(token: string, after?: number) {
    const controller = new AbortController()
    const response = await streamingApp.request(`${PUBLIC_URL}/messages/stream/${after === undefined ? '' : `?after=${after}`}`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal })
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ''
    const events: { event: string; data: Record<string, unknown> }[] = []
    async function next(count: number) {
      while (events.length < count) {
        const { value, done } = await reader.read()
        if (done) throw new Error('the stream ended')
        buffer += value
        let end: number
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const event = /^event: (.*)$/m.exec(block)?.[1]
          const data = /^data: (.*)$/m.exec(block)?.[1]
          if (event && data) events.push({ event, data: JSON.parse(data) })
        }
      }
      return events.splice(0, count)
    }
    return { response, next, close: () => controller.abort() }
  }

  it('brings the other side’s messages, deletes and read marks as they happen, and what came since the cursor first', async () => {
    const id = await pedroAndPaula()
    const first = await send(tokens.pedro, id, 'antes do stream')
    const stream = await openStream(tokens.paula, 0)
    try {
      expect(stream.response.headers.get('content-type')).toContain('text/event-stream')
      expect(stream.response.headers.get('cache-control')).toBe('private, no-store')
      expect(await stream.next(1)).toEqual([{ event: 'message', data: expect.objectContaining({ id: first.json.id, text: 'antes do stream', mine: false }) }])
      const live = await send(tokens.pedro, id, 'ao vivo')
      expect(await stream.next(1)).toEqual([{ event: 'message', data: expect.objectContaining({ id: live.json.id, text: 'ao vivo' }) }])
      await api.post(`/messages/conversations/${id}/messages/${live.json.id}/delete/`, undefined, { token: tokens.pedro })
      expect(await stream.next(1)).toEqual([{ event: 'message', data: expect.objectContaining({ id: live.json.id, deleted: true, text: '' }) }])
      const mine = await send(tokens.paula, id, 'resposta')
      expect(await stream.next(1)).toEqual([{ event: 'message', data: expect.objectContaining({ id: mine.json.id, mine: true, read: false }) }])
      await api.post(`/messages/conversations/${id}/read/`, { up_to: mine.json.id }, { token: tokens.pedro })
      expect(await stream.next(1)).toEqual([{ event: 'read', data: { conversation_id: id, read_up_to: mine.json.id } }])
    } finally {
      stream.close()
    }
  })

  it('sends a message once when the catch-up of an earlier event already sent it', async () => {
    const id = await pedroAndPaula()
    // This stream's events held until both messages are written: the first one's catch-up reads
    // both, and the second one's event then finds its message sent (as on a busy process).
    const bus = streamingApp.services.messageBus
    const subscribe = bus.subscribe
    const held: (() => void)[] = []
    let holding = true
    bus.subscribe = (handler) => subscribe.call(bus, (event) => (holding ? held.push(() => handler(event)) : handler(event)))
    const stream = await openStream(tokens.paula)
    try {
      await send(tokens.pedro, id, 'um')
      await send(tokens.pedro, id, 'dois')
      await expect.poll(() => held.length).toBe(2)
      holding = false
      for (const deliver of held.splice(0)) deliver()
      await send(tokens.pedro, id, 'três')
      expect((await stream.next(3)).map(({ event, data }) => `${event} ${String(data.text)}`)).toEqual(['message um', 'message dois', 'message três'])
    } finally {
      stream.close()
      bus.subscribe = subscribe
    }
  })

  it('is nobody else’s: a stranger’s stream hears nothing of the conversation; admins are refused', async () => {
    const id = await pedroAndPaula()
    const stranger = await openStream(tokens.mariana)
    const paula = await openStream(tokens.paula)
    try {
      await send(tokens.pedro, id, 'só para a Paula')
      expect((await paula.next(1))[0]!.data).toMatchObject({ text: 'só para a Paula' })
      // Mariana's own conversation's message arrives; nothing came before it.
      const hers = (await start(tokens.mariana, ids.paula)).json.id
      await send(tokens.paula, hers, 'para a Mariana')
      expect(await stranger.next(1)).toEqual([{ event: 'message', data: expect.objectContaining({ text: 'para a Mariana' }) }])
    } finally {
      stranger.close()
      paula.close()
    }
    expect((await api.get('/messages/stream/', { token: tokens.admin })).status).toBe(403)
    expect((await api.get('/messages/stream/?after=-1', { token: tokens.pedro })).status).toBe(400)
  })
})

describe('GET /messages/stream/?conversation=', () => {
  it('carries one conversation only, its own cursor first; 404 for a conversation not the caller’s (decision 0088)', async () => {
    const id = await pedroAndPaula()
    const hers = (await start(tokens.mariana, ids.paula)).json.id
    const before = await send(tokens.pedro, id, 'antes')
    // Newer messages elsewhere do not count against this conversation's catch-up.
    await send(tokens.mariana, hers, 'de outra conversa')
    const controller = new AbortController()
    const response = await streamingApp.request(`${PUBLIC_URL}/messages/stream/?conversation=${id}&after=0`, { headers: { authorization: `Bearer ${tokens.paula}` }, signal: controller.signal })
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    let text = ''
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read()
        if (done) throw new Error('the stream ended')
        text += value
      }
    }
    try {
      expect(response.status).toBe(200)
      await until(/antes/)
      await send(tokens.mariana, hers, 'ainda de outra')
      const live = await send(tokens.pedro, id, 'ao vivo')
      await until(/ao vivo/)
      expect(text).not.toMatch(/outra/)
      expect([...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]))).toEqual([before.json.id, live.json.id])
    } finally {
      controller.abort()
    }
    const stranger = await api.get(`/messages/stream/?conversation=${id}`, { token: tokens.mariana })
    expect(stranger.status).toBe(404)
    expect((await api.get('/messages/stream/?conversation=abc', { token: tokens.pedro })).status).toBe(400)
  })
})

await describeOnPostgres('PostgreSQL: a message sent through one process reaches a stream held by another', (open) => {
  it('once, in order', async () => {
    const { first, second, dispose } = await open()
    const one = testApp(first.db)
    const two = testApp(second.db)
    try {
      const [writer, reader] = [client(one), client(two)]
      const pedro = (await writer.login('paciente@innera.local')).access
      const paula = (await reader.login('profissional@innera.local')).access
      const paulaId = (await reader.get('/users/me/', { token: paula })).json.id
      const id = (await writer.post('/messages/conversations/', { with: paulaId }, { token: pedro })).json.id
      const controller = new AbortController()
      const response = await two.request(`${PUBLIC_URL}/messages/stream/`, { headers: { authorization: `Bearer ${paula}` }, signal: controller.signal })
      const body = response.body!.pipeThrough(new TextDecoderStream()).getReader()
      const texts: string[] = []
      const received = (async () => {
        let buffer = ''
        while (texts.length < 3) {
          const { value, done } = await body.read()
          if (done) break
          buffer += value
          // Whole events only: an event's blank line may come in a later chunk than its data.
          let end: number
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1]
            buffer = buffer.slice(end + 2)
            if (data) texts.push(JSON.parse(data).text)
          }
        }
      })()
      for (const text of ['um', 'dois', 'três']) await writer.post(`/messages/conversations/${id}/messages/`, { text }, { token: pedro })
      await received
      controller.abort()
      expect(texts).toEqual(['um', 'dois', 'três'])
    } finally {
      await one.services.messageBus.close()
      await two.services.messageBus.close()
      await dispose()
    }
  })
})

describe('an account deleted', () => {
  it('is counted on the "what goes" page, and leaves its messages to the other side in a closed conversation, without its files', async () => {
    const id = await pedroAndPaula()
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#fff' } }).png().toBuffer()
    const withFile = (text: string, name: string) => {
      const body = new FormData()
      body.set('text', text)
      body.append('attachments', new File([new Uint8Array(png)], name))
      return body
    }
    await send(tokens.pedro, id, 'Obrigado pela consulta!')
    const his = await api.post(`/messages/conversations/${id}/messages/`, withFile('Minha pressão hoje', 'pressao.png'), { token: tokens.pedro })
    const hers = await api.post(`/messages/conversations/${id}/messages/`, withFile('O plano da semana', 'plano.png'), { token: tokens.paula })
    expect([his.status, hers.status]).toEqual([201, 201])
    await api.call('PUT', '/users/me/notification-settings/', { body: { email: false, push: false }, token: tokens.pedro })
    const plan = await api.get('/users/me/deletion/', { token: tokens.pedro })
    expect(plan.json.removed_now).toContain('notification_settings')
    expect(plan.json.removed_now).toContain('message_attachments')
    expect(plan.json.removed_counts).toEqual({ message_attachments: 1 })
    expect(plan.json.kept).toContainEqual({ what: 'conversations', basis: 'other_party', until: null, count: 1 })

    const deleted = await api.post('/users/me/deletion/', { confirm: true, password: 'innera-demo-2025' }, { token: tokens.pedro })
    expect(deleted.status).toBe(200)
    const thread = await api.get(`/messages/conversations/${id}/`, { token: tokens.paula })
    expect(thread.json.conversation).toMatchObject({ closed: true, other: { first_name: '', last_name: '', photo: null } })
    expect(thread.json.messages).toEqual([
      expect.objectContaining({ text: 'Obrigado pela consulta!', mine: false }),
      // His text stays for her; his file is gone, hers stays.
      expect.objectContaining({ text: 'Minha pressão hoje', mine: false, attachments: [] }),
      expect.objectContaining({ text: 'O plano da semana', mine: true, attachments: [expect.objectContaining({ name: 'plano.png' })] }),
    ])
    expect(await database.db.select({ uploaderId: messageAttachments.uploaderId }).from(messageAttachments)).toEqual([{ uploaderId: ids.paula }])
    expect((await streamingApp.request(his.json.attachments[0].url)).status).toBe(404)
    expect((await send(tokens.paula, id, 'oi')).json).toMatchObject({ code: 'conversation_closed' })
    expect(await database.db.select().from(notificationSettings)).toEqual([])
    // His sessions are gone for good (the reset keeps only the sessions still there): no later test may use his token.
    tokens.pedro = ''
  })
})
