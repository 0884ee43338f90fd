import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import { type TFunction } from 'i18next'
import { addDays, byLocalDate, mondayOf } from '#app/domain/agenda.ts'
import { formatDate, formatShortDateTime, formatTime, timeZoneOr } from '#app/domain/appointments.ts'
import { type CalendarEvent, type CalendarStats, calendarStats, eventInterval, isAllDay, isInneraEvent } from '#app/domain/calendar.ts'
import {
  type AppointmentItem,
  type EventItem,
  calendarWeek,
  eventFormTimes,
  eventInstants,
  eventsByDay,
  eventsQuery,
  inRefreshWindow,
  isAppointmentEvent,
  isDeclined,
  meaningfulConflicts,
} from '#app/domain/calendar-agenda.ts'
import { isStale } from '#app/domain/calendar-cache.ts'
import { type CalendarConflict, type ConflictSeverity, type ConflictSchedule, findConflicts } from '#app/domain/calendar-conflicts.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getProfessionalDashboard } from '#app/provider/appointments.server.ts'
import { type CalendarEventRead, type EventList, type EventPayload, type IntegrationStatus } from '#app/provider/calendar-schemas.ts'
import {
  createCalendarEvent,
  deleteCalendarEvent,
  disconnectCalendar,
  getCalendarStatus,
  getIntegrationStatus,
  listCalendarEvents,
  syncCalendar,
  updateCalendarEvent,
} from '#app/provider/calendar.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { nullWhileResubmitting, orNull } from '#app/provider/responses.server.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { type Schedule, getSchedule } from '#app/provider/schedule.server.ts'
import { type SessionUser } from '#app/provider/schemas.ts'
import { failureInit, failureText } from '#app/utils/messages.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { type CalendarIntent, type CalendarReply, type EventFormDefaults, calendarIntentOf, eventFormSchema, eventIdField } from './calendar-forms.ts'

/**
 * The professional's Google Calendar (issue 13, decision 0025) as the app's pages see it: the
 * `/agenda/calendario` page's data and its action, and the conflicts and stats the dashboard and
 * the availability editor show. Pure logic is in app/domain/calendar*.ts; this module reads the
 * provider and says things in the user's language.
 */

export const CALENDAR_PATH = '/agenda/calendario'

/** Connected, as far as the provider says (a revoked grant is still connected: it needs "Reconnect"). */
export const isConnected = (status: Pick<IntegrationStatus, 'connected' | 'calendar_enabled'>) => status.connected || status.calendar_enabled
export const needsReconnect = (status: ConnectionState) => isConnected(status) && (status.needs_reconnect || !status.token_valid)

/** What a page needs to know of the integration to choose what to show. */
export type ConnectionState = Pick<IntegrationStatus, 'connected' | 'calendar_enabled' | 'needs_reconnect' | 'token_valid'>

/** The calendar state the professional's agenda brings along (`calendar_enabled`, `token_valid`), as a status. */
export const connectionStateOf = ({ calendar_enabled, token_valid }: { calendar_enabled: boolean; token_valid: boolean }): ConnectionState => ({
  calendar_enabled,
  token_valid,
  connected: calendar_enabled,
  needs_reconnect: calendar_enabled && !token_valid,
})

/**
 * What a failed calendar call means for the user (SPEC §8's calendar rows): not connected, a grant
 * to renew, a throttle, or the action's own message.
 */
export function calendarFailureText(t: TFunction, error: unknown, actionKey: string): string {
  if (!(error instanceof ProviderError)) throw error
  if (error.code === 'calendar_not_connected') return t('calendar:errors.notConnected')
  if (error.code === 'calendar_reconnect') return t('calendar:errors.reconnect')
  if (error.status === 429) return failureText(t, error)
  return t(actionKey)
}

export type EventsRead =
  | { state: 'ok'; list: EventList }
  | { state: 'not-connected' }
  | { state: 'reconnect' }
  | { state: 'failed' }

/** The events of the page's dates (the refresh window, stretched over the conflict window), the product's own included. */
export async function readEvents(auth: SignedInCaller, now: Date, timeZone: string): Promise<EventsRead> {
  try {
    return { state: 'ok', list: await listCalendarEvents(auth, { ...eventsQuery(now, timeZone), include_innera_events: true }) }
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    if (error.code === 'calendar_not_connected') return { state: 'not-connected' }
    if (error.code === 'calendar_reconnect') return { state: 'reconnect' }
    return { state: 'failed' }
  }
}

