import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data, redirect } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { Suspense, lazy } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, i18nServer } from '#app/i18n/i18next.server.ts'
import { errorResponseFor, orNull } from '#app/provider/responses.server.ts'
import { progressPercent, weekOf } from '#app/domain/program.ts'
import { type Language, languageTags } from '#app/i18n/config.ts'
import { getProgram } from '#app/provider/program.server.ts'
import { getProfessionalDashboard, listAppointments } from '#app/provider/appointments.server.ts'
import { byLocalDate, timeUntil, weekToShow } from '#app/domain/agenda.ts'
import { consultationWindow, formatDateTime } from '#app/domain/appointments.ts'
import { DEFAULT_TIME_ZONE } from '#app/domain/time-zones.ts'
import { AgendaWeek } from '#app/ui/agenda-week.tsx'
import { type DashboardCalendar, connectionStateOf, dashboardCalendar } from './calendar-dashboard.server.ts'
import { trackAction } from '#app/features/habits/habits.server.ts'
import { listHabits } from '#app/provider/habits.server.ts'
import { todayHabitViews } from '#app/features/habits/habit-views.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { getIntegrationStatus } from '#app/provider/calendar.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { roleFromGroups } from '#app/session/roles.ts'
import { pageMeta } from '#app/utils/meta.ts'

/**
 * The translations its components use, loaded before the page hydrates (besides common): the
 * habits' only for a patient, whose dashboard shows today's habits.
 */
export const handle = { i18n: (data: { role?: string } | undefined) => (data?.role === 'paciente' ? ['dashboard', 'habits'] : ['dashboard']) }

// Today's habits are a patient's only: their code stays out of the professional's first load.
const TodayHabits = lazy(() => import('#app/ui/habits/today-habits.tsx').then((module) => ({ default: module.TodayHabits })))

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
        }
      : null,
    agenda: agenda
      ? {
          ...week,
          timeZone: agenda.time_zone,
          truncated: agenda.truncated ?? false,
          days: byLocalDate(agenda.appointments, week.days, agenda.time_zone).map((day) => ({
            date: day.date,
            items: day.items.map((item) => ({
              id: item.id,
              start_time: item.start_time,
              end_time: item.end_time,
              status: item.status,
              patientName: [item.patient.first_name, item.patient.last_name].filter(Boolean).join(' '),
            })),
          })),
        }
      : null,
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

/** One tap on today's habits; without JavaScript the page comes back here, the answer saved or the refusal beside it. */
export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'paciente' })
  const form = await readFormData(request)
  if (form.get('intent') !== 'track') throw data({ reason: 'invalid' }, { status: 400 })
  return trackAction(request, auth, form, () => '/dashboard#habitos-hoje')
}

const stepLinks = { assessment: '/avaliacao', pillars: '/pilares', program: '/meu-programa' } as const

export default function Dashboard() {
  const { role, firstName, welcome, program, agenda, nextAppointment, language, calendar, habits } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('dashboard')
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('greeting', { name: firstName })}</h1>
      {role === 'profissional' && agenda ? (
        <>
          <div className="mt-4 flex flex-wrap gap-3">
            <Link to="/profissional/pacientes" className="link">
              {t('professional.patientsLink')}
            </Link>
            <Link to="/agenda/disponibilidade" className="link">
              {t('professional.availabilityLink')}
            </Link>
          </div>
          {calendar ? <CalendarSummary calendar={calendar} /> : null}
          <AgendaWeek days={agenda.days} today={agenda.today} timeZone={agenda.timeZone} language={language} previous={agenda.previous} next={agenda.next} start={agenda.start} truncated={agenda.truncated} />
        </>
      ) : (
        <>
          {welcome ? (
            <section aria-labelledby="welcome-title" className="mt-6 rounded-2xl bg-brand-800 p-6 text-white">
              <h2 id="welcome-title" className="text-2xl font-semibold">
                {t('patient.welcomeTitle')}
              </h2>
              <p className="mt-2 text-brand-50">{t('patient.welcomeLead')}</p>
              <div className="mt-4 flex flex-wrap gap-3">
                <Link className="btn bg-white text-brand-800 hover:bg-brand-50" to="/pilares">
                  {t('patient.choosePillars')}
                </Link>
                <Link className="btn border border-white text-white hover:bg-white/10" to="/avaliacao">
                  {t('patient.aboutAssessment')}
                </Link>
              </div>
            </section>
          ) : null}
          <NextAppointment appointment={nextAppointment} language={language} />
          {habits !== undefined ? (
            <Suspense fallback={null}>
              <TodayHabits habits={habits} failure={actionData && 'track' in actionData ? actionData.track : null} />
            </Suspense>
          ) : null}
          {program ? (
            <section aria-labelledby="program-title" className="mt-8 rounded-2xl bg-white p-6 shadow-sm">
              <h2 id="program-title" className="text-2xl font-semibold">
                {t('patient.programTitle', { week: program.week, weeks: program.weeks })}
              </h2>
              <label htmlFor="dashboard-progress" className="mt-3 block text-muted">
                {t('patient.programProgress', { done: program.progress.done, total: program.progress.total, percent: program.progress.percent })}
              </label>
              <progress id="dashboard-progress" max={program.progress.total || 1} value={program.progress.done} className="mt-2 h-3 w-full accent-brand-700" />
              <h3 className="mt-5 font-semibold">{t('patient.thisWeek')}</h3>
              <ul className="mt-2 space-y-2">
                {program.goals.map((goal) => (
                  <li key={goal.id} className="flex items-start gap-2">
                    <span aria-hidden="true">{goal.done ? '✓' : '○'}</span>
                    <span className={goal.done ? 'text-muted line-through' : ''}>
                      {goal.text}
                      <span className="sr-only"> ({goal.done ? t('patient.goalDone') : t('patient.goalOpen')})</span>
                    </span>
                  </li>
                ))}
              </ul>
              <Link to="/meu-programa" className="btn-primary mt-5">
                {t('patient.openProgram')}
              </Link>
            </section>
          ) : null}
          <section aria-labelledby="next-title" className="mt-8">
            <h2 id="next-title" className="text-2xl font-semibold">
              {t('patient.nextTitle')}
            </h2>
            <ol className="mt-4 grid gap-4 md:grid-cols-3">
              {(['assessment', 'pillars', 'program'] as const).map((step, index) => (
                <li key={step} className="rounded-2xl bg-white p-6 shadow-sm">
                  <p className="text-sm font-semibold text-brand-700">{t('patient.step', { number: index + 1 })}</p>
                  <h3 className="mt-1 text-lg font-semibold">{t(`patient.steps.${step}.title`)}</h3>
                  <p className="mt-2 text-muted">{t(`patient.steps.${step}.body`)}</p>
                  <Link to={stepLinks[step]} className="link mt-3 inline-block">
                    {t(`patient.steps.${step}.cta`)}
                  </Link>
                </li>
              ))}
            </ol>
          </section>
        </>
      )}
    </main>
  )
}

