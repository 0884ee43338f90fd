import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import { mondayOf } from '#app/domain/calendar-dates.ts'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { eventInstants } from '#app/domain/calendar-agenda.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { type EventPayload } from '#app/provider/calendar-schemas.ts'
import { createCalendarEvent, deleteCalendarEvent, disconnectCalendar, syncCalendar, updateCalendarEvent } from '#app/provider/calendar.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { orNull } from '#app/provider/responses.server.ts'
import { getSchedule } from '#app/provider/schedule.server.ts'
import { type SessionUser } from '#app/provider/schemas.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { failureInit } from '#app/utils/messages.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { type CalendarIntent, type CalendarReply, calendarIntentOf, eventFormSchema, eventIdField } from '#app/forms/calendar-forms.ts'
import { CALENDAR_PATH, calendarFailureText } from '#app/features/calendar/calendar.server.ts'

/** The `/agenda/calendario` page's action (issue 13): its forms, by their button's `intent`. */

const STATUS_MESSAGES: Record<Exclude<CalendarIntent, 'create' | 'update'>, string> = {
  sync: 'calendar:errors.sync',
  'sync-full': 'calendar:errors.sync',
  disconnect: 'calendar:errors.disconnect',
  delete: 'calendar:errors.delete',
}

/**
 * The page's forms, by their button's `intent`: create and update an event (its form comes back
 * with what was typed when anything fails), delete one, sync, disconnect. Each success goes back
 * to the page with a toast; each failure says docs/product.md §8's calendar message where the form is.
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
      // docs/product.md §4: a sync cannot start while another runs.
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