/**
 * The events of the dates of `zone` (the professional's schedule zone, in which the provider reads
 * them), given those read in parallel with the schedule from the dates of the zone guessed then (the
 * account's): read again only when the two zones give other dates, as they may near midnight.
 */
export async function eventsInZone(auth: SignedInCaller, now: Date, read: { events: EventsRead; zone: string }, zone: string): Promise<EventsRead> {
  if (zone === read.zone) return read.events
  const wanted = eventsQuery(now, zone)
  const asked = eventsQuery(now, read.zone)
  return wanted.start_date === asked.start_date && wanted.end_date === asked.end_date ? read.events : readEvents(auth, now, zone)
}

/** The conflicts worth telling over the next 30 days (the schedule's zone), most serious first. */
export function conflictsOf(schedule: ConflictSchedule, events: readonly CalendarEvent[], now: Date): CalendarConflict[] {
  return meaningfulConflicts(findConflicts(schedule, events, now))
}

const untitled = (t: TFunction, event: Pick<CalendarEvent, 'summary'>) => event.summary?.trim() || t('calendar:week.untitled')

export type ConflictView = {
  id: string
  severity: ConflictSeverity
  dayName: string
  date: string
  when: string
  timeSlot: string
  events: { title: string; time: string }[]
  resolution: string
}

/** Conflicts as the pages show them: the date in words, each event with its time, the suggested resolution translated. */
export function conflictViews(conflicts: readonly CalendarConflict[], { t, language, timeZone }: { t: TFunction; language: Language; timeZone: string }): ConflictView[] {
  return conflicts.map((conflict) => {
    const date = formatDate(conflict.date, language, 'short')
    const { key, values } = conflict.suggestedResolution
    return {
      id: conflict.id,
      severity: conflict.severity,
      dayName: conflict.dayName,
      date: conflict.date,
      when: t('calendar:conflicts.when', { date, timeSlot: conflict.timeSlot }),
      timeSlot: conflict.timeSlot,
      events: conflict.conflictingEvents.map((event) => ({ title: untitled(t, event), time: eventTime(event, timeZone, language, t) })),
      resolution: t(key, { ...values, title: values.title || t('calendar:week.untitled'), date }),
    }
  })
}

/** "09:00–10:00", or "all day" for an all-day event. */
function eventTime(event: CalendarEvent, timeZone: string, language: Language, t: TFunction): string {
  if (isAllDay(event)) return t('calendar:week.allDay')
  const interval = eventInterval(event, timeZone)
  if (!interval) return ''
  return `${formatTime(new Date(interval.start), timeZone, language)}–${formatTime(new Date(interval.end), timeZone, language)}`
}

/* ---------------------------------------------------------------- the dashboard and the editor */

export type DashboardCalendar =
  | { state: 'not-connected' }
  | { state: 'reconnect' }
  | { state: 'unavailable' }
  | { state: 'connected'; stats: Omit<CalendarStats, 'conflictsDetected'> & { conflictsDetected: number | null } }

/**
 * The dashboard's calendar stats (SPEC §3), for a professional: the integration's state came with
 * the agenda, so one without a connected calendar costs nothing more; a connected one reads the
 * events and the schedule, in parallel, and counts in the schedule's zone (the calendar page's).
 */
export async function dashboardCalendar(auth: SignedInCaller, status: ConnectionState | null, { now, timeZone: guess }: { now: Date; timeZone: string }): Promise<DashboardCalendar> {
  if (!status) return { state: 'unavailable' }
  if (!isConnected(status)) return { state: 'not-connected' }
  if (needsReconnect(status)) return { state: 'reconnect' }
  const [guessed, schedule] = await Promise.all([readEvents(auth, now, guess), getSchedule(auth).catch(orNull)])
  const timeZone = timeZoneOr(schedule?.time_zone, guess)
  const events = await eventsInZone(auth, now, { events: guessed, zone: guess }, timeZone)
  if (events.state === 'not-connected') return { state: 'not-connected' }
  if (events.state === 'reconnect') return { state: 'reconnect' }
  if (events.state === 'failed') return { state: 'unavailable' }
  const conflicts = schedule ? conflictsOf(schedule, events.list.events, now) : null
  const stats = calendarStats(inRefreshWindow(events.list.events, now, timeZone), conflicts ?? [], now, timeZone)
  return { state: 'connected', stats: { ...stats, conflictsDetected: conflicts ? stats.conflictsDetected : null } }
}

