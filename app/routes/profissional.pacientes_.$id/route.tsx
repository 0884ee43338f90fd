import { type ReactNode } from 'react'
import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getLatestSharedResult, getPatient, getPatientProgram, listPatientAppointments } from '#app/provider/patients.server.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { formatWhen } from '#app/provider/questionnaire.server.ts'
import { errorResponseFor, orNull } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { StatusBadge } from '#app/ui/appointments/status-badge.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { type PatientAppointmentItem, pageZoneOf, patientAppointmentItems, personName, pillarNamesOf } from './patient-views.server.ts'
import { routeId } from '#app/utils/route-ids.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['dashboard'] }

/** A part the provider could not answer (orNull's rule: provider failures only), told apart from "there is none" (null). */
function unreadable(error: unknown): 'unreadable' {
  orNull(error)
  return 'unreadable'
}

/**
 * One of the professional's patients (issue 12): who they are, their appointments with this
 * professional, the latest assessment they shared and their program's focus pillars. All read at
 * once; the profile decides the page (404 for no patient and for someone not theirs alike), the other parts
 * each say so when they could not be read.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'profissional' })
  const patientId = routeId(params)
  const [t, language, patient, upcoming, past, shared, program, pillars] = await Promise.all([
    getFixedT(request, 'dashboard'),
    languageOf(request),
    getPatient(auth, patientId).catch(errorResponseFor),
    listPatientAppointments(auth, patientId, 'upcoming').catch(orNull),
    listPatientAppointments(auth, patientId, 'past').catch(orNull),
    getLatestSharedResult(auth, patientId).catch(unreadable),
    getPatientProgram(auth, patientId).catch(unreadable),
    pillarsForDisplay().catch(orNull),
  ])
  const name = personName(patient)
  const zone = pageZoneOf([...(upcoming?.results ?? []), ...(past?.results ?? [])], language)
  const list = (page: typeof upcoming) =>
    page && {
      items: patientAppointmentItems(page.results, language, zone?.zone ?? null),
      count: page.count,
    }
  return data({
    meta: {
      title: `${name} · Innera`,
      description: t('professional.patient.lead'),
    },
    patient: { id: patient.id, name, email: patient.email },
    // Both lists failing is one message; one failing shows its own.
    appointments:
      upcoming || past
        ? {
            upcoming: list(upcoming),
            past: list(past),
            zone: zone?.label ?? null,
          }
        : null,
    // 'unreadable', null (nothing shared yet, no program yet) or what there is.
    shared:
      shared === null || shared === 'unreadable'
        ? shared
        : {
            id: shared.id,
            submittedAt: formatWhen(shared.submitted_at, language, timeZoneOr(user.time_zone)),
            focus: pillarNamesOf(shared.focus_pillars, pillars, language),
          },
    program:
      program === null || program === 'unreadable'
        ? program
        : {
            week: program.current_week,
            weeks: program.weeks,
            finished: program.finished,
            progress: program.progress,
            focus: pillarNamesOf(program.focus_pillars, pillars, language),
          },
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

type AppointmentList = {
  items: PatientAppointmentItem[]
  count: number
} | null

function Appointments({ list, titleId, title, empty }: { list: AppointmentList; titleId: string; title: string; empty: string }) {
  const { t } = useTranslation('dashboard')
  return (
    <section aria-labelledby={titleId} className="mt-4">
      <h3 id={titleId} className="text-xl font-semibold">
        {title}
      </h3>
      {list === null ? (
        <p className="mt-2 text-muted">{t('professional.patient.appointmentsUnavailable')}</p>
      ) : list.items.length === 0 ? (
        <p className="mt-2 text-muted">{empty}</p>
      ) : (
        <>
          <ul className="mt-2 space-y-3" data-testid={titleId}>
            {list.items.map((item) => (
              <li key={item.id} className="flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-white p-4 shadow-sm">
                <p className="font-semibold">
                  {item.when}
                  {item.zone ? <span className="block text-sm font-normal text-muted">{item.zone}</span> : null}
                </p>
                <div className="flex flex-wrap items-center gap-3">
                  <StatusBadge status={item.status} />
                  <Link className="link" to={`/consultas/${item.id}`}>
                    {t('professional.details')}
                    <span className="sr-only">
                      :{' '}
                      {t('professional.patient.appointmentOf', {
                        when: item.when,
                      })}
                    </span>
                  </Link>
                </div>
              </li>
            ))}
          </ul>
          {list.count > list.items.length ? (
            <p className="mt-2 text-sm text-muted">
              {t('professional.patient.more', {
                shown: list.items.length,
                count: list.count,
              })}
            </p>
          ) : null}
        </>
      )}
    </section>
  )
}

function PillarList({ label, names }: { label: string; names: string[] }) {
  return (
    <>
      <h3 className="mt-3 font-semibold">{label}</h3>
      <ul className="mt-2 flex flex-wrap gap-2">
        {names.map((name) => (
          <li key={name} className="rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-800">
            {name}
          </li>
        ))}
      </ul>
    </>
  )
}

/** A part of the page read on its own: what it holds, that there is none yet, or that it could not be read. */
function Part<T>({ id, title, unreadable, none, value, children }: { id: string; title: string; unreadable: string; none: string; value: T | null | 'unreadable'; children: (value: T) => ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="mt-10">
      <h2 id={`${id}-title`} className="text-2xl font-semibold">
        {title}
      </h2>
      <div className="mt-4 rounded-2xl bg-white p-4 shadow-sm">
        {value === 'unreadable' ? <p className="text-muted">{unreadable}</p> : value === null ? <p className="text-muted">{none}</p> : children(value)}
      </div>
    </section>
  )
}

