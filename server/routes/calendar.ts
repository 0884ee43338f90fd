import { and, eq } from 'drizzle-orm'
import { z } from 'zod'
import { findBookableProfessional, findProfile } from '#server/appointments/repository.ts'
import { addDays, startOfLocalDay } from '#server/dates.ts'
import { authenticate, authenticateWithRole, roleOf, type Caller } from '#server/auth/authenticate.ts'
import { deleteConnection, findConnection, isSyncRunning, saveConnection, type CalendarConnection } from '#server/calendar/connections.ts'
import { calendarNotConnected, calendarReconnect, googleFailed, invalidAuthorizationCode, syncFailed } from '#server/calendar/errors.ts'
import { manageLinkOf } from '#server/calendar/appointment-events.ts'
import { isTimeFree } from '#server/calendar/booking-check.ts'
import { googleEventOf, ownersText, parseEventPayload, type EventPayload } from '#server/calendar/event-payload.ts'
import {
  findStoredEvent,
  notesOf,
  removeStoredEvents,
  saveEventNotes,
  serializeStoredEvent,
  storedEventOf,
  storedEventsBetween,
  upsertStoredEvents,
} from '#server/calendar/event-store.ts'
import { withCalendar } from '#server/calendar/google-access.ts'
import { isCacheFresh } from '#server/calendar/sync-freshness.ts'
import { syncCalendar } from '#server/calendar/sync.ts'
import { appointments, groups, userGroups, users } from '#server/db/schema.ts'
import { GoogleApiError, type EventPage, type GoogleEvent, type GoogleTokens } from '#server/google/calendar-api.ts'
import { pathParam, type Api, type AppContext } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { ApiError, fieldError, notFound } from '#server/http/errors.ts'
import { booleanField, charField, choiceField, dateField, idField, instantField, validate } from '#server/http/fields.ts'
import { errorFields } from '#server/log.ts'
import type { Services } from '#server/services.ts'
import { enforceThrottle } from '#server/routes/throttling.ts'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
/** The longest window of dates GET /calendar/ answers for. */
const MAX_EVENT_WINDOW_DAYS = 62
/** The longest window POST /calendar/availability/ asks Google about for the professional or an admin (others: one consultation). */
const MAX_AVAILABILITY_DAYS = 62
const NO_STORE = { 'Cache-Control': 'no-store' }
/** A patient's check reads one page of Google's events on one consultation's time. */
const CHECK_PAGE_SIZE = 250

const httpUrlField = () =>
  charField({ maxLength: 2000 }).refine((value) => {
    try {
      const { protocol } = new URL(value)
      return protocol === 'http:' || protocol === 'https:'
    } catch {
      return false
    }
  }, 'Enter a valid URL.')

const authorizationSchema = z.object({
  redirect_uri: httpUrlField(),
  state: charField({ maxLength: 200, trim: false }).regex(/^[A-Za-z0-9_-]{16,200}$/, 'Enter 16 to 200 letters, digits, "-" or "_".'),
})

const connectSchema = z.object({
  // Google's codes are a few hundred characters at most; the bound keeps junk away from the token endpoint.
  auth_code: charField({ maxLength: 2048 }),
  integration_type: choiceField(['enable']),
  redirect_uri: httpUrlField(),
})

const syncSchema = z.object({ full: booleanField().optional() })

const availabilitySchema = z.object({ start_time: instantField(), end_time: instantField(), professional_id: idField() })

/** A date of the query, or its field error. */
const queryDate = dateField()
const eventsQuerySchema = z.object({ start_date: queryDate, end_date: queryDate, include_innera_events: booleanField().optional() })

/** Google's event ids: base32hex, or longer ids with "_" for instances; never a slash or a dot. */
const EVENT_PATH = '/calendar/:eventId{[A-Za-z0-9_-]{1,1024}}/'

/** The Status of decision 0025. */
function status(connection: CalendarConnection | undefined) {
  return {
    calendar_enabled: connection !== undefined,
    token_valid: connection?.tokenValid ?? false,
    primary_calendar_id: connection?.primaryCalendarId ?? null,
    last_sync: connection?.lastSyncAt?.toISOString() ?? null,
  }
}

/**
 * Google Calendar for professionals (decision 0025): the connection (authorization URL, code
 * exchange, status, disconnect), the synced events with the 5-minute cache, the product's own
 * events written to Google, the sync, and a live free/busy check for booking.
 */
