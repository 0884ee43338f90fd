import { type TFunction } from 'i18next'
import { byLocalDate } from '#app/domain/agenda.ts'
import { addDays } from '#app/domain/calendar-dates.ts'
import { formatDate, formatShortDateTime, formatTime, timeZoneOr } from '#app/domain/appointments.ts'
import { type CalendarEvent, calendarStats, eventInterval, isAllDay, isInneraEvent } from '#app/domain/calendar.ts'
import { type AppointmentItem, type EventItem, calendarWeek, eventFormTimes, eventsByDay, inRefreshWindow, isAppointmentEvent, isDeclined } from '#app/domain/calendar-agenda.ts'
import { isStale } from '#app/domain/calendar-cache.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getProfessionalDashboard } from '#app/provider/appointments.server.ts'
import { type CalendarEventRead } from '#app/provider/calendar-schemas.ts'
import { getCalendarStatus, getIntegrationStatus } from '#app/provider/calendar.server.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { nullWhileResubmitting, orNull } from '#app/provider/responses.server.ts'
import { getSchedule } from '#app/provider/schedule.server.ts'
import { type SessionUser } from '#app/provider/schemas.ts'
import { conflictViews, conflictsOf } from '#app/features/calendar/calendar-conflicts.server.ts'
import { type EventFormDefaults } from '#app/forms/calendar-forms.ts'
import { eventTime, eventTitle, eventsInZone, readEvents } from '#app/features/calendar/calendar.server.ts'

/**
 * The `/agenda/calendario` page's data (issue 13): the connection, and once connected the week's
 * events beside the appointments, the conflicts, the stats and the event forms.
 */

/** A row of the week with its sort key (appointments and events share a day's list). */
type WeekItem = (AppointmentItem | EventItem) & { sort: number }

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
    // docs/product.md §3's status (GET /calendar/), and what the page says besides (the account, a sync running).
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
    deleting: deleting ? { id: deleting.id, title: eventTitle(t, deleting), when: eventWhen(deleting, { t, language, timeZone }) } : null,
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
    title: eventTitle(t, event),
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
