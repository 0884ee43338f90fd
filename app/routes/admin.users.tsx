import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { z } from 'zod'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { listUsers } from '#app/provider/users.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { roleFromGroups, roles } from '#app/session/roles.ts'
import { Pagination, SearchFilter, SelectFilter } from '#app/ui/list-controls.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { pageInfo } from '#app/utils/pagination.ts'

const PAGE_SIZE = 20
const querySchema = z.object({
  search: z.string().trim().max(100).catch(''),
  group: z.enum(roles).or(z.literal('')).catch(''),
  state: z.enum(['active', 'inactive']).or(z.literal('')).catch(''),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
})

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  const url = new URL(request.url)
  const query = querySchema.parse({
    search: url.searchParams.get('search') ?? '',
    group: url.searchParams.get('group') ?? '',
    state: url.searchParams.get('state') ?? '',
    page: url.searchParams.get('page') ?? 1,
  })
  const [t, list] = await Promise.all([
    getFixedT(request, 'admin'),
    listUsers(auth, { search: query.search || undefined, group: query.group || undefined, state: query.state || undefined, page: query.page, page_size: PAGE_SIZE }).catch(errorResponseFor),
  ])
  return data(
    {
      meta: { title: `${t('users.title')} · Innera`, description: t('users.lead') },
      query,
      count: list.count,
      users: list.results.map((user) => ({
        id: user.id,
        name: [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username,
        username: user.username,
        email: user.email,
        role: roleFromGroups(user.groups),
        active: user.is_active !== false,
      })),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function AdminUsers() {
  const { query, users, count } = useLoaderData<typeof loader>()
  const { t } = useTranslation('admin')
  const info = pageInfo({ count, page: query.page, pageSize: PAGE_SIZE })
  return (
    <main id="main">
      <h1 className="text-3xl font-bold">{t('users.title')}</h1>
      <Form method="get" role="search" className="mt-6 flex flex-wrap items-end gap-3">
        <SearchFilter label={t('users.search')} defaultValue={query.search} />
        <SelectFilter
          name="group"
          label={t('users.role')}
          defaultValue={query.group}
          allLabel={t('users.allRoles')}
          options={roles.map((role) => ({ value: role, label: t(`roles.${role}`) }))}
        />
        <SelectFilter
          name="state"
          label={t('users.status')}
          defaultValue={query.state}
          allLabel={t('users.allStates')}
          options={[
            { value: 'active', label: t('users.activePlural') },
            { value: 'inactive', label: t('users.inactivePlural') },
          ]}
        />
        <button type="submit" className="btn-primary">
          {t('users.apply')}
        </button>
      </Form>
      <p className="mt-4 text-muted" role="status">
        {t('users.showing', { first: info.first, last: info.last, count })}
      </p>
      {users.length > 0 ? (
        <div className="mt-4 overflow-x-auto rounded-2xl bg-white shadow-sm">
          <table className="w-full text-left">
            <caption className="sr-only">{t('users.title')}</caption>
            <thead className="border-b border-brand-100 text-sm text-muted">
              <tr>
                <th scope="col" className="px-4 py-3">{t('users.name')}</th>
                <th scope="col" className="px-4 py-3">{t('users.email')}</th>
                <th scope="col" className="px-4 py-3">{t('users.role')}</th>
                <th scope="col" className="px-4 py-3">{t('users.status')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-brand-100">
              {users.map((user) => (
                <tr key={user.id}>
                  <td className="px-4 py-3">
                    <Link className="link font-medium" to={`/admin/users/${user.id}`}>
                      {user.name}
                    </Link>
                    <span className="block text-sm text-muted">@{user.username}</span>
                  </td>
                  <td className="px-4 py-3">{user.email}</td>
                  <td className="px-4 py-3">{t(`roles.${user.role}`)}</td>
                  <td className="px-4 py-3">{user.active ? t('users.active') : t('users.inactive')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="mt-4 rounded-2xl bg-white p-6 text-muted">{t('users.empty')}</p>
      )}
      <Pagination count={count} page={query.page} pageSize={PAGE_SIZE} />
    </main>
  )
}