/**
 * The availability editor's conflicts, for a professional with a connected calendar (the status
 * read beside the schedule); null when there is nothing to show. The dates are the schedule's.
 */
export async function editorConflicts(
  auth: SignedInCaller,
  { status, schedule, request }: { status: IntegrationStatus | null; schedule: Schedule; request: Request },
): Promise<ConflictView[] | null> {
  if (!status || !isConnected(status) || needsReconnect(status)) return null
  const now = new Date()
  const events = await readEvents(auth, now, timeZoneOr(schedule.time_zone))
  if (events.state !== 'ok') return null
  const [t, language] = await Promise.all([getFixedT(request, ['calendar', 'common']), languageOf(request)])
  return conflictViews(conflictsOf(schedule, events.list.events, now), { t, language, timeZone: timeZoneOr(schedule.time_zone) })
}

/* ---------------------------------------------------------------- the calendar page */

/** A row of the week with its sort key (appointments and events share a day's list). */
export type WeekItem = (AppointmentItem | EventItem) & { sort: number }

/** Timed items sort after every all-day event of the day (instants are far below this). */
const TIMED = 1e15

export type CalendarPage = Awaited<ReturnType<typeof calendarPage>>

/**
 * The page's data: the connection, and when connected the week, the conflicts, the stats and the
 * event forms. Dates and times are those of the professional's schedule zone, as the provider
 * reads them (its dates, its conflicts); until the schedule is read (in parallel with the rest)
 * the account's zone stands in, and what it read for other dates is read again.
 */
