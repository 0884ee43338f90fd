import { eq } from 'drizzle-orm'
import webpush from 'web-push'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { DatabaseHandle } from '#server/db/client.ts'
import { notificationSettings, outbox, pushSubscriptions, pushVapidKeys, users } from '#server/db/schema.ts'
import { messageNoticeTick } from '#server/jobs.ts'
import { insertMessage, openConversation, saveNotificationSettings } from '#server/messages/repository.ts'
import { PUSH_SUBSCRIPTIONS_PER_USER } from '#server/push/subscriptions.ts'
import { resolveVapidKeys } from '#server/push/vapid.ts'
import { APP_URL, client, createMemoryDatabase, describeOnPostgres, fakeClock, PUBLIC_URL, resetDatabase, testApp } from '#server/testing/harness.ts'

const MINUTE = 60_000
const NOW = Date.UTC(2026, 11, 7, 15, 0) // 12:00 in São Paulo
const time = fakeClock(NOW)
let database: DatabaseHandle
let app: ProviderApp
let api: ReturnType<typeof client>
const tokens = { admin: '', paula: '', pedro: '', mariana: '' }
const ids = { paula: 0, pedro: 0 }

const idOf = async (email: string) => (await database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id

beforeAll(async () => {
  database = await createMemoryDatabase()
  app = testApp(database.db, { clock: time.clock })
  api = client(app)
  tokens.admin = (await api.login('admin@innera.local')).access
  tokens.paula = (await api.login('profissional@innera.local')).access
  tokens.pedro = (await api.login('paciente@innera.local')).access
  tokens.mariana = (await api.login('paciente2@innera.local')).access
  ids.paula = await idOf('profissional@innera.local')
  ids.pedro = await idOf('paciente@innera.local')
})
afterAll(async () => {
  await app.services.messageBus.close()
  await database.close()
})
beforeEach(async () => {
  await resetDatabase(database.db)
  time.set(NOW)
})

type FakeSubscription = { id: string; endpoint: string; keys: { p256dh: string; auth: string } }

/** What a browser's PushManager.subscribe gives, from the fake push service, for the provider's VAPID key. */
async function browserSubscription(key?: string): Promise<FakeSubscription> {
  const applicationServerKey = key ?? (await api.get('/push/vapid-public-key/', { token: tokens.pedro })).json.public_key
  const response = await api.post('/fake-push/subscriptions/', { application_server_key: applicationServerKey })
  expect(response.status).toBe(201)
  return response.json
}

const subscribe = (token: string, subscription: { endpoint: string; keys: { p256dh: string; auth: string } }) =>
  api.post('/users/me/push-subscriptions/', { endpoint: subscription.endpoint, keys: subscription.keys }, { token })

const pushesTo = async (subscription: FakeSubscription) => (await api.get(`/fake-push/subscriptions/${subscription.id}/messages/`)).json.results as { payload: string | null; topic: string | null; ttl: number; urgency: string }[]

async function paulaWritesPedro(at: number, body = 'Sua glicemia de ontem está ótima.') {
  const { conversation } = await openConversation(database.db, ids.pedro, ids.paula)
  await insertMessage(database.db, { conversation, senderId: ids.paula, side: 'professional', body, now: new Date(at) })
  return conversation
}

const tickAt = (at: number) => {
  time.set(at)
  return messageNoticeTick(app.services)
}

describe('the VAPID key pair', () => {
  it('is made once, kept in the database, and the same for every process and restart', async () => {
    const first = await api.get('/push/vapid-public-key/', { token: tokens.pedro })
    expect(first.status).toBe(200)
    expect(first.headers.get('cache-control')).toBe('private, no-store')
    expect(first.json.public_key).toMatch(/^B[A-Za-z0-9_-]{86}$/)
    // Another process (or a restart) on the same database: the same key.
    const other = client(testApp(database.db, { clock: time.clock }))
    expect((await other.get('/push/vapid-public-key/', { token: tokens.paula })).json.public_key).toBe(first.json.public_key)
    expect(await database.db.select({ id: pushVapidKeys.id }).from(pushVapidKeys)).toHaveLength(1)
    expect((await api.get('/push/vapid-public-key/')).status).toBe(401)
  })

  it("is the operator's when VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set", async () => {
    const keys = webpush.generateVAPIDKeys()
    const given = client(testApp(database.db, { clock: time.clock, env: { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey } }))
    expect((await given.get('/push/vapid-public-key/', { token: tokens.pedro })).json.public_key).toBe(keys.publicKey)
  })
})

describe('push subscriptions', () => {
  it('are taken from patients and professionals, not admins nor strangers, and turn the push channel on', async () => {
    const browser = await browserSubscription()
    expect((await subscribe('', browser)).status).toBe(401)
    expect((await subscribe(tokens.admin, browser)).status).toBe(403)
    const created = await subscribe(tokens.pedro, browser)
    expect(created.status).toBe(201)
    expect(created.headers.get('cache-control')).toBe('private, no-store')
    expect(created.json).toMatchObject({ service: 'provider.test' })
    expect((await subscribe(tokens.pedro, browser)).status).toBe(200)
    expect((await subscribe(tokens.paula, await browserSubscription())).status).toBe(201)
    const [settings] = await database.db.select().from(notificationSettings).where(eq(notificationSettings.userId, ids.pedro))
    expect(settings).toMatchObject({ push: true, email: true })
    const listed = await api.get('/users/me/push-subscriptions/', { token: tokens.pedro })
    expect(listed.json.count).toBe(1)
    expect(JSON.stringify(listed.json)).not.toContain(browser.endpoint)
    expect((await api.get('/users/me/push-subscriptions/', { token: tokens.admin })).status).toBe(403)
  })

  it("refuse what is not a browser's push service, and malformed keys", async () => {
    const browser = await browserSubscription()
    const refused = async (endpoint: string, keys = browser.keys) => {
      const response = await subscribe(tokens.pedro, { endpoint, keys })
      expect(response.status).toBe(400)
      return response.json
    }
    expect(await refused('http://169.254.169.254/latest/meta-data/')).toHaveProperty('endpoint')
    expect(await refused('https://fcm.googleapis.com.evil.example/fcm/send/x')).toHaveProperty('endpoint')
    expect(await refused(`${PUBLIC_URL}/users/me/`)).toHaveProperty('endpoint')
    expect(await refused(`https://fcm.googleapis.com/fcm/send/${'x'.repeat(1100)}`)).toHaveProperty('endpoint')
    expect(await refused(browser.endpoint, { p256dh: 'not-a-key', auth: browser.keys.auth })).toHaveProperty('keys')
    expect(await refused(browser.endpoint, { p256dh: browser.keys.p256dh, auth: 'AAAA' })).toHaveProperty('keys')
    // A real push service's endpoint is taken (nothing is sent to it here).
    expect((await subscribe(tokens.pedro, { endpoint: 'https://fcm.googleapis.com/fcm/send/abc:def', keys: browser.keys })).status).toBe(201)
  })

  it('are unique by endpoint: a browser subscribed by another user becomes the new one', async () => {
    const browser = await browserSubscription()
    await subscribe(tokens.pedro, browser)
    expect((await subscribe(tokens.mariana, browser)).status).toBe(200)
    const rows = await database.db.select().from(pushSubscriptions)
    expect(rows).toHaveLength(1)
    expect(rows[0]!.userId).toBe(await idOf('paciente2@innera.local'))
  })

  it(`are at most ${PUSH_SUBSCRIPTIONS_PER_USER} a user: the oldest goes`, async () => {
    const browser = await browserSubscription()
    for (let index = 0; index <= PUSH_SUBSCRIPTIONS_PER_USER; index += 1) {
      time.set(NOW + index * 1000)
      expect((await subscribe(tokens.pedro, { endpoint: `https://fcm.googleapis.com/fcm/send/device-${index}`, keys: browser.keys })).status).toBe(201)
    }
    const endpoints = (await database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, ids.pedro))).map((row) => row.endpoint)
    expect(endpoints).toHaveLength(PUSH_SUBSCRIPTIONS_PER_USER)
    expect(endpoints).not.toContain('https://fcm.googleapis.com/fcm/send/device-0')
  })

  it("are removed by their owner only: another's endpoint is 404 and stays", async () => {
    const browser = await browserSubscription()
    await subscribe(tokens.pedro, browser)
    expect((await api.post('/users/me/push-subscriptions/delete/', { endpoint: browser.endpoint }, { token: tokens.mariana })).status).toBe(404)
    expect((await api.post('/users/me/push-subscriptions/delete/', { endpoint: browser.endpoint }, { token: tokens.admin })).status).toBe(403)
    expect(await database.db.select().from(pushSubscriptions)).toHaveLength(1)
    const removed = await api.post('/users/me/push-subscriptions/delete/', { endpoint: browser.endpoint }, { token: tokens.pedro })
    expect(removed.status).toBe(200)
    expect(await database.db.select().from(pushSubscriptions)).toHaveLength(0)
    expect((await api.post('/users/me/push-subscriptions/delete/', { endpoint: browser.endpoint }, { token: tokens.pedro })).status).toBe(404)
  })
})

