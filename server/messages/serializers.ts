import type { AttachmentMeta, ConversationListItem, ConversationRow, MessageRow, Side, UserRow } from '#server/messages/repository.ts'
import { mayDelete, previewOf } from '#server/messages/rules.ts'
import { photoUrl } from '#server/users/serializers.ts'

/** The other person of a conversation as the caller sees them: a name and a photo, nothing else. */
const personOf = (user: UserRow, photoBase: string) => ({ id: user.id, first_name: user.firstName, last_name: user.lastName, photo: photoUrl(photoBase, user.photoName) })

/** A conversation's own state for one of its two. */
export function serializeConversation(conversation: ConversationRow, side: Side, other: UserRow, photoBase: string) {
  return {
    id: conversation.id,
    role: side,
    other: personOf(other, photoBase),
    closed: conversation.closedAt !== null,
    closed_at: conversation.closedAt?.toISOString() ?? null,
    // Only the patient mutes (their notifications); the professional's answer is always false.
    muted: side === 'patient' && conversation.patientMuted,
    created_at: conversation.createdAt.toISOString(),
    last_message_at: conversation.lastMessageAt?.toISOString() ?? null,
  }
}

/** A list row: the conversation, its last message's first words (never an attachment's name) and the caller's unread count. */
export function serializeConversationItem({ conversation, other, last, unread }: ConversationListItem, side: Side, userId: number, photoBase: string) {
  return {
    ...serializeConversation(conversation, side, other, photoBase),
    unread_count: unread,
    last_message: last && {
      id: last.id,
      preview: last.deletedAt ? '' : previewOf(last.body),
      // How many files it carries (decision 0086): a count, never their names.
      attachment_count: last.deletedAt ? 0 : last.attachmentCount,
      deleted: last.deletedAt !== null,
      mine: last.senderId === userId,
      sent_at: last.createdAt.toISOString(),
    },
  }
}

/** A signed link to an attachment for the caller, and when it stops working (ms). */
export type AttachmentLink = (attachmentId: number) => { url: string; expiresAt: number }

/** An attachment as the caller sees it: its name, type, size, an image's size in pixels, and a short-lived link made for the caller (decision 0086). */
export function serializeAttachment(attachment: AttachmentMeta, link: AttachmentLink) {
  const { url, expiresAt } = link(attachment.id)
  return {
    id: attachment.id,
    name: attachment.name,
    content_type: attachment.contentType,
    size: attachment.size,
    width: attachment.width,
    height: attachment.height,
    url,
    expires_at: new Date(expiresAt).toISOString(),
  }
}

/**
 * A message for one of the two: its text (empty once deleted), its files (none once deleted),
 * whether it is the caller's, whether the other side has seen it (the caller's messages up to the
 * other's read mark) and whether the caller may still delete it.
 */
export function serializeMessage(
  message: MessageRow,
  { userId, otherReadId, now, attachments = [], link }: { userId: number; otherReadId: number; now: number; attachments?: readonly AttachmentMeta[]; link: AttachmentLink },
) {
  const mine = message.senderId === userId
  const deleted = message.deletedAt !== null
  return {
    id: message.id,
    conversation_id: message.conversationId,
    mine,
    // Null once the sender's account is deleted ("Conta excluída").
    sender_id: message.senderId,
    text: message.body,
    attachments: visibleAttachments(message, attachments).map((attachment) => serializeAttachment(attachment, link)),
    sent_at: message.createdAt.toISOString(),
    deleted,
    removed_by_admins: message.removedByAdmins,
    read: mine && message.id <= otherReadId,
    can_delete: mine && !deleted && mayDelete(message.createdAt.getTime(), now),
  }
}

const visibleAttachments = (message: MessageRow, attachments: readonly AttachmentMeta[]) => (message.deletedAt === null ? attachments : [])
