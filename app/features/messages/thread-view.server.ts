import { formatShortDateTime } from '#app/domain/appointments.ts'
import { type ThreadMessageView } from '#app/domain/live-thread.ts'
import { type Language } from '#app/i18n/config.ts'
import { type Message } from '#app/provider/message-schemas.ts'

/**
 * A provider message as the thread page draws it, its time in the reader's zone and language: the
 * loader's messages, the live stream's and a send's answer are the same shape (decision 0088).
 */
export function threadMessageView(message: Message, zone: string, language: Language): ThreadMessageView {
  return {
    id: message.id,
    mine: message.mine,
    text: message.text,
    deleted: message.deleted,
    removed: message.removed_by_admins,
    read: message.mine && message.read,
    canDelete: message.mine && message.can_delete,
    when: formatShortDateTime(message.sent_at, zone, language),
    at: message.sent_at,
  }
}
