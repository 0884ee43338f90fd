import { type ActionFunctionArgs, type LoaderFunctionArgs, data, redirect } from '@remix-run/node'
import { byLocalDate, timeUntil, weekToShow } from '#app/domain/agenda.ts'
import { consultationWindow, formatDate, formatDateTime, formatTime } from '#app/domain/appointments.ts'
import { progressPercent, weekOf } from '#app/domain/program.ts'
import { DEFAULT_TIME_ZONE } from '#app/domain/time-zones.ts'
import { trackAction } from '#app/features/habits/habits.server.ts'
import { todayHabitViews } from '#app/features/habits/habit-views.server.ts'
import { type Language, languageTags } from '#app/i18n/config.ts'
import { getFixedT, i18nServer } from '#app/i18n/i18next.server.ts'
import { getProfessionalDashboard, listAppointments } from '#app/provider/appointments.server.ts'
import { getIntegrationStatus } from '#app/provider/calendar.server.ts'
import { listHabits } from '#app/provider/habits.server.ts'
import { getProgram } from '#app/provider/program.server.ts'
import { errorResponseFor, orNull } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { roleFromGroups } from '#app/session/roles.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { type DashboardCalendar, connectionStateOf, dashboardCalendar } from './calendar-dashboard.server.ts'

/**
 * The dashboard by role: an admin goes to the console; a professional sees the week's agenda and
 * the calendar's stats; a patient the program's week, the next appointment and today's habits.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request)
  const role = roleFromGroups(user.groups)
  if (role === 'admin') throw redirect('/admin/dashboard')
  const now = new Date()
  const timeZone = user.time_zone ?? DEFAULT_TIME_ZONE
  const week = weekToShow(new URL(request.url).searchParams.get('semana'), timeZone, now)
  const [t, locale, agenda, program, upcoming, habits] = await Promise.all([
    getFixedT(request, 'dashboard'),
    i18nServer().getLocale(request),
    role === 'profissional' ? getProfessionalDashboard(auth, { start: week.start, days: 7 }).catch(errorResponseFor) : Promise.resolve(null),
    role === 'paciente' ? getProgram(auth).catch(errorResponseFor) : Promise.resolve(null),
    role === 'paciente' ? listAppointments(auth, 'upcoming').catch(errorResponseFor) : Promise.resolve(null),
    // Today's habits: the page says so when they cannot be read, and shows the rest.
    role === 'paciente' ? listHabits(auth).catch(orNull) : Promise.resolve(undefined),
  ])
  // The calendar's state comes with the agenda (an older provider's is asked for); connected, the
  // events and the schedule for the stats are read in parallel.
  const calendarStatus = agenda ? (agenda.calendar ? connectionStateOf(agenda.calendar) : await getIntegrationStatus(auth).catch(orNull)) : null
  const calendar: DashboardCalendar | null = role === 'profissional' ? await dashboardCalendar(auth, calendarStatus, { now, timeZone }) : null
  const lng = locale as Language
  const weekDays = agenda ? byLocalDate(agenda.appointments, week.days, agenda.time_zone) : []
  // Dates and times written here, not while the browser hydrates (issue 43: its first Intl formatter is a long task).
  const timeIn = (instant: string) => formatTime(instant, agenda?.time_zone ?? timeZone, lng)
  const next = upcoming?.results[0]
  return data({
    meta: { title: `${t('title')} · Innera`, description: t('description') },
    role,
    calendar,
    language: lng,
    firstName: user.first_name || user.username,
    habits: habits && todayHabitViews(habits, lng),
    welcome: new URL(request.url).searchParams.get('welcome') === '1',
    program: program
      ? {
          week: program.current_week,
          weeks: program.weeks,
          progress: { ...program.progress, percent: progressPercent(program.progress) },
          goals: (weekOf(program.schedule, program.current_week)?.goals ?? []).map((goal) => ({
            id: goal.id,
            text: goal.text[lng] ?? goal.text.en,
            done: goal.done,
          })),
        }
      : null,
    nextAppointment: next
      ? {
          id: next.id,
          start: next.start_time,
          timeZone,
          professional: [next.professional.first_name, next.professional.last_name].filter(Boolean).join(' '),
          status: next.status,
          until: timeUntil(next.start_time, now),
          open: consultationWindow({ start: next.start_time, end: next.end_time }, now).state === 'open',
          when: formatDateTime(next.start_time, timeZone, lng),
          untilText: relativeTime(timeUntil(next.start_time, now), lng),
        }
      : null,
    agenda: agenda
      ? {
          ...week,
          timeZone: agenda.time_zone,
          truncated: agenda.truncated ?? false,
          range: { from: formatDate(week.start, lng, 'dayMonth'), to: formatDate(weekDays.at(-1)?.date ?? week.start, lng, 'dayMonth') },
          days: weekDays.map((day) => ({
            date: day.date,
            label: formatDate(day.date, lng, 'long'),
            items: day.items.map((item) => ({
              id: item.id,
              times: `${timeIn(item.start_time)}–${timeIn(item.end_time)}`,
              startsAt: timeIn(item.start_time),
              status: item.status,
              patientName: [item.patient.first_name, item.patient.last_name].filter(Boolean).join(' '),
            })),
          })),
        }
      : null,
  })
}

/** One tap on today's habits; without JavaScript the page comes back here, the answer saved or the refusal beside it. */
export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'paciente' })
  const form = await readFormData(request)
  if (form.get('intent') !== 'track') throw data({ reason: 'invalid' }, { status: 400 })
  return trackAction(request, auth, form, () => '/dashboard#habitos-hoje')
}

/** How long until it starts, as the page says it ("em 2 dias", "daqui a 3 horas"). */
const relativeTime = (until: { value: number; unit: Intl.RelativeTimeFormatUnit }, language: Language) => new Intl.RelativeTimeFormat(languageTags[language], { numeric: 'auto' }).format(until.value, until.unit)