export async function calendarPage(request: Request, { auth, user }: { auth: SignedInCaller; user: SessionUser }) {
  const now = new Date()
  const guess = timeZoneOr(user.time_zone)
  const url = new URL(request.url)
  const requestedWeek = url.searchParams.get('semana')
  const guessedWeek = calendarWeek(requestedWeek, guess, now)
  const [t, language, calendarStatus, integration, guessedEvents, guessedAgenda, schedule] = await Promise.all([
    getFixedT(request, ['calendar', 'common']),
    languageOf(request),
    // SPEC §3's status (GET /calendar/), and what the page says besides (the account, a sync running).
    getCalendarStatus(auth).catch(nullWhileResubmitting),
    getIntegrationStatus(auth).catch(orNull),
    // Read beside the status: a connected calendar (this page's usual visitor) costs one round trip.
    readEvents(auth, now, guess),
    getProfessionalDashboard(auth, { start: guessedWeek.start, days: 7 }).catch(orNull),
    getSchedule(auth).catch(orNull),
  ])
  const timeZone = timeZoneOr(schedule?.time_zone ?? guessedAgenda?.time_zone, guess)
  const week = timeZone === guess ? guessedWeek : calendarWeek(requestedWeek, timeZone, now)
  const [events, agenda] = await Promise.all([
    eventsInZone(auth, now, { events: guessedEvents, zone: guess }, timeZone),
    week.start === guessedWeek.start ? guessedAgenda : getProfessionalDashboard(auth, { start: week.start, days: 7 }).catch(orNull),
  ])
  const meta = { title: `${t('calendar:title')} · Innera`, description: t('calendar:description') }
  const status = calendarStatus ?? integration
  const connected = status ? status.calendar_enabled && events.state !== 'not-connected' : events.state === 'ok'
  const reconnect = connected && ((status ? !status.token_valid : false) || events.state === 'reconnect')
  const list = events.state === 'ok' ? events.list : null
  const lastSync = list?.last_sync ?? status?.last_sync ?? null
  const connection = {
    state: reconnect ? ('reconnect' as const) : connected ? ('connected' as const) : ('not-connected' as const),
    email: integration?.google_email ?? null,
    calendarId: connected ? (status?.primary_calendar_id ?? null) : null,
    lastSync: lastSync ? formatShortDateTime(lastSync, timeZone, language) : null,
    fromCache: list ? list.from_cache : false,
    syncError: list?.sync_error ? t('calendar:errors.sync') : null,
    stale: connected && isStale(lastSync, now),
    syncInProgress: integration?.sync_in_progress ?? false,
    eventsError: connected && !reconnect && events.state === 'failed' ? t('calendar:errors.events') : null,
    confirmDisconnect: connected && url.searchParams.get('desconectar') === '1',
  }
  if (!connected || !list) return { meta, timeZone, connection, today: week.today, week: null, conflicts: null, stats: null, form: null, deleting: null }

  const shown = list.events.filter((event) => !isAppointmentEvent(event))
  const conflicts = schedule ? conflictsOf(schedule, list.events, now) : null
  const stats = calendarStats(inRefreshWindow(list.events, now, timeZone), conflicts ?? [], now, timeZone)
  const eventItems = eventsByDay(shown, week.days, timeZone)
  const appointmentItems = agenda ? byLocalDate(agenda.appointments, week.days, timeZone) : null
  const days = week.days.map((date, index) => {
    const items: WeekItem[] = [
      ...(appointmentItems?.[index]?.items ?? []).map((item): WeekItem => ({
        kind: 'appointment',
        key: `appointment-${item.id}`,
        id: item.id,
        time: `${formatTime(item.start_time, timeZone, language)}–${formatTime(item.end_time, timeZone, language)}`,
        title: [item.patient.first_name, item.patient.last_name].filter(Boolean).join(' '),
        status: item.status,
        sort: TIMED + Date.parse(item.start_time),
      })),
      ...(eventItems[index]?.events ?? []).map((event) => eventItem(event, { t, language, timeZone })),
    ].sort((a, b) => a.sort - b.sort)
    return { date, label: formatDate(date, language, 'long'), isToday: date === week.today, items }
  })

  const editing = findEvent(shown, url.searchParams.get('editar'))
  const deleting = findEvent(shown, url.searchParams.get('excluir'))
  return {
    meta,
    timeZone,
    connection,
    today: week.today,
    week: {
      start: week.start,
      title: t('calendar:week.title', { from: formatDate(week.start, language, 'dayMonth'), to: formatDate(week.days.at(-1)!, language, 'dayMonth') }),
      previous: week.previous,
      next: week.next,
      days,
      appointmentsUnavailable: agenda === null,
    },
    conflicts: conflicts ? conflictViews(conflicts, { t, language, timeZone }) : null,
    stats,
    form: {
      mode: editing && eventFormTimes(editing, timeZone) ? ('edit' as const) : ('create' as const),
      eventId: editing && eventFormTimes(editing, timeZone) ? editing.id : null,
      defaults: editing ? eventDefaults(editing, timeZone, user) : null,
      notFound: url.searchParams.has('editar') && !(editing && eventFormTimes(editing, timeZone)),
    },
    deleting: deleting ? { id: deleting.id, title: untitled(t, deleting), when: eventWhen(deleting, { t, language, timeZone }) } : null,
  }
}

function findEvent(events: readonly CalendarEventRead[], id: string | null): CalendarEventRead | null {
  if (!id) return null
  return events.find((event) => event.id === id) ?? null
}

function eventItem(event: CalendarEventRead, { t, language, timeZone }: { t: TFunction; language: Language; timeZone: string }): WeekItem {
  const allDay = isAllDay(event)
  const interval = eventInterval(event, timeZone)
  const lastDate = allDay && event.end.date && event.start.date && event.end.date > addDays(event.start.date, 1) ? addDays(event.end.date, -1) : null
  return {
    kind: 'event',
    key: `event-${event.id}`,
    id: event.id,
    time: allDay ? (lastDate ? t('calendar:week.allDayUntil', { date: formatDate(lastDate, language, 'short') }) : t('calendar:week.allDay')) : eventTime(event, timeZone, language, t),
    title: untitled(t, event),
    allDay,
    innera: isInneraEvent(event),
    status: event.status ?? 'confirmed',
    free: event.transparency === 'transparent',
    declined: isDeclined(event),
    location: event.location ?? '',
    htmlLink: event.htmlLink && /^https?:\/\//i.test(event.htmlLink) ? event.htmlLink : null,
    editable: !allDay,
    sort: (allDay ? 0 : TIMED) + (interval?.start ?? 0),
  }
}

