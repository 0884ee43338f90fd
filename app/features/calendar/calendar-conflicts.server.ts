import { type TFunction } from 'i18next'
import { formatDate, timeZoneOr } from '#app/domain/appointments.ts'
import { type CalendarEvent } from '#app/domain/calendar.ts'
import { meaningfulConflicts } from '#app/domain/calendar-agenda.ts'
import { type CalendarConflict, type ConflictSeverity, type ConflictSchedule, findConflicts } from '#app/domain/calendar-conflicts.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { type IntegrationStatus } from '#app/provider/calendar-schemas.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { type Schedule } from '#app/provider/schedule.server.ts'
import { eventTime, eventTitle, isConnected, needsReconnect, readEvents } from './calendar.server.ts'

/**
 * The conflicts between the professional's schedule and their Google Calendar (docs/product.md §9: the next
 * 30 days, by severity), as the calendar page and the availability editor show them.
 */

/** The conflicts worth telling over the next 30 days (the schedule's zone), most serious first. */
export function conflictsOf(schedule: ConflictSchedule, events: readonly CalendarEvent[], now: Date): CalendarConflict[] {
  return meaningfulConflicts(findConflicts(schedule, events, now))
}

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
      events: conflict.conflictingEvents.map((event) => ({ title: eventTitle(t, event), time: eventTime(event, timeZone, language, t) })),
      resolution: t(key, { ...values, title: values.title || t('calendar:week.untitled'), date }),
    }
  })
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
