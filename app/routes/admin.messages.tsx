import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data, redirect } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { formatInTimeZone } from 'date-fns-tz'
import { enUS, es, ptBR } from 'date-fns/locale'
import { useTranslation } from '#app/i18n/react.tsx'
import { z } from 'zod'
import { timeZoneLabel, timeZoneOr } from '#app/domain/appointments.ts'
import { isLanguage } from '#app/i18n/config.ts'
import { getFixedT, i18nServer } from '#app/i18n/i18next.server.ts'
import { listContactMessages, setContactMessageHandled } from '#app/provider/contact.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { contactSubjects } from '#app/domain/contact-limits.ts'
import { failureText } from '#app/utils/messages.server.ts'
import { Pagination, SearchFilter, SelectFilter } from '#app/ui/list-controls.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { pageInfo } from '#app/utils/pagination.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { MAX_ID } from '#app/utils/ids.ts'

const PAGE_SIZE = 20
const dateLocales = { pt: ptBR, en: enUS, es }

const querySchema = z.object({
  search: z.string().trim().max(100).catch(''),
  subject: z.enum(contactSubjects).or(z.literal('')).catch(''),
  handled: z.enum(['true', 'false']).or(z.literal('')).catch(''),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
})

function readQuery(url: URL) {
  return querySchema.parse({
    search: url.searchParams.get('search') ?? '',
    subject: url.searchParams.get('subject') ?? '',
    handled: url.searchParams.get('handled') ?? '',
    page: url.searchParams.get('page') ?? 1,
  })
}

/** This page's URL with the same filters (and page), built from what we understood of the query. */
function listUrl(query: z.infer<typeof querySchema>, page = query.page) {
  const params = new URLSearchParams()
  if (query.search) params.set('search', query.search)
  if (query.subject) params.set('subject', query.subject)
  if (query.handled) params.set('handled', query.handled)
  if (page > 1) params.set('page', String(page))
  const search = params.toString()
  return `/admin/messages${search ? `?${search}` : ''}`
}

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  // The admin's own zone, named in the lead (decision 0077).
  const timeZone = timeZoneOr(user.time_zone)
  const query = readQuery(new URL(request.url))
  const [t, locale] = await Promise.all([getFixedT(request, 'admin'), i18nServer().getLocale(request)])
  const list = await listContactMessages(auth, {
    search: query.search || undefined,
    subject: query.subject || undefined,
    handled: query.handled ? query.handled === 'true' : undefined,
    page: query.page,
    page_size: PAGE_SIZE,
  }).catch(async (error: unknown) => {
    // A page that emptied (its last message marked handled under a filter) sends back to the first.
    if (error instanceof ProviderError && error.status === 404 && query.page > 1) throw redirect(listUrl(query, 1))
    return errorResponseFor(error)
  })
  const dateLocale = dateLocales[isLanguage(locale) ? locale : 'pt']
  const format = (iso: string) => formatInTimeZone(new Date(iso), timeZone, 'PPp', { locale: dateLocale })
  const zone = timeZoneLabel(timeZone, isLanguage(locale) ? locale : 'pt', new Date())
  return data(
    {
      meta: { title: `${t('messages.title')} · Innera`, description: t('messages.lead', { zone }) },
      query,
      zone,
      count: list.count,
      messages: list.results.map((message) => ({
        ...message,
        receivedAt: format(message.created_at),
        handledAt: message.handled_at ? format(message.handled_at) : null,
      })),
    },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

const actionSchema = z.object({
  intent: z.enum(['mark-handled', 'mark-open']),
  id: z.coerce.number().int().positive().max(MAX_ID),
})

export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  const back = listUrl(readQuery(new URL(request.url)))
  const parsed = actionSchema.safeParse(Object.fromEntries(await readFormData(request)))
  if (!parsed.success) throw data({ reason: 'bad-request' }, { status: 400 })
  const { intent, id } = parsed.data
  try {
    await setContactMessageHandled(auth, id, intent === 'mark-handled')
  } catch (error) {
    const t = await getFixedT(request, 'common')
    return redirectWithToast(back, { type: 'error', message: { text: failureText(t, error) } })
  }
  const key = intent === 'mark-handled' ? 'admin:messages.markedHandled' : 'admin:messages.markedOpen'
  return redirectWithToast(back, { type: 'success', message: { key } })
}

