import { type LoaderFunctionArgs, type MetaFunction, data, redirect } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { formatShortDateTime, timeZoneOr } from '#app/domain/appointments.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { listConversations, startConversation } from '#app/provider/messages.server.ts'
import { pageOrLast } from '#app/provider/pages.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { PersonPhoto } from '#app/ui/person-photo.tsx'
import { Pagination } from '#app/ui/list-controls.tsx'
import { parseId } from '#app/utils/ids.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { pageParam } from '#app/utils/pagination.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['message-list', 'messages'] }

const PAGE_SIZE = 20
const PREVIEW_WORDS = 12

/** A deleted account keeps its place with no name (the provider empties it). */
const nameOf = (person: { first_name: string; last_name: string }) => `${person.first_name} ${person.last_name}`.trim()

/** The first words of the last message (the provider sends its first characters). */
const firstWords = (preview: string) => {
  const words = preview.split(/\s+/).filter(Boolean)
  return words.length > PREVIEW_WORDS ? `${words.slice(0, PREVIEW_WORDS).join(' ')}…` : words.join(' ')
}

/**
 * The member's conversations (issue 44), the latest message first. `?com=<user id>` (the links
 * from a patient's page and an appointment) opens the conversation with that person, made now if
 * they have none: the provider answers the pair's one, or 404 without a care link.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: ['paciente', 'profissional'] })
  const url = new URL(request.url)
  if (url.searchParams.has('com')) {
    const other = parseId(url.searchParams.get('com'))
    if (!other) throw data({ reason: 'not-found' }, { status: 404 })
    const conversation = await startConversation(auth, other).catch(errorResponseFor)
    throw redirect(`/mensagens/${conversation.id}`)
  }
  const [t, language, { list, page }] = await Promise.all([
    getFixedT(request, 'message-list'),
    languageOf(request),
    pageOrLast((page) => listConversations(auth, page, PAGE_SIZE), pageParam(url), PAGE_SIZE).catch(errorResponseFor),
  ])
  const zone = timeZoneOr(user.time_zone)
  return data(
    {
      meta: { title: `${t('title')} · Innera`, description: t('lead') },
      count: list.count,
      page,
      conversations: list.results.map((conversation) => ({
        id: conversation.id,
        name: nameOf(conversation.other),
        photo: conversation.other.photo,
        closed: conversation.closed,
        unread: conversation.unread_count,
        last: conversation.last_message && {
          text: conversation.last_message.deleted ? null : firstWords(conversation.last_message.preview),
          // A message of files alone says how many (decision 0086).
          files: conversation.last_message.deleted ? 0 : conversation.last_message.attachment_count,
          mine: conversation.last_message.mine,
          when: formatShortDateTime(conversation.last_message.sent_at, zone, language),
          at: conversation.last_message.sent_at,
        },
      })),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function ConversationsPage() {
  const { conversations, count, page } = useLoaderData<typeof loader>()
  const { t } = useTranslation(['message-list', 'messages'])
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('title')}</h1>
      <p className="mt-2 max-w-2xl text-lg text-muted">{t('lead')}</p>
      {conversations.length === 0 ? (
        <p className="mt-6 rounded-2xl bg-white p-6" data-testid="no-conversations">
          {t('empty')}
        </p>
      ) : (
        <ul className="mt-6 space-y-3" data-testid="conversations">
          {conversations.map((conversation) => {
            const name = conversation.name || t('messages:deletedAccount')
            return (
              <li key={conversation.id} className="flex items-start gap-3 rounded-2xl bg-white p-4 shadow-sm">
                <PersonPhoto name={conversation.name || '?'} photo={conversation.photo} size="size-12" />
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <Link className="link font-semibold" to={`/mensagens/${conversation.id}`}>
                      {name}
                      {conversation.unread ? <span className="sr-only">: {t('unread', { count: conversation.unread })}</span> : null}
                    </Link>
                    {conversation.last ? (
                      <time className="text-sm text-muted" dateTime={conversation.last.at}>
                        {conversation.last.when}
                      </time>
                    ) : null}
                  </div>
                  <p className="mt-1 break-words text-muted">
                    {conversation.last ? (
                      <>
                        {conversation.last.mine ? `${t('you')} ` : null}
                        {conversation.last.text === null ? <em>{t('messages:deletedMessage')}</em> : conversation.last.text || (conversation.last.files > 0 ? t('messages:attachments.preview', { count: conversation.last.files }) : '')}
                      </>
                    ) : (
                      t('noMessages')
                    )}
                  </p>
                  {conversation.closed ? <p className="mt-1 text-sm text-muted">{t('closed')}</p> : null}
                </div>
                {conversation.unread ? (
                  <span className="shrink-0 rounded-full bg-brand-700 px-2 py-0.5 text-sm font-semibold text-white" aria-hidden="true" data-testid="unread">
                    {conversation.unread}
                  </span>
                ) : null}
              </li>
            )
          })}
        </ul>
      )}
      <Pagination count={count} page={page} pageSize={PAGE_SIZE} />
    </main>
  )
}