function eventWhen(event: CalendarEvent, { t, language, timeZone }: { t: TFunction; language: Language; timeZone: string }): string {
  const interval = eventInterval(event, timeZone)
  if (!interval) return ''
  if (isAllDay(event)) return `${formatDate(event.start.date!, language, 'long')} (${t('calendar:week.allDay')})`
  return `${formatShortDateTime(new Date(interval.start), timeZone, language)}–${formatTime(new Date(interval.end), timeZone, language)}`
}

/** The titles the provider writes for each type (decision 0025: never more than the patient's first name). */
const CONSULTATION_TITLE = /^Consulta Innera(?: com\s+(.+))?$/i
const TYPE_TITLES: Record<string, EventFormDefaults['event_type']> = { 'aula innera': 'class', 'compromisso pessoal': 'personal', 'evento innera': 'other' }
/** The line the provider writes in the description for the meeting link. */
const MEETING_LINE = /(?:^|\n)Sala da consulta: (https:\/\/\S+)[ \t]*(?:\n|$)/

/**
 * The form's values for editing an event: its times in the zone, its type from its title, the
 * guests but the professional, the notes the provider keeps (never Google's description: decision
 * 0029) and the meeting link from the description.
 */
function eventDefaults(event: CalendarEventRead, timeZone: string, user: SessionUser): EventFormDefaults | null {
  const times = eventFormTimes(event, timeZone)
  if (!times) return null
  const title = (event.summary ?? '').trim()
  const consultation = CONSULTATION_TITLE.exec(title)
  const meeting = MEETING_LINE.exec(event.description ?? '')
  return {
    event_type: consultation ? 'consultation' : (TYPE_TITLES[title.toLowerCase()] ?? 'other'),
    ...times,
    patient_name: consultation?.[1]?.trim() ?? '',
    attendees: (event.attendees ?? [])
      .filter((attendee) => attendee.self !== true && attendee.email.toLowerCase() !== user.email.toLowerCase())
      .map((attendee) => attendee.email)
      .join(', '),
    notes: event.notes,
    meeting_link: meeting?.[1] ?? '',
    related_object_id: event.innera_appointment_id ? String(event.innera_appointment_id) : '',
  }
}

/* ---------------------------------------------------------------- the page's action */

const STATUS_MESSAGES: Record<Exclude<CalendarIntent, 'create' | 'update'>, string> = {
  sync: 'calendar:errors.sync',
  'sync-full': 'calendar:errors.sync',
  disconnect: 'calendar:errors.disconnect',
  delete: 'calendar:errors.delete',
}

/**
 * The page's forms, by their button's `intent`: create and update an event (its form comes back
 * with what was typed when anything fails), delete one, sync, disconnect. Each success goes back
 * to the page with a toast; each failure says SPEC §8's calendar message where the form is.
 */