describe('a push of a message waiting', () => {
  it('arrives at the push service encrypted, with the words of the e-mail and the link, never the text, once', async () => {
    const browser = await browserSubscription()
    await subscribe(tokens.pedro, browser)
    const conversation = await paulaWritesPedro(NOW)
    await tickAt(NOW + 14 * MINUTE)
    expect(await pushesTo(browser)).toEqual([])
    await tickAt(NOW + 15 * MINUTE)
    await tickAt(NOW + 16 * MINUTE)
    const pushes = await pushesTo(browser)
    expect(pushes).toHaveLength(1)
    expect(pushes[0]).toMatchObject({ topic: `conversation-${conversation.id}`, urgency: 'normal', ttl: 86_400 })
    // Decrypted as the browser would (RFC 8291), by the fake's own code, apart from web-push's.
    expect(JSON.parse(pushes[0]!.payload!)).toEqual({ title: 'Innera', body: 'Você tem uma nova mensagem de Paula na Innera', url: `${APP_URL}/mensagens/${conversation.id}`, tag: `conversation-${conversation.id}` })
    expect(pushes[0]!.payload).not.toContain('glicemia')
    // The e-mail goes too (e-mail on by default).
    expect(await database.db.select().from(outbox).where(eq(outbox.to, 'paciente@innera.local'))).toHaveLength(1)
  })

  it('is not sent with the push channel off, waits out quiet hours, and goes alone with e-mail off', async () => {
    const browser = await browserSubscription()
    await subscribe(tokens.pedro, browser)
    await saveNotificationSettings(database.db, ids.pedro, { email: true, push: false, quiet: null }, new Date(NOW))
    await paulaWritesPedro(NOW)
    await tickAt(NOW + 15 * MINUTE)
    expect(await pushesTo(browser)).toEqual([])
    expect(await database.db.select().from(outbox).where(eq(outbox.to, 'paciente@innera.local'))).toHaveLength(1)

    await resetDatabase(database.db)
    time.set(NOW)
    const again = await browserSubscription()
    await subscribe(tokens.pedro, again)
    // Quiet from 12:10 to 13:00 in São Paulo, e-mail off: nothing until 13:00, then the push alone.
    await saveNotificationSettings(database.db, ids.pedro, { email: false, push: true, quiet: { start: '12:10', end: '13:00' } }, new Date(NOW))
    await paulaWritesPedro(NOW)
    expect(await tickAt(NOW + 15 * MINUTE)).toEqual({ sent: 0, quiet: 1 })
    expect(await pushesTo(again)).toEqual([])
    expect(await tickAt(NOW + 60 * MINUTE)).toEqual({ sent: 1, quiet: 0 })
    expect(await pushesTo(again)).toHaveLength(1)
    expect(await database.db.select().from(outbox).where(eq(outbox.to, 'paciente@innera.local'))).toHaveLength(0)
  })

  it('removes a subscription the push service says is gone (410), and keeps one it refused otherwise', async () => {
    const gone = await browserSubscription()
    await subscribe(tokens.pedro, gone)
    expect((await api.post(`/fake-push/subscriptions/${gone.id}/gone/`)).status).toBe(200)
    // Made for another VAPID key: the push service answers 403, which is no reason to forget the browser.
    const otherKey = await browserSubscription(webpush.generateVAPIDKeys().publicKey)
    await subscribe(tokens.pedro, otherKey)
    await paulaWritesPedro(NOW)
    await tickAt(NOW + 15 * MINUTE)
    const left = await database.db.select({ endpoint: pushSubscriptions.endpoint }).from(pushSubscriptions)
    expect(left.map((row) => row.endpoint)).toEqual([otherKey.endpoint])
    expect(await pushesTo(otherKey)).toEqual([])
  })
})