export default function PatientPage() {
  const { patient, appointments, shared, program } = useLoaderData<typeof loader>()
  const { t } = useTranslation('dashboard')
  return (
    <main id="main" className="container-page py-10">
      <Link to="/profissional/pacientes" className="link text-sm">
        {t('professional.patient.back')}
      </Link>
      <h1 className="mt-2 text-3xl font-bold">{patient.name}</h1>
      <p className="mt-2">
        <a className="link break-all" href={`mailto:${patient.email}`}>
          {patient.email}
        </a>
        {' · '}
        <Link className="link" to={`/mensagens?com=${patient.id}`}>
          {t('professional.patient.sendMessage')}
        </Link>
      </p>
      <p className="mt-2 text-muted">{t('professional.patient.lead')}</p>

      <section aria-labelledby="appointments-title" className="mt-8">
        <h2 id="appointments-title" className="text-2xl font-semibold">
          {t('professional.patient.appointmentsTitle')}
        </h2>
        {appointments === null ? (
          <p className="mt-4 rounded-2xl bg-white p-4 text-muted">{t('professional.patient.appointmentsUnavailable')}</p>
        ) : (
          <>
            {appointments.zone ? <p className="mt-2 text-sm text-muted">{t('professional.timesIn', { zone: appointments.zone })}</p> : null}
            <Appointments list={appointments.upcoming} titleId="upcoming-title" title={t('professional.patient.upcoming')} empty={t('professional.patient.noUpcoming')} />
            <Appointments list={appointments.past} titleId="past-title" title={t('professional.patient.past')} empty={t('professional.patient.noPast')} />
          </>
        )}
      </section>

      <Part id="shared" title={t('professional.patient.sharedTitle')} unreadable={t('professional.patient.sharedUnavailable')} none={t('professional.patient.sharedNone')} value={shared}>
        {(result) => (
          <>
            <p className="font-medium">{t('professional.patient.sharedLatest', { date: result.submittedAt })}</p>
            {result.focus.length ? <PillarList label={t('professional.patient.sharedFocus')} names={result.focus} /> : null}
            <Link className="link mt-3 inline-block" to={`/avaliacao/resultado/${result.id}`}>
              {t('professional.patient.sharedOpen')}
            </Link>
          </>
        )}
      </Part>

      <Part id="program" title={t('professional.patient.programTitle')} unreadable={t('professional.patient.programUnavailable')} none={t('professional.patient.programNone')} value={program}>
        {(current) => (
          <>
            <p className="font-medium">
              {current.finished ? t('professional.patient.programFinished', { weeks: current.weeks }) : t('professional.patient.programWeek', { week: current.week, weeks: current.weeks })}{' '}
              {t('professional.patient.programProgress', { done: current.progress.done, total: current.progress.total })}
            </p>
            <PillarList label={t('professional.patient.programFocus')} names={current.focus} />
          </>
        )}
      </Part>
    </main>
  )
}
