import { z } from 'zod'
import { authenticate, authenticateWithRole } from '#server/auth/authenticate.ts'
import type { Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { fieldError, notFound } from '#server/http/errors.ts'
import { charField, validate } from '#server/http/fields.ts'
import { PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import { base64UrlLength, endpointProblem, ENDPOINT_MAX_LENGTH, FAKE_PUSH_PATH, serviceOf } from '#server/push/endpoints.ts'
import { deleteOwnSubscription, saveSubscription, subscriptionsOf } from '#server/push/subscriptions.ts'
import type { Services } from '#server/services.ts'

const PRIVATE = { 'Cache-Control': PRIVATE_NO_STORE }

const subscribeSchema = z.object({
  endpoint: charField({ maxLength: ENDPOINT_MAX_LENGTH }),
  keys: z.object(
    {
      // The browser's P-256 public key (65 bytes, uncompressed) and its 16-byte auth secret, base64url (RFC 8291).
      p256dh: charField({ maxLength: 100 }).refine((value) => base64UrlLength(value) === 65 && value.startsWith('B'), 'Not a P-256 public key (65 bytes, base64url).'),
      auth: charField({ maxLength: 40 }).refine((value) => base64UrlLength(value) === 16, 'Not an auth secret (16 bytes, base64url).'),
    },
    { error: (issue) => (issue.input === undefined ? 'This field is required.' : 'Expected an object with p256dh and auth.') },
  ),
})
const unsubscribeSchema = z.object({ endpoint: charField({ maxLength: ENDPOINT_MAX_LENGTH }) })

/**
 * Web Push subscriptions (issue 44, decision 0087; docs/provider-api.md "Web Push"): the VAPID
 * public key a browser subscribes with, and the caller's browsers, added (which turns their push
 * channel on) and removed. Patients and professionals only: pushes tell of messages, which
 * admins never have. An endpoint must be a browser's push service (push/endpoints.ts).
 */
export function registerPushRoutes(api: Api, services: Services): void {
  const { db, clock, config } = services
  const fakeBase = config.push.fake ? `${config.providerPublicUrl}${FAKE_PUSH_PATH}` : undefined

  api.endpoint('/push/vapid-public-key/', {
    GET: async (c) => {
      await authenticate(c, services)
      return c.json({ public_key: await services.push.publicKey() }, 200, PRIVATE)
    },
  })

  api.endpoint('/users/me/push-subscriptions/', {
    GET: async (c) => {
      const caller = await authenticateWithRole(c, services, 'paciente', 'profissional')
      const rows = await subscriptionsOf(db, caller.user.id)
      return c.json({ count: rows.length, results: rows.map((row) => ({ id: row.id, service: serviceOf(row.endpoint), created_at: row.createdAt.toISOString() })) }, 200, PRIVATE)
    },
    POST: async (c) => {
      const caller = await authenticateWithRole(c, services, 'paciente', 'profissional')
      const input = validate(subscribeSchema, await readFields(c.req.raw))
      const problem = endpointProblem(input.endpoint, { fakeBase })
      if (problem) throw fieldError('endpoint', problem)
      const { row, created } = await saveSubscription(db, caller.user.id, { endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth }, new Date(clock()))
      return c.json({ id: row.id, service: serviceOf(row.endpoint), created_at: row.createdAt.toISOString() }, created ? 201 : 200, PRIVATE)
    },
  })

  api.endpoint('/users/me/push-subscriptions/delete/', {
    POST: async (c) => {
      const caller = await authenticateWithRole(c, services, 'paciente', 'profissional')
      const { endpoint } = validate(unsubscribeSchema, await readFields(c.req.raw))
      if (!(await deleteOwnSubscription(db, caller.user.id, endpoint))) throw notFound()
      return c.json({ deleted: true }, 200, PRIVATE)
    },
  })
}