describe('the fake push service', () => {
  it('speaks the protocol: a VAPID Authorization for its key, a TTL and aes128gcm, else refused', async () => {
    const keys = webpush.generateVAPIDKeys()
    const browser = await browserSubscription(keys.publicKey)
    const post = (headers: Record<string, string>, body: Uint8Array<ArrayBuffer>) => app.request(browser.endpoint, { method: 'POST', headers, body })
    const details = webpush.generateRequestDetails(browser, 'hello', { vapidDetails: { subject: 'mailto:ops@example.com', ...keys }, TTL: 60 })
    const headers = details.headers as Record<string, string>
    const body = new Uint8Array(details.body)
    expect((await post({ ...headers, Authorization: 'vapid t=x.y.z, k=abc' }, body)).status).toBe(401)
    const { TTL: _ttl, ...noTtl } = headers
    expect((await post(noTtl, body)).status).toBe(400)
    const accepted = await post(headers, body)
    expect(accepted.status).toBe(201)
    expect(accepted.headers.get('location')).toMatch(/\/fake-push\/messages\/\d+$/)
    expect((await pushesTo(browser)).map((push) => push.payload)).toEqual(['hello'])
    expect((await app.request(`${PUBLIC_URL}/fake-push/send/${'x'.repeat(24)}`, { method: 'POST', headers, body })).status).toBe(404)
  })
})

