import webpush from 'web-push'
import type { ProviderConfig } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import type { Logger } from '#server/log.ts'
import { serviceOf } from '#server/push/endpoints.ts'
import { deleteSubscription, subscriptionsOf } from '#server/push/subscriptions.ts'
import { resolveVapidKeys, type VapidKeys } from '#server/push/vapid.ts'

/** What a push says (decision 0087): the notice's words and the link, never a message's text. */
export type PushNotice = { userId: number; title: string; body: string; url: string; tag: string }

export type PushReport = { sent: number; removed: number; failed: number }

export type PushSender = {
  /** The VAPID public key browsers subscribe with (applicationServerKey). */
  publicKey: () => Promise<string>
  /** The notice to each of the user's browsers; a subscription the push service says is gone (404, 410) is deleted. */
  send: (notice: PushNotice) => Promise<PushReport>
}

/** A push waits at the push service at most a day for a browser that is offline; a later one replaces it (its Topic). */
const PUSH_TTL_SECONDS = 24 * 3600
const PUSH_TIMEOUT_MS = 10_000

/** The JSON the service worker (public/sw.js) reads. Pure. */
export function pushPayload(notice: PushNotice): string {
  return JSON.stringify({ title: notice.title, body: notice.body, url: notice.url, tag: notice.tag })
}

/** A push service's Topic (at most 32 base64url characters): a newer push of the same conversation replaces one not yet delivered. */
export function topicOf(tag: string): string {
  return tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32)
}

/**
 * Web Push through the `web-push` library (RFC 8030, 8291's aes128gcm, 8292's VAPID): the library
 * encrypts and signs (generateRequestDetails), and the request goes out through `fetch` with a
 * timeout, so the embedded fake at the provider's own address is reached in-process as the fake
 * Stripe and Google are. The keys are resolved once, on first use.
 */
export function createPushSender({ db, config, fetch, log }: { db: Database; config: ProviderConfig; fetch: typeof globalThis.fetch; log: Logger }): PushSender {
  let keys: Promise<VapidKeys> | undefined
  const vapid = () => {
    keys ??= resolveVapidKeys(db, config).then(
      ({ keys }) => keys,
      (error: unknown) => {
        keys = undefined
        throw error
      },
    )
    return keys
  }

  return {
    publicKey: async () => (await vapid()).publicKey,
    async send(notice) {
      const report: PushReport = { sent: 0, removed: 0, failed: 0 }
      const subscriptions = await subscriptionsOf(db, notice.userId)
      if (subscriptions.length === 0) return report
      const { publicKey, privateKey } = await vapid()
      const payload = pushPayload(notice)
      for (const subscription of subscriptions) {
        const service = serviceOf(subscription.endpoint)
        try {
          const details = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, payload, {
            vapidDetails: { subject: config.push.subject, publicKey, privateKey },
            TTL: PUSH_TTL_SECONDS,
            urgency: 'normal',
            topic: topicOf(notice.tag),
          })
          const response = await fetch(details.endpoint, { method: 'POST', headers: details.headers, body: new Uint8Array(details.body), signal: AbortSignal.timeout(PUSH_TIMEOUT_MS) })
          await response.body?.cancel()
          if (response.ok) report.sent += 1
          else if (response.status === 404 || response.status === 410) {
            await deleteSubscription(db, subscription.id, subscription.endpoint)
            report.removed += 1
          } else {
            report.failed += 1
            log({ level: 'warn', msg: 'push refused', service, status: response.status, user_id: notice.userId })
          }
        } catch (error) {
          report.failed += 1
          log({ level: 'warn', msg: 'push failed', service, user_id: notice.userId, error: error instanceof Error ? error.message : String(error) })
        }
      }
      return report
    },
  }
}