export async function calendarAction(request: Request, { auth, user }: { auth: SignedInCaller; user: SessionUser }) {
  const form = await readFormData(request)
  const intent = calendarIntentOf(form.get('intent'))
  if (!intent) throw data({ reason: 'bad-request' }, { status: 400 })
  const t = await getFixedT(request, ['calendar', 'common'])
  const statusFailure = (error: unknown, status?: number) =>
    data({ form: 'status', intent, error: calendarFailureText(t, error, STATUS_MESSAGES[intent as keyof typeof STATUS_MESSAGES]) } satisfies CalendarReply, status ? { status } : failureInit(error))

  if (intent === 'sync' || intent === 'sync-full') {
    let notKept = 0
    try {
      notKept = (await syncCalendar(auth, intent === 'sync-full' ? { full: true } : {})).events_not_kept ?? 0
    } catch (error) {
      // SPEC §4: a sync cannot start while another runs.
      if (error instanceof ProviderError && error.status === 409) {
        return data({ form: 'status', intent, error: t('calendar:errors.syncRunning') } satisfies CalendarReply, { status: 409 })
      }
      return statusFailure(error)
    }
    if (notKept > 0) return redirectWithToast(CALENDAR_PATH, { type: 'info', message: { key: 'calendar:connection.syncedNotAll', values: { count: notKept } }, durationMs: 10_000 })
    return redirectWithToast(CALENDAR_PATH, { type: 'success', message: { key: 'calendar:connection.synced' } })
  }

  if (intent === 'disconnect') {
    try {
      await disconnectCalendar(auth)
    } catch (error) {
      return statusFailure(error)
    }
    return redirectWithToast(CALENDAR_PATH, { type: 'success', message: { key: 'calendar:connection.disconnected' } })
  }

  if (intent === 'delete') {
    const id = eventIdField().safeParse(form.get('event_id'))
    if (!id.success) throw data({ reason: 'bad-request' }, { status: 400 })
    try {
      await deleteCalendarEvent(auth, id.data)
    } catch (error) {
      // Gone already (deleted in Google meanwhile): what the user wanted.
      if (!(error instanceof ProviderError && error.status === 404)) return statusFailure(error)
    }
    return redirectWithToast(CALENDAR_PATH, { type: 'success', message: { key: 'calendar:event.deleted' } })
  }

  const submission = parseWithZod(form, { schema: eventFormSchema })
  if (submission.status !== 'success') return data({ form: 'event', result: submission.reply() } satisfies CalendarReply, { status: 400 })
  const values = submission.value
  // The zone the page showed the times in (the schedule's); a form without it: the schedule's, read now.
  const timeZone = isTimeZoneName(values.time_zone) ? values.time_zone : await scheduleZone(auth, user)
  const instants = eventInstants(values.date, values.start, values.end, timeZone)
  if (!instants) return data({ form: 'event', result: submission.reply({ fieldErrors: { end: ['calendar:validation.order'] } }) } satisfies CalendarReply, { status: 400 })
  const payload: EventPayload = {
    ...instants,
    event_type: values.event_type,
    related_object_id: values.related_object_id,
    attendees: values.attendees,
    notes: values.notes,
    patient_name: values.patient_name,
    professional_name: [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username,
    meeting_link: values.meeting_link,
  }
  const updating = intent === 'update'
  if (updating && !values.event_id) throw data({ reason: 'bad-request' }, { status: 400 })
  try {
    if (updating) await updateCalendarEvent(auth, values.event_id!, payload)
    else await createCalendarEvent(auth, payload)
  } catch (error) {
    const message = error instanceof ProviderError && updating && error.status === 404 ? t('calendar:errors.eventGone') : calendarFailureText(t, error, updating ? 'calendar:errors.update' : 'calendar:errors.create')
    const fieldErrors = providerFieldErrors(error)
    return data(
      { form: 'event', result: submission.reply({ formErrors: [message], fieldErrors }) } satisfies CalendarReply,
      failureInit(error),
    )
  }
  return redirectWithToast(`${CALENDAR_PATH}?semana=${mondayOf(values.date)}`, { type: 'success', message: { key: updating ? 'calendar:event.updated' : 'calendar:event.created' } })
}

const isTimeZoneName = (value: string | undefined): value is string => !!value && timeZoneOr(value, '') === value

/** The professional's schedule zone, as the provider has it; the account's when it cannot be read. */
async function scheduleZone(auth: SignedInCaller, user: SessionUser): Promise<string> {
  const schedule = await getSchedule(auth).catch(orNull)
  return timeZoneOr(schedule?.time_zone, timeZoneOr(user.time_zone))
}

/** The provider's field errors (a 400 on the payload) on the form's fields, as it wrote them. */
function providerFieldErrors(error: unknown): Record<string, string[]> {
  if (!(error instanceof ProviderError) || error.failure.kind !== 'http' || error.status !== 400) return {}
  const fields: Record<string, string> = {
    start_time: 'start',
    end_time: 'end',
    event_type: 'event_type',
    attendees: 'attendees',
    notes: 'notes',
    patient_name: 'patient_name',
    meeting_link: 'meeting_link',
    related_object_id: 'related_object_id',
  }
  const out: Record<string, string[]> = {}
  for (const [name, messages] of Object.entries(error.failure.fieldErrors ?? {})) {
    const field = fields[name]
    if (field && messages.length) out[field] = messages
  }
  return out
}
