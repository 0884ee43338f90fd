import { z } from 'zod'
import { addDays } from '#server/dates.ts'
import { CALENDAR_SCOPE } from '#server/google/calendar-api.ts'
import {
  allFakeEvents,
  changeFakeEvent,
  DEFAULT_MAX_RESULTS,
  deleteFakeEvent,
  expireFakeSyncTokens,
  fakeBusyPeriods,
  fakeCalendarOf,
  FakeCalendarError,
  getFakeEvent,
  insertFakeEvent,
  isOwnCalendar,
  listFakeEvents,
  MAX_RESULTS_LIMIT,
  presentFakeEvent,
  type FakeAccount,
} from '#server/fakes/google/calendar-store.ts'
import { findLiveGrant, revokeFakeGrantsOf, verifyFakeAccessToken } from '#server/fakes/google/grants.ts'
import { customIdentity } from '#server/fakes/google/identities.ts'
import { pathParam, type Api, type AppContext } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { charField, choiceField, dateField, emailField, instantField, integerField, parseInstant, validate } from '#server/http/fields.ts'
import type { Services } from '#server/services.ts'

const V3 = '/fake-google/calendar/v3'
const NO_STORE = { 'Cache-Control': 'no-store' }

/** An error body as Google's APIs write it. */
function googleError(c: AppContext, error: FakeCalendarError): Response {
  const status = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 409: 'ALREADY_EXISTS', 410: 'FAILED_PRECONDITION' }[error.status]
  return c.json(
    { error: { code: error.status, message: error.message, errors: [{ domain: 'global', reason: error.reason, message: error.message }], ...(status && { status }) } },
    error.status as 400,
    NO_STORE,
  )
}

/** Runs a Calendar API handler, answering a FakeCalendarError as Google would. */
const googleStyle =
  (handler: (c: AppContext) => Promise<Response>) =>
  async (c: AppContext): Promise<Response> => {
    try {
      return await handler(c)
    } catch (error) {
      if (error instanceof FakeCalendarError) return googleError(c, error)
      throw error
    }
  }

const badRequest = (message = 'Bad Request') => new FakeCalendarError(400, 'badRequest', message)

const accountOfEmail = (email: string): FakeAccount => {
  const identity = customIdentity(email, '')
  return { subject: identity.subject, email: identity.email }
}

/**
 * The fake Google's Calendar v3 (only with FAKE_GOOGLE): the primary calendar, events (list
 * with time bounds, pages and sync tokens; insert, get, patch, update, delete) and freeBusy,
 * with Google's resource and error shapes, authorised by the fake's access tokens for the
 * calendar scope. Under `/fake-google/dev/calendar/` the helpers tests and e2e runs use to play
 * the Google side: put an event in an account's calendar, look at it, revoke the account's
 * grants, expire its sync tokens.
 */