describe('an account deleted', () => {
  it('takes its browsers with it, and says so on the "what goes" page', async () => {
    await subscribe(tokens.mariana, await browserSubscription())
    const plan = await api.get('/users/me/deletion/', { token: tokens.mariana })
    expect(plan.json.removed_now).toContain('push_subscriptions')
    const deleted = await api.post('/users/me/deletion/', { confirm: true, password: 'innera-demo-2025' }, { token: tokens.mariana })
    expect(deleted.status).toBe(200)
    expect(await database.db.select().from(pushSubscriptions)).toEqual([])
    // Her sessions are gone for good: no later test may use her token.
    tokens.mariana = ''
  })
})

await describeOnPostgres('PostgreSQL: Web Push from two processes', (open) => {
  it('makes one VAPID key pair when both start at once, and pushes a notice once', async () => {
    const { first, second, dispose } = await open()
    try {
      const config = app.services.config
      const keys = await Promise.all([resolveVapidKeys(first.db, config), resolveVapidKeys(second.db, config), resolveVapidKeys(first.db, config)])
      expect(new Set(keys.map((resolved) => resolved.keys.publicKey)).size).toBe(1)
      expect(keys.filter((resolved) => resolved.made)).toHaveLength(1)

      const apps = [testApp(first.db, { clock: time.clock }), testApp(second.db, { clock: time.clock })]
      const one = client(apps[0]!)
      const browser = (await one.post('/fake-push/subscriptions/', { application_server_key: keys[0]!.keys.publicKey })).json as FakeSubscription
      const idIn = async (email: string) => (await first.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id
      const [pedro, paula] = [await idIn('paciente@innera.local'), await idIn('profissional@innera.local')]
      time.set(NOW)
      const token = (await one.login('paciente@innera.local')).access
      expect((await one.post('/users/me/push-subscriptions/', { endpoint: browser.endpoint, keys: browser.keys }, { token })).status).toBe(201)
      const { conversation } = await openConversation(first.db, pedro, paula)
      await insertMessage(first.db, { conversation, senderId: paula, side: 'professional', body: 'oi', now: new Date(NOW) })
      time.set(NOW + 15 * MINUTE)
      await Promise.all(Array.from({ length: 6 }, (_, index) => messageNoticeTick(apps[index % 2]!.services)))
      expect((await one.get(`/fake-push/subscriptions/${browser.id}/messages/`)).json.results).toHaveLength(1)
      for (const each of apps) await each.services.messageBus.close()
    } finally {
      await dispose()
    }
  })
})