export function registerCalendarRoutes(api: Api, services: Services): void {
  const { db, clock, googleCalendar, tokenSealer, log } = services

  const professional = (c: AppContext) => authenticateWithRole(c, services, 'profissional')

  /** The caller's usable connection: 400 calendar_not_connected, or calendar_reconnect after a refused grant. */
  async function usableConnection(userId: number): Promise<CalendarConnection> {
    const connection = await findConnection(db, userId)
    if (!connection) throw calendarNotConnected()
    if (!connection.tokenValid) throw calendarReconnect()
    return connection
  }

  /** Google failed at something else than the grant: the catalogue's message for the action. */
  const failedAt = (action: string) => (error: unknown) => {
    if (error instanceof ApiError) throw error
    log({ level: 'warn', msg: 'google calendar call failed', action, error: errorFields(error).error })
    throw googleFailed(`Não foi possível ${action} no Google Calendar`)
  }

  api.endpoint('/auth/google/calendar/', {
    POST: async (c) => {
      const { user } = await professional(c)
      const input = validate(authorizationSchema, await readFields(c.req.raw))
      // The professional's e-mail as login_hint: Google offers that account first.
      const url = googleCalendar.authorizationUrl({ redirectUri: input.redirect_uri, state: input.state, loginHint: user.email })
      return c.json({ authorization_url: url }, 200, NO_STORE)
    },
  })

  async function connect(c: AppContext, userId: number, fields: Record<string, unknown>): Promise<Response> {
    const input = validate(connectSchema, fields)
    let tokens: GoogleTokens
    try {
      tokens = await googleCalendar.exchangeCode(input.auth_code, input.redirect_uri)
    } catch (error) {
      if (error instanceof GoogleApiError && error.failure === 'invalid_grant') throw invalidAuthorizationCode()
      log({ level: 'warn', msg: 'google calendar code exchange failed', error: errorFields(error).error })
      throw googleFailed('Não foi possível conectar ao Google Calendar')
    }
    // Without a refresh token the calendar could not be read once the hour-long access token expires.
    if (!tokens.refreshToken) throw googleFailed('Não foi possível conectar ao Google Calendar: o Google não concedeu acesso offline.')
    const refreshToken = tokens.refreshToken
    let primary: { id: string; timeZone: string | undefined }
    try {
      primary = await googleCalendar.session(tokens, () => undefined).primaryCalendar()
    } catch (error) {
      log({ level: 'warn', msg: 'google calendar primary calendar read failed', error: errorFields(error).error })
      throw googleFailed('Não foi possível conectar ao Google Calendar')
    }
    await saveConnection(db, {
      userId,
      refreshTokenSealed: tokenSealer.seal(refreshToken),
      accessTokenSealed: tokens.accessToken ? tokenSealer.seal(tokens.accessToken) : null,
      accessTokenExpiresAt: tokens.expiresAt ? new Date(tokens.expiresAt) : null,
      scope: tokens.scope ?? '',
      // Google's primary calendar id is the account's e-mail address.
      googleEmail: primary.id.includes('@') ? primary.id : null,
      primaryCalendarId: primary.id,
      calendarTimeZone: primary.timeZone ?? null,
      now: new Date(clock()),
    })
    // The first full sync, after the answer. (A replaced grant is not revoked: at Google the same
    // account and client share one grant, and revoking the old token would revoke the new one.)
    services.background.run('first calendar sync', () =>
      syncCalendar(services, userId, { full: true }).catch((error: unknown) =>
        log({ level: 'warn', msg: 'first calendar sync failed', user_id: userId, error: errorFields(error).error }),
      ),
    )
    return c.json({ success: true, calendar_enabled: true })
  }

  async function revokeBestEffort(connection: CalendarConnection): Promise<void> {
    try {
      await googleCalendar.revoke(tokenSealer.open(connection.refreshTokenSealed))
    } catch (error) {
      log({ level: 'warn', msg: 'google calendar revoke failed', user_id: connection.userId, error: errorFields(error).error })
    }
  }

  async function listEvents(c: AppContext, caller: Caller): Promise<Response> {
    const query = validate(eventsQuerySchema, {
      start_date: c.req.query('start_date'),
      end_date: c.req.query('end_date'),
      include_innera_events: c.req.query('include_innera_events') || undefined,
    })
    if (query.end_date < query.start_date) throw fieldError('end_date', 'The end date must not be before the start date.')
    if (Date.parse(query.end_date) - Date.parse(query.start_date) >= MAX_EVENT_WINDOW_DAYS * DAY) {
      throw fieldError('end_date', `The window can span at most ${MAX_EVENT_WINDOW_DAYS} days.`)
    }
    let connection = await usableConnection(caller.user.id)
    const now = clock()
    let fromCache = true
    let syncError = false
    if (!isCacheFresh(connection.lastSyncAt, now)) {
      try {
        await syncCalendar(services, caller.user.id)
        fromCache = false
      } catch (error) {
        // Another sync is running: its result comes soon; meanwhile the stored events answer.
        if (error instanceof ApiError && error.body.code === 'sync_in_progress') fromCache = true
        else if (error instanceof ApiError && error.body.code === 'calendar_reconnect') throw error
        else {
          syncError = true
          log({ level: 'warn', msg: 'calendar sync before a read failed', user_id: caller.user.id, error: errorFields(error).error })
        }
      }
      connection = (await findConnection(db, caller.user.id)) ?? connection
    }
    // Local dates of the professional's schedule time zone (their own, before they have a schedule).
    const timeZone = (await findProfile(db, caller.user.id))?.timeZone ?? caller.user.timeZone
    const from = startOfLocalDay(query.start_date, timeZone)
    const to = startOfLocalDay(addDays(query.end_date, 1), timeZone)
    const events = await storedEventsBetween(db, caller.user.id, from, to, { includeInnera: query.include_innera_events ?? true })
    const notes = await notesOf(db, caller.user.id, events.map((event) => event.googleEventId))
    return c.json(
      { events: events.map((event) => serializeStoredEvent(event, notes.get(event.googleEventId))), last_sync: connection.lastSyncAt?.toISOString() ?? null, from_cache: fromCache, sync_error: syncError },
      200,
      NO_STORE,
    )
  }

  /** A consultation's related object is an appointment of this professional, or the payload is refused. */
  async function appointmentOfPayload(professionalId: number, type: string, relatedObjectId: number | null): Promise<number | null> {
    if (type !== 'consultation' || relatedObjectId === null) return null
    const [row] = await db
      .select({ id: appointments.id })
      .from(appointments)
      .where(and(eq(appointments.id, relatedObjectId), eq(appointments.professionalId, professionalId)))
    if (!row) throw fieldError('related_object_id', `Invalid pk "${relatedObjectId}" - object does not exist.`)
    return row.id
  }

  /**
   * Keeps Google's answer in the store (so the next read shows it at once) with the professional's
   * notes (here only: decision 0029; null keeps those already there), and serializes it.
   */
  async function storeWritten(event: GoogleEvent, userId: number, connection: CalendarConnection, { timeZone, notes }: { timeZone: string; notes: string | null }) {
    const owners = [connection.primaryCalendarId, connection.googleEmail].filter((owner): owner is string => !!owner)
    const stored = storedEventOf(event, userId, { owners, timeZone: connection.calendarTimeZone ?? timeZone })
    if (!stored) throw googleFailed('O Google Calendar respondeu com um evento inválido.')
    await db.transaction(async (tx) => {
      await upsertStoredEvents(tx, [stored])
      if (notes !== null) await saveEventNotes(tx, userId, stored.googleEventId, notes, new Date(clock()))
    })
    const saved = notes !== null ? notes.trim() : (await notesOf(db, userId, [stored.googleEventId])).get(stored.googleEventId)
    return serializeStoredEvent((await findStoredEvent(db, userId, stored.googleEventId))!, saved)
  }

  /** The Google event of a payload: the manage link for a consultation of the professional's, the owner's own text of an updated event kept. */
  const googleEventFor = (payload: EventPayload, { timeZone, appointmentId, keptDescription }: { timeZone: string; appointmentId: number | null; keptDescription?: string }) =>
    googleEventOf(payload, { timeZone, appointmentId, keptDescription, manageLink: appointmentId === null ? '' : manageLinkOf(services.config.appPublicUrl, appointmentId) })

  async function createEvent(c: AppContext, caller: Caller, fields: Record<string, unknown>): Promise<Response> {
    const payload = parseEventPayload(fields)
    const connection = await usableConnection(caller.user.id)
    const appointmentId = await appointmentOfPayload(caller.user.id, payload.type, payload.relatedObjectId)
    const timeZone = (await findProfile(db, caller.user.id))?.timeZone ?? caller.user.timeZone
    const event = await withCalendar(services, connection, (session, calendarId) => session.insertEvent(calendarId, googleEventFor(payload, { timeZone, appointmentId }))).catch(
      failedAt('criar evento'),
    )
    return c.json(await storeWritten(event, caller.user.id, connection, { timeZone, notes: payload.notes ?? '' }), 201)
  }

  api.endpoint('/calendar/', {
    GET: async (c) => {
      const caller = await professional(c)
      const asksForEvents = ['start_date', 'end_date', 'include_innera_events'].some((name) => c.req.query(name) !== undefined)
      if (asksForEvents) return listEvents(c, caller)
      return c.json(status(await findConnection(db, caller.user.id)), 200, NO_STORE)
    },
    POST: async (c) => {
      const caller = await professional(c)
      const fields = await readFields(c.req.raw)
      // One path, two calls (docs/product.md §7): the code exchange carries auth_code / integration_type.
      if ('auth_code' in fields || 'integration_type' in fields) return connect(c, caller.user.id, fields)
      return createEvent(c, caller, fields)
    },
    DELETE: async (c) => {
      const { user } = await professional(c)
      const connection = await findConnection(db, user.id)
      if (!connection) throw calendarNotConnected()
      await deleteConnection(db, user.id)
      // Revoked at Google after the answer, best effort: the connection is gone here either way.
      services.background.run('calendar disconnection', () => revokeBestEffort(connection))
      return c.body(null, 204)
    },
  })

  api.endpoint(EVENT_PATH, {
    PUT: async (c) => {
      const caller = await professional(c)
      const payload = parseEventPayload(await readFields(c.req.raw))
      const connection = await usableConnection(caller.user.id)
      const eventId = pathParam(c, 'eventId')
      const existing = await findStoredEvent(db, caller.user.id, eventId)
      if (!existing) throw notFound()
      const appointmentId = await appointmentOfPayload(caller.user.id, payload.type, payload.relatedObjectId)
      const timeZone = (await findProfile(db, caller.user.id))?.timeZone ?? caller.user.timeZone
      // What the event's owner wrote in its description stays; Innera's lines are written anew.
      const body = googleEventFor(payload, { timeZone, appointmentId, keptDescription: ownersText(existing.description) })
      let event: GoogleEvent
      try {
        event = await withCalendar(services, connection, (session, calendarId) => session.patchEvent(calendarId, eventId, body))
      } catch (error) {
        if (error instanceof GoogleApiError && (error.failure === 'not_found' || error.failure === 'gone')) {
          await removeStoredEvents(db, caller.user.id, [eventId])
          throw notFound()
        }
        return failedAt('atualizar evento')(error)
      }
      return c.json(await storeWritten(event, caller.user.id, connection, { timeZone, notes: payload.notes }))
    },
    DELETE: async (c) => {
      const { user } = await professional(c)
      const connection = await usableConnection(user.id)
      const eventId = pathParam(c, 'eventId')
      if (!(await findStoredEvent(db, user.id, eventId))) throw notFound()
      try {
        await withCalendar(services, connection, (session, calendarId) => session.deleteEvent(calendarId, eventId))
      } catch (error) {
        // Already deleted at Google: the stored copy goes all the same.
        if (!(error instanceof GoogleApiError && (error.failure === 'not_found' || error.failure === 'gone'))) failedAt('deletar evento')(error)
      }
      await removeStoredEvents(db, user.id, [eventId])
      // An appointment whose event this was no longer has one (a later move writes a new one).
      await db
        .update(appointments)
        .set({ googleEventId: null })
        .where(and(eq(appointments.professionalId, user.id), eq(appointments.googleEventId, eventId)))
      return c.body(null, 204)
    },
  })

  api.endpoint('/calendar/sync/', {
    POST: async (c) => {
      const { user } = await professional(c)
      const { full } = validate(syncSchema, await readFields(c.req.raw))
      await usableConnection(user.id)
      try {
        const report = await syncCalendar(services, user.id, { full: full ?? false })
        // events_not_kept: the calendar holds more events in the store's window than are kept (decision 0036).
        return c.json({ synced: report.synced, last_sync: report.lastSync.toISOString(), full: report.full, events_not_kept: report.notKept })
      } catch (error) {
        if (error instanceof ApiError) throw error
        log({ level: 'warn', msg: 'calendar sync failed', user_id: user.id, error: errorFields(error).error })
        throw syncFailed()
      }
    },
  })

  api.endpoint('/calendar/integration-status/', {
    GET: async (c) => {
      const { user } = await professional(c)
      const connection = await findConnection(db, user.id)
      return c.json(
        {
          ...status(connection),
          connected: connection !== undefined,
          needs_reconnect: connection !== undefined && !connection.tokenValid,
          sync_in_progress: connection !== undefined && isSyncRunning(connection, clock()),
          google_email: connection?.googleEmail ?? null,
        },
        200,
        NO_STORE,
      )
    },
  })

  api.endpoint('/calendar/availability/', {
    POST: async (c) => {
      const caller = await authenticate(c, services)
      const input = validate(availabilitySchema, await readFields(c.req.raw))
      if (input.end_time <= input.start_time) throw fieldError('end_time', 'The end must be after the start.')
      // The professional themself and admins read the calendar's busy times. Anyone else (a patient at
      // the booking's confirm step) learns only whether one consultation's time is free, a few times
      // an hour: each check is a live call to Google, and busy times are the professional's business.
      const readsCalendar = caller.user.id === input.professional_id || roleOf(caller.groups) === 'admin'
      if (readsCalendar) {
        if (input.end_time - input.start_time > MAX_AVAILABILITY_DAYS * DAY) throw fieldError('end_time', `The window can span at most ${MAX_AVAILABILITY_DAYS} days.`)
        if (!(await isProfessional(input.professional_id))) throw fieldError('professional_id', `Invalid pk "${input.professional_id}" - object does not exist.`)
      } else {
        await enforceThrottle(services, 'calendarCheckPerUser', String(caller.user.id))
        const bookable = await findBookableProfessional(db, input.professional_id)
        if (!bookable) throw fieldError('professional_id', `Invalid pk "${input.professional_id}" - object does not exist.`)
        const longest = bookable.profile.consultationMinutes
        if (input.end_time - input.start_time > longest * MINUTE) throw fieldError('end_time', `The window can span at most ${longest} minutes.`)
      }
      const connection = await findConnection(db, input.professional_id)
      if (!connection) return c.json({ available: true, conflicts: [], warnings: [] }, 200, NO_STORE)
      const unavailable = () => googleFailed('Não foi possível verificar conflitos no Google Calendar')
      if (!connection.tokenValid) throw unavailable()

      const timeMin = new Date(input.start_time).toISOString()
      const timeMax = new Date(input.end_time).toISOString()
      if (!readsCalendar) {
        // Google's events on that time, live, counted as the stored copy counts them (decision 0036):
        // an unanswered invitation does not take it; the product's own appointment events are the
        // appointments, which the booking itself checks (a rescheduled one's own time is free there).
        let page: EventPage
        try {
          page = await withCalendar(services, connection, (session, calendarId) => session.listEvents({ calendarId, timeMin, timeMax, maxResults: CHECK_PAGE_SIZE }))
        } catch (error) {
          log({ level: 'warn', msg: 'google calendar events read for a booking check failed', error: errorFields(error).error })
          throw unavailable()
        }
        // More events on one consultation's time than a page holds is a flood, not a calendar: not verified.
        if (page.nextPageToken) throw unavailable()
        const owners = [connection.primaryCalendarId, connection.googleEmail].filter((owner): owner is string => !!owner)
        const timeZone = connection.calendarTimeZone ?? (await findProfile(db, input.professional_id))?.timeZone ?? 'America/Sao_Paulo'
        const events = page.items.flatMap((event) => storedEventOf(event, input.professional_id, { owners, timeZone }) ?? [])
        return c.json({ available: isTimeFree({ start: input.start_time, end: input.end_time }, events), conflicts: [], warnings: [] }, 200, NO_STORE)
      }

      let busy: { start: string; end: string }[]
      try {
        busy = await withCalendar(services, connection, (session, calendarId) => session.busyIntervals(calendarId, timeMin, timeMax))
      } catch (error) {
        log({ level: 'warn', msg: 'google calendar free/busy failed', error: errorFields(error).error })
        throw unavailable()
      }
      // The titles come from the synced events.
      const events = await storedEventsBetween(db, input.professional_id, input.start_time, input.end_time, { includeInnera: true })
      const conflicts = busy.map((period) => {
        const start = Date.parse(period.start)
        const end = Date.parse(period.end)
        const summaries = [...new Set(events.filter((event) => event.startAt.getTime() < end && event.endAt.getTime() > start && event.summary).map((event) => event.summary))]
        return { start: new Date(start).toISOString(), end: new Date(end).toISOString(), ...(summaries.length > 0 && { summary: summaries.join(', ') }) }
      })
      return c.json({ available: conflicts.length === 0, conflicts, warnings: [] }, 200, NO_STORE)
    },
  })

  /** An active member of the profissional group: whose calendar may be asked about. */
  async function isProfessional(userId: number): Promise<boolean> {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .innerJoin(userGroups, eq(userGroups.userId, users.id))
      .innerJoin(groups, eq(groups.id, userGroups.groupId))
      .where(and(eq(users.id, userId), eq(users.isActive, true), eq(groups.name, 'profissional')))
    return row !== undefined
  }
}
