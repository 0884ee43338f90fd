import { type LoaderFunctionArgs, data } from '@remix-run/node'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { threadMessageView } from '#app/features/messages/thread-view.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getThread } from '#app/provider/messages.server.ts'
import { nullWhileResubmitting } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { parseId } from '#app/utils/ids.ts'

export const MEMBERS = ['paciente', 'profissional'] as const

/** The conversation's id from the URL, or the not-found page. */
export function conversationIdOf(params: Record<string, string | undefined>): number {
  const id = parseId(params.id)
  if (!id) throw data({ reason: 'not-found' }, { status: 404 })
  return id
}

/**
 * One conversation (issue 44): a page of its thread, oldest at the top (`?antes=<cursor>` for the
 * page before), and a fresh idempotency key for the send form on each render. Opening its newest
 * page marks the newest message read, here in the loader: the only way that works without
 * JavaScript (a hidden form would need a click). It is the thread's own call that marks it
 * (decision 0088), so the page waits for one provider answer, not two; the mark never moves back.
 * `live`: the newest page, which the page's script keeps up to date (`/mensagens/{id}/eventos`).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: MEMBERS })
  const id = conversationIdOf(params)
  const before = parseId(new URL(request.url).searchParams.get('antes'))
  const [t, language, thread] = await Promise.all([
    getFixedT(request, ['messages', 'message-list']),
    languageOf(request),
    getThread(auth, id, before, { markNewestRead: true }).catch(nullWhileResubmitting),
  ])
  const zone = timeZoneOr(user.time_zone)
  const name = thread ? `${thread.conversation.other.first_name} ${thread.conversation.other.last_name}`.trim() : ''
  return data(
    {
      meta: { title: `${thread ? t('thread.title', { name: name || t('deletedAccount') }) : t('message-list:title')} · Innera`, description: t('message-list:lead') },
      id,
      idempotencyKey: crypto.randomUUID(),
      thread: thread && {
        name,
        photo: thread.conversation.other.photo,
        closed: thread.conversation.closed,
        live: before === undefined,
        older: thread.older === null ? null : `/mensagens/${id}?antes=${thread.older}`,
        messages: thread.messages.map((message) => threadMessageView(message, zone, language)),
      },
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}
