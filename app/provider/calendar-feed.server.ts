import { z } from 'zod'
import { providerJson, type SignedInCaller } from './fetch.server.ts'
import { appointmentStatuses, instant } from './appointment-schemas.ts'

/**
 * The private calendar feed (issue 12): the signed-in user creates (or replaces), reads and revokes
 * theirs; a phone's calendar then reads /calendario/<token>.ics, which asks the provider with the
 * token alone (no session: the token is the credential). Never log the token: the provider path
 * carrying it is redacted in app/http/log.server.ts.
 */

const feedStatusSchema = z.object({ active: z.boolean(), created_at: instant().nullable() })
const createdFeedSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,128}$/) })
const feedSchema = z.object({
  time_zone: z.string(),
  appointments: z.array(
    z.object({
      id: z.number().int(),
      status: z.enum(appointmentStatuses),
      start_time: instant(),
      end_time: instant(),
      other_first_name: z.string(),
    }),
  ),
})

/** A feed token as the app accepts it in its URL before asking the provider (base64url). */
export const FEED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,128}$/

export const getCalendarFeedStatus = (auth: SignedInCaller) => auth.call('/appointments/calendar-feed/', feedStatusSchema)

/** A new secret for the user's feed (the old one stops working); shown to the user once. */
export const createCalendarFeed = async (auth: SignedInCaller) => (await auth.call('/appointments/calendar-feed/', createdFeedSchema, { method: 'POST' })).token

export const revokeCalendarFeed = (auth: SignedInCaller) => auth.send('/appointments/calendar-feed/', { method: 'DELETE' })

/** The feed's appointments, asked with the token alone. */
export const getCalendarFeed = (token: string, signal?: AbortSignal) => providerJson(`/appointments/calendar-feed/${encodeURIComponent(token)}/`, feedSchema, { signal })
