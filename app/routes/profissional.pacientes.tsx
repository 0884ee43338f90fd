import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { pageOrLast } from '#app/provider/pages.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { listMyPatients } from '#app/provider/users.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { Pagination } from '#app/ui/list-controls.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { pageParam } from '#app/utils/pagination.ts'

const PAGE_SIZE = 20

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['dashboard', 'assessment'] }

/** The professional's patients (docs/product.md §6: professionals list their patients), 20 a page (`?page=`; past the end, the last one). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'profissional' })
  const [t, { list, page }] = await Promise.all([
    getFixedT(request, 'dashboard'),
    pageOrLast((page) => listMyPatients(auth, page, PAGE_SIZE), pageParam(new URL(request.url)), PAGE_SIZE).catch(errorResponseFor),
  ])
  return data({
    meta: { title: `${t('professional.patientsTitle')} · Innera`, description: t('professional.patientsLead') },
    count: list.count,
    page,
    patients: list.results.map((patient) => ({
      id: patient.id,
      name: [patient.first_name, patient.last_name].filter(Boolean).join(' ') || patient.username,
      email: patient.email,
    })),
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function PatientsPage() {
  const { patients, count, page } = useLoaderData<typeof loader>()
  const { t } = useTranslation('dashboard')
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('professional.patientsTitle')}</h1>
      <p className="mt-2 text-muted">{t('professional.patientsLead')}</p>
      <Link to="/profissional/avaliacoes" className="link mt-2 inline-block">
        {t('shared.title', { ns: 'assessment' })}
      </Link>
      {patients.length > 0 ? (
        <ul className="mt-6 divide-y divide-brand-100 rounded-2xl bg-white shadow-sm">
          {patients.map((patient) => (
            <li key={patient.id} className="flex flex-wrap items-center justify-between gap-2 px-5 py-4">
              <Link className="link font-medium" to={`/profissional/pacientes/${patient.id}`}>
                {patient.name}
              </Link>
              <a className="link text-sm break-all" href={`mailto:${patient.email}`}>
                {patient.email}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-6 rounded-2xl bg-white p-6 text-muted">{t('professional.noPatients')}</p>
      )}
      <Pagination count={count} page={page} pageSize={PAGE_SIZE} />
    </main>
  )
}
