import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useLoaderData, useLocation } from '@remix-run/react'
import { timeZoneLabel, timeZoneOr } from '#app/domain/appointments.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { listAppointments } from '#app/provider/appointments.server.ts'
import { listProfessionals } from '#app/provider/users.server.ts'
import { pageOrLast } from '#app/provider/pages.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { hasRole, roleFromGroups } from '#app/session/roles.ts'
import { StatusBadge } from '#app/ui/appointments/status-badge.tsx'
import { SelectFilter } from '#app/ui/list-controls.tsx'
import { parseId } from '#app/utils/ids.ts'
import { appointmentView } from '#app/features/appointments/appointment-views.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { pageParam, withPage } from '#app/utils/pagination.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['appointments'] }

const PAST_PAGE_SIZE = 20

/**
 * My appointments: upcoming (soonest first) and past (latest first, by pages; past the end, the
 * last one). An admin sees everyone's, or one professional's schedule (`?profissional=`, a GET form:
 * support, decision 0061), and opens each to cancel or move it under the same rules.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request)
  const url = new URL(request.url)
  const isAdmin = roleFromGroups(user.groups) === 'admin'
  const professional = isAdmin ? parseId(url.searchParams.get('profissional')) : undefined
  const [t, language, upcoming, { list: past, page }, professionals] = await Promise.all([
    getFixedT(request, 'appointments'),
    languageOf(request),
    listAppointments(auth, 'upcoming', 1, undefined, { professional }).catch(errorResponseFor),
    pageOrLast((page) => listAppointments(auth, 'past', page, PAST_PAGE_SIZE, { professional }), pageParam(url), PAST_PAGE_SIZE).catch(errorResponseFor),
    isAdmin ? listProfessionals(auth).catch(errorResponseFor) : null,
  ])
  const patientZone = timeZoneOr(user.time_zone)
  const role = roleFromGroups(user.groups)
  const item = (appointment: (typeof upcoming.results)[number]) => {
    const view = appointmentView(appointment, { language, patientZone })
    // Patients read who they see; professionals whom they see; admins both.
    const withWhom = role === 'paciente' ? view.professional.name : role === 'profissional' ? view.patient : `${view.professional.name} · ${view.patient}`
    return { id: view.id, status: view.status, when: view.when, withWhom, profession: role === 'profissional' ? '' : view.professional.profession }
  }
  const all = [...upcoming.results, ...past.results]
  return data({
    meta: { title: `${t('list.title')} · Innera`, description: t('list.lead') },
    canBook: hasRole(user.groups, 'paciente'),
    zone: all.length ? timeZoneLabel(patientZone, language, all[0]!.start_time) : null,
    // An admin's filter: the professionals to choose from, and the one chosen.
    filter: professionals && {
      professional: professional ? String(professional) : '',
      options: professionals.map((person) => ({ value: String(person.id), label: [person.first_name, person.last_name].filter(Boolean).join(' ') || person.email })),
    },
    upcoming: { items: upcoming.results.map(item), more: upcoming.next !== null, count: upcoming.count },
    past: { items: past.results.map(item), page, previous: past.previous !== null, next: past.next !== null, count: past.count },
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

type Item = { id: number; status: string; when: string; withWhom: string; profession: string }

function AppointmentList({ items, testId }: { items: Item[]; testId: string }) {
  const { t } = useTranslation('appointments')
  return (
    <ul className="mt-4 space-y-3" data-testid={testId}>
      {items.map((item) => (
        <li key={item.id} className="flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-white p-4 shadow-sm">
          <div>
            <p className="font-semibold">{item.when}</p>
            <p className="text-muted">
              {item.withWhom}
              {item.profession ? ` · ${item.profession}` : null}
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <StatusBadge status={item.status} />
            <Link className="link" to={`/consultas/${item.id}`}>
              {t('list.details')}
              <span className="sr-only">: {t('list.detailsOf', { when: item.when, name: item.withWhom })}</span>
            </Link>
          </div>
        </li>
      ))}
    </ul>
  )
}

export default function MyAppointmentsPage() {
  const { upcoming, past, canBook, zone, filter } = useLoaderData<typeof loader>()
  const { t } = useTranslation('appointments')
  const { t: common } = useTranslation()
  const location = useLocation()
  // An admin's (filtered) view says each list is empty instead of inviting to book.
  const empty = !filter && upcoming.items.length === 0 && past.items.length === 0 && past.page === 1
  return (
    <main id="main" className="container-page py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">{t('list.title')}</h1>
          <p className="mt-2 max-w-2xl text-lg text-muted">{t('list.lead')}</p>
        </div>
        {canBook && !empty ? (
          <Link className="btn-primary" to="/consultas/profissionais">
            {t('list.book')}
          </Link>
        ) : null}
      </div>
      {zone ? <p className="mt-2 text-sm text-muted">{t('list.zone', { zone })}</p> : null}
      {filter ? (
        <Form method="get" role="search" aria-label={t('list.professionalFilters')} className="mt-6 flex flex-wrap items-end gap-3">
          <SelectFilter key={filter.professional} name="profissional" label={t('list.professional')} defaultValue={filter.professional} allLabel={t('list.allProfessionals')} options={filter.options} />
          <button type="submit" className="btn-primary">
            {t('list.showSchedule')}
          </button>
        </Form>
      ) : null}
      {empty ? (
        <div className="mt-6 rounded-2xl bg-white p-6">
          <p>{t('list.empty')}</p>
          {canBook ? (
            <Link className="btn-primary mt-4" to="/consultas/profissionais">
              {t('list.findProfessional')}
            </Link>
          ) : null}
        </div>
      ) : (
        <>
          <section aria-labelledby="upcoming-title" className="mt-8">
            <h2 id="upcoming-title" className="text-2xl font-semibold">
              {t('list.upcoming')}
            </h2>
            {upcoming.items.length ? (
              <AppointmentList items={upcoming.items} testId="upcoming" />
            ) : (
              <p className="mt-4 rounded-2xl bg-white p-4 text-muted">
                {t('list.noUpcoming')}{' '}
                {canBook ? (
                  <Link className="link" to="/consultas/profissionais">
                    {t('list.findProfessional')}
                  </Link>
                ) : null}
              </p>
            )}
            {upcoming.more ? <p className="mt-2 text-sm text-muted">{t('list.moreUpcoming', { count: upcoming.count })}</p> : null}
          </section>
          <section aria-labelledby="past-title" className="mt-10">
            <h2 id="past-title" className="text-2xl font-semibold">
              {t('list.past')}
            </h2>
            {past.items.length ? <AppointmentList items={past.items} testId="past" /> : <p className="mt-4 rounded-2xl bg-white p-4 text-muted">{t('list.noPast')}</p>}
            {past.previous || past.next ? (
              <nav aria-label={t('list.pastPages')} className="mt-6 flex items-center justify-between gap-3">
                {past.previous ? (
                  <Link className="btn-secondary" to={withPage(location.search, past.page - 1)} rel="prev" preventScrollReset>
                    {common('pagination.previous')}
                  </Link>
                ) : (
                  <span />
                )}
                <span className="text-muted">{t('list.pastPage', { page: past.page })}</span>
                {past.next ? (
                  <Link className="btn-secondary" to={withPage(location.search, past.page + 1)} rel="next" preventScrollReset>
                    {common('pagination.next')}
                  </Link>
                ) : (
                  <span />
                )}
              </nav>
            ) : null}
          </section>
        </>
      )}
    </main>
  )
}
