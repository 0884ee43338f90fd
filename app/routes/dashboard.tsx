import { type LoaderFunctionArgs, type MetaFunction, data, redirect } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, i18nServer } from '#app/i18n/i18next.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { progressPercent, weekOf } from '#app/domain/program.ts'
import { type Language } from '#app/i18n/config.ts'
import { getProgram } from '#app/provider/program.server.ts'
import { listMyPatients } from '#app/provider/users.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { roleFromGroups } from '#app/session/roles.ts'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['dashboard', 'assessment'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request)
  const role = roleFromGroups(user.groups)
  if (role === 'admin') throw redirect('/admin/dashboard')
  const [t, locale, patients, program] = await Promise.all([
    getFixedT(request, 'dashboard'),
    i18nServer().getLocale(request),
    role === 'profissional' ? listMyPatients(auth).catch(errorResponseFor) : Promise.resolve(null),
    role === 'paciente' ? getProgram(auth).catch(errorResponseFor) : Promise.resolve(null),
  ])
  const lng = locale as Language
  return data(
    {
      meta: { title: `${t('title')} · Innera`, description: t('description') },
      role,
      firstName: user.first_name || user.username,
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
      patients: patients?.map((patient) => ({
        id: patient.id,
        name: [patient.first_name, patient.last_name].filter(Boolean).join(' ') || patient.username,
        email: patient.email,
      })),
    },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

const stepLinks = { assessment: '/avaliacao', pillars: '/pilares', program: '/meu-programa' } as const

export default function Dashboard() {
  const { role, firstName, patients, welcome, program } = useLoaderData<typeof loader>()
  const { t } = useTranslation('dashboard')
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('greeting', { name: firstName })}</h1>
      {role === 'profissional' ? (
        <section aria-labelledby="patients-title" className="mt-8">
          <h2 id="patients-title" className="text-2xl font-semibold">
            {t('professional.patientsTitle')}
          </h2>
          <Link to="/profissional/avaliacoes" className="link mt-2 inline-block">
            {t('shared.title', { ns: 'assessment' })}
          </Link>
          {patients && patients.length > 0 ? (
            <ul className="mt-4 divide-y divide-brand-100 rounded-2xl bg-white shadow-sm">
              {patients.map((patient) => (
                <li key={patient.id} className="flex flex-wrap items-center justify-between gap-2 px-5 py-4">
                  <span className="font-medium">{patient.name}</span>
                  <a className="link text-sm" href={`mailto:${patient.email}`}>
                    {patient.email}
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-4 rounded-2xl bg-white p-6 text-muted">{t('professional.noPatients')}</p>
          )}
        </section>
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
