import { type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { Suspense, lazy } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import { AgendaWeek } from '#app/ui/agenda-week.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import type { DashboardCalendar } from './calendar-dashboard.server.ts'
import { action, loader } from './dashboard.server.ts'

/**
 * The translations its components use, loaded before the page hydrates (besides common): the
 * habits' only for a patient, whose dashboard shows today's habits.
 */
export const handle = { i18n: (data: { role?: string } | undefined) => (data?.role === 'paciente' ? ['dashboard', 'habits'] : ['dashboard']) }

// Today's habits are a patient's only: their code stays out of the professional's first load.
const TodayHabits = lazy(() => import('#app/ui/habits/today-habits.tsx').then((module) => ({ default: module.TodayHabits })))

// The loader (what each role's dashboard shows) and the habits' one tap are the route's server half.
export { action, loader }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

const stepLinks = { assessment: '/avaliacao', pillars: '/pilares', program: '/meu-programa' } as const

export default function Dashboard() {
  const { role, firstName, welcome, program, agenda, nextAppointment, calendar, habits } = useLoaderData<typeof loader>()
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
          <AgendaWeek days={agenda.days} today={agenda.today} timeZone={agenda.timeZone} range={agenda.range} previous={agenda.previous} next={agenda.next} truncated={agenda.truncated} />
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
          <NextAppointment appointment={nextAppointment} />
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
  /** `when` and `untilText` come written by the loader ("segunda-feira, … às 09:00", "em 2 dias"). */
  appointment: { id: number; start: string; timeZone: string; professional: string; status: string; until: { value: number; unit: 'day' | 'hour' | 'minute' }; open: boolean; when: string; untilText: string } | null
}

/** The patient's next consultation, with how long until it starts, or the way to book one. */
function NextAppointment({ appointment }: NextAppointmentProps) {
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
            {appointment.when}
            <span className="text-muted"> · {appointment.professional}</span>
          </p>
          <p className="mt-1 text-muted">
            {appointment.untilText} ·{' '}
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