export default function AdminMessages() {
  const { query, messages, count, zone } = useLoaderData<typeof loader>()
  const { t } = useTranslation('admin')
  const info = pageInfo({ count, page: query.page, pageSize: PAGE_SIZE })
  return (
    <main id="main">
      <h1 className="text-3xl font-bold">{t('messages.title')}</h1>
      <p className="mt-2 text-muted">{t('messages.lead', { zone })}</p>
      <Form method="get" role="search" className="mt-6 flex flex-wrap items-end gap-3">
        <SearchFilter label={t('messages.search')} defaultValue={query.search} />
        <SelectFilter
          name="subject"
          label={t('messages.subject')}
          defaultValue={query.subject}
          allLabel={t('messages.allSubjects')}
          options={contactSubjects.map((subject) => ({ value: subject, label: t(`messages.subjects.${subject}`) }))}
        />
        <SelectFilter
          name="handled"
          label={t('messages.status')}
          defaultValue={query.handled}
          allLabel={t('messages.allStatuses')}
          options={[
            { value: 'false', label: t('messages.openPlural') },
            { value: 'true', label: t('messages.handledPlural') },
          ]}
        />
        <button type="submit" className="btn-primary">
          {t('messages.apply')}
        </button>
      </Form>
      <p className="mt-4 text-muted" role="status">
        {t('messages.showing', { first: info.first, last: info.last, count })}
      </p>
      {messages.length > 0 ? (
        <ul className="mt-4 space-y-4">
          {messages.map((message) => (
            <li key={message.id}>
              <article aria-labelledby={`message-${message.id}-title`} className="rounded-2xl bg-white p-6 shadow-sm">
                <header className="flex flex-wrap items-start justify-between gap-3">
                  <div>
                    <h2 id={`message-${message.id}-title`} className="text-xl font-semibold">
                      {message.name}
                    </h2>
                    <p className="text-muted">{t(`messages.subjects.${message.subject}`)}</p>
                  </div>
                  <span
                    className={`rounded-full px-3 py-1 text-sm font-semibold ${message.handled ? 'bg-brand-50 text-brand-800' : 'bg-amber-100 text-amber-900'}`}
                  >
                    {message.handled ? t('messages.handled') : t('messages.open')}
                  </span>
                </header>
                <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
                  <dt className="font-medium">{t('messages.email')}</dt>
                  <dd className="break-all">
                    <a className="link" href={`mailto:${message.email}`}>
                      {message.email}
                    </a>
                  </dd>
                  <dt className="font-medium">{t('messages.phone')}</dt>
                  <dd>
                    {message.phone ? (
                      <a className="link" href={`tel:${message.phone.replace(/[^\d+]/g, '')}`}>
                        {message.phone}
                      </a>
                    ) : (
                      <span className="text-muted">{t('messages.noPhone')}</span>
                    )}
                  </dd>
                  <dt className="font-medium">{t('messages.received')}</dt>
                  <dd>
                    <time dateTime={message.created_at}>{message.receivedAt}</time>
                  </dd>
                </dl>
                <p className="mt-4 whitespace-pre-wrap break-words rounded-xl bg-brand-50 p-4">{message.message}</p>
                <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
                  {message.handledAt && message.handled_at ? (
                    <p className="text-sm text-muted">
                      <time dateTime={message.handled_at}>{t('messages.handledAt', { date: message.handledAt })}</time>
                    </p>
                  ) : (
                    <span />
                  )}
                  <Form method="post">
                    <input type="hidden" name="id" value={message.id} />
                    <button
                      type="submit"
                      name="intent"
                      value={message.handled ? 'mark-open' : 'mark-handled'}
                      aria-describedby={`message-${message.id}-title`}
                      className={message.handled ? 'btn-secondary' : 'btn-primary'}
                    >
                      {message.handled ? t('messages.markOpen') : t('messages.markHandled')}
                    </button>
                  </Form>
                </div>
              </article>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-4 rounded-2xl bg-white p-6 text-muted">{t('messages.empty')}</p>
      )}
      <Pagination count={count} page={query.page} pageSize={PAGE_SIZE} />
    </main>
  )
}
