import { randomBytes } from 'node:crypto'
import { asc, eq } from 'drizzle-orm'
import { z } from 'zod'
import { fakePushMessages, fakePushSubscriptions } from '#server/db/schema.ts'
import { pathParam, type Api, type AppContext } from '#server/http/api.ts'
import { FAKE_PUSH_PATH } from '#server/push/endpoints.ts'
import { browserKeys, checkVapid, decryptPush, fromB64url } from '#server/fakes/push/protocol.ts'
import type { Services } from '#server/services.ts'

const NO_STORE = { 'Cache-Control': 'no-store' }
const BASE = '/fake-push'
/** RFC 8030 asks a push service to take at least 4,096 bytes of payload; aes128gcm adds its header (86) and tag and delimiter (17). */
const MAX_BODY_BYTES = 4096 + 103
const ID = /^[A-Za-z0-9_-]{16,40}$/
const MESSAGES_SHOWN = 50

const subscribeBody = z.object({ application_server_key: z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'application_server_key must be a P-256 public key, base64url') })

/**
 * The fake push service (only with FAKE_PUSH; decision 0087), so that `npm start` works offline and
 * tests see pushes arrive. It plays both ends a real one joins:
 * - the browser's half: `POST /fake-push/subscriptions/ {application_server_key}` answers what
 *   PushManager.subscribe gives (`{endpoint, keys: {p256dh, auth}}`), the keys made and kept here;
 *   `POST /fake-push/subscriptions/{id}/gone/` unsubscribes it (as a browser does), after which
 *   its endpoint answers 410; `GET /fake-push/subscriptions/{id}/messages/` lists what arrived, decrypted;
 * - the push service's own (RFC 8030): `POST /fake-push/send/{id}` takes a push as `web-push`
 *   posts it: a TTL, `Content-Encoding: aes128gcm`, at most 4 KB of payload, and a VAPID
 *   Authorization (RFC 8292) signed by the key the subscription was made for (else 401 or 403, as
 *   push services answer), then 201 with its Location; an unknown endpoint 404, a gone one 410.
 */
export function registerFakePushRoutes(api: Api, services: Services): void {
  const { db, clock, config } = services
  const origin = new URL(config.providerPublicUrl).origin

  const subscriptionOf = async (c: AppContext) => {
    const id = pathParam(c, 'id')
    if (!ID.test(id)) return undefined
    const [row] = await db.select().from(fakePushSubscriptions).where(eq(fakePushSubscriptions.id, id))
    return row
  }

  api.endpoint(`${BASE}/subscriptions/`, {
    POST: async (c) => {
      let body: unknown
      try {
        body = await c.req.json()
      } catch {
        return c.json({ error: 'a JSON body is expected' }, 400, NO_STORE)
      }
      const parsed = subscribeBody.safeParse(body)
      if (!parsed.success) return c.json({ error: parsed.error.issues[0]!.message }, 400, NO_STORE)
      const id = randomBytes(18).toString('base64url')
      const keys = browserKeys()
      await db.insert(fakePushSubscriptions).values({ id, applicationServerKey: parsed.data.application_server_key, ...keys, createdAt: new Date(clock()) })
      return c.json({ id, endpoint: `${config.providerPublicUrl}${FAKE_PUSH_PATH}/${id}`, expirationTime: null, keys: { p256dh: keys.publicKey, auth: keys.auth } }, 201, NO_STORE)
    },
  })

  api.endpoint(`${BASE}/subscriptions/:id/gone/`, {
    POST: async (c) => {
      const subscription = await subscriptionOf(c)
      if (!subscription) return c.json({ error: 'no such subscription' }, 404, NO_STORE)
      await db.update(fakePushSubscriptions).set({ gone: true }).where(eq(fakePushSubscriptions.id, subscription.id))
      return c.json({ gone: true }, 200, NO_STORE)
    },
  })

  api.endpoint(`${BASE}/subscriptions/:id/messages/`, {
    GET: async (c) => {
      const subscription = await subscriptionOf(c)
      if (!subscription) return c.json({ error: 'no such subscription' }, 404, NO_STORE)
      const rows = await db.select().from(fakePushMessages).where(eq(fakePushMessages.subscriptionId, subscription.id)).orderBy(asc(fakePushMessages.id)).limit(MESSAGES_SHOWN)
      const results = rows.map((row) => {
        let payload: string | null = null
        try {
          payload = decryptPush(fromB64url(row.body), subscription)
        } catch {
          payload = null
        }
        return { id: row.id, received_at: row.receivedAt.toISOString(), ttl: row.ttl, urgency: row.urgency, topic: row.topic, encrypted_bytes: fromB64url(row.body).length, payload }
      })
      return c.json({ results }, 200, NO_STORE)
    },
  })

  api.endpoint(`${FAKE_PUSH_PATH}/:id`, {
    POST: async (c) => {
      const subscription = await subscriptionOf(c)
      if (!subscription) return c.body(null, 404, NO_STORE)
      if (subscription.gone) return c.body(null, 410, NO_STORE)
      const ttl = c.req.header('ttl')
      if (!ttl || !/^\d{1,10}$/.test(ttl)) return c.json({ error: 'a TTL header is required' }, 400, NO_STORE)
      if (c.req.header('content-encoding')?.toLowerCase() !== 'aes128gcm') return c.json({ error: 'Content-Encoding must be aes128gcm' }, 415, NO_STORE)
      const urgency = c.req.header('urgency') ?? null
      if (urgency !== null && !['very-low', 'low', 'normal', 'high'].includes(urgency)) return c.json({ error: 'bad Urgency' }, 400, NO_STORE)
      const topic = c.req.header('topic') ?? null
      if (topic !== null && !/^[A-Za-z0-9_-]{1,32}$/.test(topic)) return c.json({ error: 'bad Topic' }, 400, NO_STORE)
      // The token's expiry against the wall clock, as a real push service (another machine) reads
      // it: web-push signs it from the wall clock too, whatever time the provider's clock says (a
      // test's fixed day would refuse every token from 24 hours after that day on).
      const vapid = checkVapid(c.req.header('authorization'), { audience: origin, now: Date.now() })
      if (!vapid.ok) return c.json({ error: vapid.problem }, 401, NO_STORE)
      if (vapid.publicKey !== subscription.applicationServerKey) return c.json({ error: 'the VAPID key is not the one the subscription was made with' }, 403, NO_STORE)
      const body = Buffer.from(await c.req.arrayBuffer())
      if (body.length > MAX_BODY_BYTES) return c.json({ error: 'payload too large' }, 413, NO_STORE)
      if (body.length === 0) return c.json({ error: 'an encrypted body is expected' }, 400, NO_STORE)
      const [row] = await db
        .insert(fakePushMessages)
        .values({ subscriptionId: subscription.id, body: body.toString('base64url'), ttl: Number(ttl), urgency, topic, receivedAt: new Date(clock()) })
        .returning({ id: fakePushMessages.id })
      return c.body(null, 201, { ...NO_STORE, Location: `${config.providerPublicUrl}${BASE}/messages/${row!.id}` })
    },
  })
}
