import { z } from 'zod'
import { optionalUrl } from './schemas.ts'
import { pageOf } from './questionnaire-schemas.ts'

/**
 * The messages API of decision 0085 (docs/provider-api.md, "Messages API") as the app reads it:
 * conversations between a patient and their professional, their threads and the unread count.
 */

/** The other of the two: a name and a photo; an empty first name is a deleted account. */
export const messagePersonSchema = z.object({ id: z.number().nullable(), first_name: z.string(), last_name: z.string(), photo: optionalUrl() })

export const conversationSchema = z.object({
  id: z.number(),
  role: z.enum(['patient', 'professional']),
  other: messagePersonSchema,
  closed: z.boolean(),
  closed_at: z.string().nullable(),
  muted: z.boolean(),
  created_at: z.string(),
  last_message_at: z.string().nullable(),
})
export type Conversation = z.infer<typeof conversationSchema>

export const conversationItemSchema = conversationSchema.extend({
  unread_count: z.number(),
  last_message: z.object({ id: z.number(), preview: z.string(), attachment_count: z.number().int().nonnegative().default(0), deleted: z.boolean(), mine: z.boolean(), sent_at: z.string() }).nullable(),
})
export type ConversationItem = z.infer<typeof conversationItemSchema>

export const conversationPageSchema = pageOf(conversationItemSchema)

/** A file sent with a message (decision 0086): a link the provider signed for the caller, short-lived (30 to 35 minutes). */
export const messageAttachmentSchema = z.object({
  id: z.number(),
  name: z.string(),
  content_type: z.enum(['image/jpeg', 'image/png', 'image/webp', 'application/pdf']),
  size: z.number().int().nonnegative(),
  width: z.number().int().positive().nullable(),
  height: z.number().int().positive().nullable(),
  url: z.string(),
  expires_at: z.string(),
})
export type MessageAttachment = z.infer<typeof messageAttachmentSchema>

export const messageSchema = z.object({
  id: z.number(),
  conversation_id: z.number(),
  mine: z.boolean(),
  sender_id: z.number().nullable(),
  text: z.string(),
  // None once deleted; an answer from before attachments has none.
  attachments: z.array(messageAttachmentSchema).default([]),
  sent_at: z.string(),
  deleted: z.boolean(),
  removed_by_admins: z.boolean(),
  read: z.boolean(),
  can_delete: z.boolean(),
})
export type Message = z.infer<typeof messageSchema>

export const threadSchema = z.object({ conversation: conversationSchema, messages: z.array(messageSchema), older: z.number().nullable() })
export type Thread = z.infer<typeof threadSchema>

export const readMarkSchema = z.object({ read_up_to: z.number() })
export const unreadSchema = z.object({ unread: z.number() })