const STAT_NAMES = ['totalEvents', 'inneraEvents', 'externalEvents', 'upcomingEvents', 'conflictsDetected'] as const

/** docs/product.md §3's calendar stats, when the professional's Google Calendar is connected; else the way to connect it. */
function CalendarSummary({ calendar }: { calendar: DashboardCalendar }) {
  const { t } = useTranslation('dashboard')
  return (
    <section aria-labelledby="calendar-title" className="mt-8 rounded-2xl bg-white p-6 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="calendar-title" className="text-2xl font-semibold">
          {t('professional.calendar.title')}
        </h2>
        <Link to="/agenda/calendario" className="link">
          {calendar.state === 'not-connected' ? t('professional.calendar.connect') : t('professional.calendar.open')}
        </Link>
      </div>
      {calendar.state === 'connected' ? (
        <>
          <p className="mt-1 text-sm text-muted">{t('professional.calendar.lead')}</p>
          <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-5">
            {STAT_NAMES.map((name) => (
              <div key={name} className="rounded-xl bg-brand-50 p-3">
                <dt className="text-sm text-muted">{t(`professional.calendar.${name}`)}</dt>
                <dd className="text-2xl font-semibold tabular-nums">{calendar.stats[name] ?? '—'}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : (
        <p className="mt-2 text-muted">
          {calendar.state === 'not-connected'
            ? t('professional.calendar.notConnected')
            : calendar.state === 'reconnect'
              ? t('professional.calendar.reconnect')
              : t('professional.calendar.unavailable')}
        </p>
      )}
    </section>
  )
}

type NextAppointmentProps = {
  appointment: { id: number; start: string; timeZone: string; professional: string; status: string; until: { value: number; unit: 'day' | 'hour' | 'minute' }; open: boolean } | null
  language: Language
}

/** The patient's next consultation, with how long until it starts, or the way to book one. */
function NextAppointment({ appointment, language }: NextAppointmentProps) {
  const { t } = useTranslation('dashboard')
  const { t: tc } = useTranslation()
  return (
    <section aria-labelledby="appointment-title" className="mt-8 rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="appointment-title" className="text-2xl font-semibold">
        {t('patient.appointmentTitle')}
      </h2>
      {appointment ? (
        <>
          <p className="mt-2 text-lg">
            {formatDateTime(appointment.start, appointment.timeZone, language)}
            <span className="text-muted"> · {appointment.professional}</span>
          </p>
          <p className="mt-1 text-muted">
            {new Intl.RelativeTimeFormat(languageTags[language], { numeric: 'auto' }).format(appointment.until.value, appointment.until.unit)} ·{' '}
            {tc(`appointmentStatus.${appointment.status}`)}
          </p>
          <div className="mt-4 flex flex-wrap gap-3">
            {appointment.open ? (
              <Link to={`/consultas/${appointment.id}/consulta`} className="btn-primary">
                {t('patient.joinConsultation')}
              </Link>
            ) : null}
            <Link to={`/consultas/${appointment.id}`} className={appointment.open ? 'btn-secondary' : 'btn-primary'}>
              {t('patient.appointmentDetails')}
            </Link>
            <Link to="/consultas" className="btn-secondary">
              {t('patient.allAppointments')}
            </Link>
          </div>
        </>
      ) : (
        <>
          <p className="mt-2 text-muted">{t('patient.noAppointment')}</p>
          <Link to="/consultas/profissionais" className="btn-primary mt-4">
            {t('patient.bookAppointment')}
          </Link>
        </>
      )}
    </section>
  )
}
