import { type LoaderFunctionArgs, data } from '@remix-run/node'
import { formatShortDateTime, timeZoneOr } from '#app/domain/appointments.ts'
import { formatFileSize } from '#app/domain/file-size.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getThread, markRead } from '#app/provider/messages.server.ts'
import { nullWhileResubmitting, orNull } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { parseId } from '#app/utils/ids.ts'
import { signedMediaUrl } from '#app/utils/media.ts'

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
 * JavaScript (a hidden form would need a click); the mark never moves back, and a failed mark
 * never breaks the page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: MEMBERS })
  const id = conversationIdOf(params)
  const before = parseId(new URL(request.url).searchParams.get('antes'))
  const [t, language, thread] = await Promise.all([getFixedT(request, 'messages'), languageOf(request), getThread(auth, id, before).catch(nullWhileResubmitting)])
  const newest = thread?.messages.at(-1)
  if (thread && newest && before === undefined) await markRead(auth, id, newest.id).catch(orNull)
  const zone = timeZoneOr(user.time_zone)
  const name = thread ? `${thread.conversation.other.first_name} ${thread.conversation.other.last_name}`.trim() : ''
  return data(
    {
      meta: { title: `${thread ? t('thread.title', { name: name || t('deletedAccount') }) : t('list.title')} · Innera`, description: t('list.lead') },
      id,
      idempotencyKey: crypto.randomUUID(),
      thread: thread && {
        name,
        photo: thread.conversation.other.photo,
        closed: thread.conversation.closed,
        older: thread.older === null ? null : `/mensagens/${id}?antes=${thread.older}`,
        messages: thread.messages.map((message) => ({
          id: message.id,
          mine: message.mine,
          text: message.text,
          // Through this site's /media/ with the provider's signature for this viewer (decision 0086): no token reaches the browser.
          attachments: message.attachments.flatMap((attachment) => {
            const url = signedMediaUrl(attachment.url)
            return url ? [{ id: attachment.id, name: attachment.name, image: attachment.content_type !== 'application/pdf', size: formatFileSize(attachment.size, language), url, width: attachment.width, height: attachment.height }] : []
          }),
          deleted: message.deleted,
          removed: message.removed_by_admins,
          read: message.mine && message.read,
          canDelete: message.mine && message.can_delete,
          when: formatShortDateTime(message.sent_at, zone, language),
          at: message.sent_at,
        })),
      },
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}