export function registerFakeGoogleCalendarRoutes(api: Api, services: Services): void {
  const { db, clock, config } = services
  const htmlBase = `${config.providerPublicUrl}/fake-google`

  /** The account behind the Bearer token: an unexpired access token of a live grant for the calendar scope. */
  async function caller(c: AppContext): Promise<FakeAccount> {
    const token = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
    const claims = token ? await verifyFakeAccessToken(db, { issuer: config.google.issuer, token, now: clock() }) : undefined
    const grant = typeof claims?.gid === 'number' ? await findLiveGrant(db, claims.gid) : undefined
    if (!claims || !grant) throw new FakeCalendarError(401, 'authError', 'Invalid Credentials')
    if (!String(claims.scope ?? '').split(' ').includes(CALENDAR_SCOPE)) throw new FakeCalendarError(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.')
    return { subject: grant.subject, email: grant.email }
  }

  async function ownCalendar(c: AppContext): Promise<FakeAccount> {
    const account = await caller(c)
    if (!isOwnCalendar(account, pathParam(c, 'calendarId'))) throw new FakeCalendarError(404, 'notFound', 'Not Found')
    return account
  }

  const present = (row: Parameters<typeof presentFakeEvent>[0], account: FakeAccount) => presentFakeEvent(row, account, htmlBase)

  api.endpoint(`${V3}/calendars/:calendarId`, {
    GET: googleStyle(async (c) => {
      const account = await ownCalendar(c)
      const calendar = await fakeCalendarOf(db, account)
      return c.json({ kind: 'calendar#calendar', etag: `"${account.subject}"`, id: calendar.id, summary: calendar.id, timeZone: calendar.timeZone }, 200, NO_STORE)
    }),
  })

  api.endpoint(`${V3}/calendars/:calendarId/events`, {
    GET: googleStyle(async (c) => {
      const account = await ownCalendar(c)
      const query = (name: string) => c.req.query(name)
      const instant = (name: string) => {
        const raw = query(name)
        if (raw === undefined) return undefined
        const value = parseInstant(raw)
        if (value === undefined) throw badRequest()
        return value
      }
      const syncToken = query('syncToken')
      // Google refuses to narrow an incremental sync: the changes are the calendar's, whole.
      if (syncToken !== undefined && ['timeMin', 'timeMax', 'orderBy', 'q', 'updatedMin', 'iCalUID'].some((name) => query(name) !== undefined)) {
        throw new FakeCalendarError(400, 'invalid', 'Sync token cannot be combined with timeMin, timeMax, orderBy, q, updatedMin or iCalUID.')
      }
      const rawMax = query('maxResults')
      const maxResults = rawMax === undefined ? DEFAULT_MAX_RESULTS : /^\d{1,6}$/.test(rawMax) && Number(rawMax) >= 1 ? Math.min(Number(rawMax), MAX_RESULTS_LIMIT) : NaN
      if (Number.isNaN(maxResults)) throw new FakeCalendarError(400, 'invalid', 'Invalid value for maxResults.')
      const calendar = await fakeCalendarOf(db, account)
      const page = await listFakeEvents(
        db,
        account,
        { timeMin: instant('timeMin'), timeMax: instant('timeMax'), showDeleted: query('showDeleted') === 'true', maxResults, syncToken, pageToken: query('pageToken') },
        clock(),
      )
      return c.json(
        {
          kind: 'calendar#events',
          summary: calendar.id,
          updated: new Date(clock()).toISOString(),
          timeZone: calendar.timeZone,
          accessRole: 'owner',
          defaultReminders: [],
          ...(page.nextPageToken && { nextPageToken: page.nextPageToken }),
          ...(page.nextSyncToken && { nextSyncToken: page.nextSyncToken }),
          items: page.rows.map((row) => present(row, account)),
        },
        200,
        NO_STORE,
      )
    }),
    POST: googleStyle(async (c) => {
      const account = await ownCalendar(c)
      return c.json(present(await insertFakeEvent(db, account, await readFields(c.req.raw), clock()), account), 200, NO_STORE)
    }),
  })

  const changeEvent = (mode: 'patch' | 'update') =>
    googleStyle(async (c) => {
      const account = await ownCalendar(c)
      const row = await changeFakeEvent(db, account, pathParam(c, 'eventId'), await readFields(c.req.raw), mode, clock())
      return c.json(present(row, account), 200, NO_STORE)
    })

  api.endpoint(`${V3}/calendars/:calendarId/events/:eventId`, {
    GET: googleStyle(async (c) => {
      const account = await ownCalendar(c)
      return c.json(present(await getFakeEvent(db, account, pathParam(c, 'eventId')), account), 200, NO_STORE)
    }),
    PATCH: changeEvent('patch'),
    PUT: changeEvent('update'),
    DELETE: googleStyle(async (c) => {
      const account = await ownCalendar(c)
      await deleteFakeEvent(db, account, pathParam(c, 'eventId'), clock())
      return c.body(null, 204)
    }),
  })

  api.endpoint(`${V3}/freeBusy`, {
    POST: googleStyle(async (c) => {
      const account = await caller(c)
      const body = await readFields(c.req.raw)
      const timeMin = typeof body.timeMin === 'string' ? parseInstant(body.timeMin) : undefined
      const timeMax = typeof body.timeMax === 'string' ? parseInstant(body.timeMax) : undefined
      if (timeMin === undefined || timeMax === undefined) throw new FakeCalendarError(400, 'required', 'Missing timeMin or timeMax.')
      if (timeMax <= timeMin) throw new FakeCalendarError(400, 'timeRangeEmpty', 'The specified time range is empty.')
      const items = Array.isArray(body.items) ? (body.items as { id?: unknown }[]) : []
      const calendars: Record<string, unknown> = {}
      for (const item of items) {
        if (typeof item?.id !== 'string') continue
        calendars[item.id] = isOwnCalendar(account, item.id)
          ? { busy: (await fakeBusyPeriods(db, account, timeMin, timeMax)).map((period) => ({ start: new Date(period.start).toISOString(), end: new Date(period.end).toISOString() })) }
          : { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] }
      }
      return c.json({ kind: 'calendar#freeBusy', timeMin: new Date(timeMin).toISOString(), timeMax: new Date(timeMax).toISOString(), calendars }, 200, NO_STORE)
    }),
  })

  registerDevHelpers(api, services, htmlBase)
}

