import { formatShortDateTime } from '#app/domain/appointments.ts'
import { formatFileSize } from '#app/domain/file-size.ts'
import { type ThreadMessageView } from '#app/domain/live-thread.ts'
import { type Language } from '#app/i18n/config.ts'
import { type Message } from '#app/provider/message-schemas.ts'
import { signedMediaUrl } from '#app/utils/media.ts'

/**
 * A provider message as the thread page draws it, its time in the reader's zone and language: the
 * loader's messages, the live stream's and a send's answer are the same shape (decision 0088).
 */
export function threadMessageView(message: Message, zone: string, language: Language): ThreadMessageView {
  return {
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
  }
}
