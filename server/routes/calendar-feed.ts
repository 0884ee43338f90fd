import { feedAppointments, findFeed, findFeedOwner, createFeedToken, revokeFeed } from '#server/appointments/calendar-feeds.ts'
import { authenticate } from '#server/auth/authenticate.ts'
import { pathParam, type Api } from '#server/http/api.ts'
import { notFound } from '#server/http/errors.ts'
import type { Services } from '#server/services.ts'
import { shownFirstName } from '#server/person-names.ts'

const DAY = 24 * 3600 * 1000
/** The feed's window: this far back and ahead of now. */
const FEED_DAYS_BACK = 30
const FEED_DAYS_AHEAD = 365

// The secret (and what it opens) must not sit in any cache.
const NO_STORE = { 'Cache-Control': 'no-store' }

/**
 * The private calendar feed (issue 12). Signed in, any role: create or replace (the token is in
 * this answer only), read whether one is active, revoke. The feed itself is read with the token in
 * the path and no Bearer token (a phone's calendar subscribes to the app's URL, and the app asks
 * here): the caller's own appointments, with only the fields a calendar entry needs.
 */
export function registerCalendarFeedRoutes(api: Api, services: Services): void {
  const { db, clock } = services

  api.endpoint('/appointments/calendar-feed/', {
    GET: async (c) => {
      const { user } = await authenticate(c, services)
      const feed = await findFeed(db, user.id)
      return c.json({ active: feed !== undefined, created_at: feed ? feed.createdAt.toISOString() : null }, 200, NO_STORE)
    },
    POST: async (c) => {
      const { user } = await authenticate(c, services)
      const token = await createFeedToken(db, user.id, new Date(clock()))
      return c.json({ token }, 201, NO_STORE)
    },
    DELETE: async (c) => {
      const { user } = await authenticate(c, services)
      await revokeFeed(db, user.id)
      return c.body(null, 204)
    },
  })

  api.endpoint('/appointments/calendar-feed/:token{[A-Za-z0-9_-]+}/', {
    GET: async (c) => {
      const owner = await findFeedOwner(db, pathParam(c, 'token'))
      if (!owner) throw notFound()
      const now = clock()
      const rows = await feedAppointments(db, owner.id, new Date(now - FEED_DAYS_BACK * DAY), new Date(now + FEED_DAYS_AHEAD * DAY))
      return c.json(
        {
          time_zone: owner.timeZone,
          appointments: rows.map((row) => ({
            id: row.id,
            status: row.status,
            start_time: row.startTime.toISOString(),
            end_time: row.endTime.toISOString(),
            // As in e-mails: the first word of a name only (a stored name may predate the name rule).
            other_first_name: shownFirstName(row.otherFirstName),
          })),
        },
        200,
        NO_STORE,
      )
    },
  })
}