const externalEventSchema = z.object({
  email: emailField(),
  summary: charField({ maxLength: 500, allowBlank: true }).optional(),
  description: charField({ maxLength: 5000, allowBlank: true, trim: false }).optional(),
  start: instantField().optional(),
  end: instantField().optional(),
  date: dateField().optional(),
  days: integerField({ min: 1, max: 31 }).optional(),
  transparency: choiceField(['opaque', 'transparent']).optional(),
  status: choiceField(['confirmed', 'tentative']).optional(),
  response_status: choiceField(['accepted', 'declined', 'tentative', 'needsAction']).optional(),
})

const accountSchema = z.object({ email: emailField() })

/** An event someone else put in the calendar (or the owner, in Google's own app): what the dev helper writes. */
function externalEvent(input: z.output<typeof externalEventSchema>, calendarEmail: string): Record<string, unknown> {
  const times = input.date
    ? { start: { date: input.date }, end: { date: addDays(input.date, input.days ?? 1) } }
    : { start: { dateTime: new Date(input.start!).toISOString() }, end: { dateTime: new Date(input.end!).toISOString() } }
  // An invitation: someone else organises it and the owner answered (or not yet).
  const invitation = input.response_status && {
    organizer: { email: 'organizer@example.test' },
    attendees: [
      { email: 'organizer@example.test', organizer: true, responseStatus: 'accepted' },
      { email: calendarEmail, responseStatus: input.response_status },
    ],
  }
  return {
    summary: input.summary ?? '',
    ...(input.description !== undefined && { description: input.description }),
    ...times,
    ...(input.transparency && { transparency: input.transparency }),
    ...(input.status && { status: input.status }),
    ...invitation,
  }
}

function registerDevHelpers(api: Api, { db, clock }: Services, htmlBase: string): void {
  api.endpoint('/fake-google/dev/calendar/events/', {
    GET: async (c) => {
      const { email } = validate(accountSchema, { email: c.req.query('email') })
      const account = accountOfEmail(email)
      const rows = await allFakeEvents(db, account)
      return c.json({ email: account.email, items: rows.map((row) => presentFakeEvent(row, account, htmlBase)) }, 200, NO_STORE)
    },
    POST: async (c) => {
      const input = validate(externalEventSchema, await readFields(c.req.raw))
      if (!input.date && (input.start === undefined || input.end === undefined)) {
        return c.json({ non_field_errors: ['Give start and end (instants), or date (an all-day event).'] }, 400)
      }
      const account = accountOfEmail(input.email)
      try {
        const row = await insertFakeEvent(db, account, externalEvent(input, account.email), clock())
        return c.json(presentFakeEvent(row, account, htmlBase), 201, NO_STORE)
      } catch (error) {
        if (error instanceof FakeCalendarError) return c.json({ non_field_errors: [error.message] }, 400)
        throw error
      }
    },
  })

  api.endpoint('/fake-google/dev/calendar/revoke/', {
    POST: async (c) => {
      const { email } = validate(accountSchema, await readFields(c.req.raw))
      return c.json({ revoked: await revokeFakeGrantsOf(db, accountOfEmail(email).subject, clock()) })
    },
  })

  api.endpoint('/fake-google/dev/calendar/expire-sync-tokens/', {
    POST: async (c) => {
      const { email } = validate(accountSchema, await readFields(c.req.raw))
      return c.json({ expired: await expireFakeSyncTokens(db, accountOfEmail(email).subject, clock()) })
    },
  })
}
