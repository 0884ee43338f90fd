import { z } from 'zod'
import { MESSAGE_TEXT_MAX_LENGTH } from '#app/domain/message-limits.ts'
import { MAX_ID } from '#app/utils/ids.ts'

/**
 * The thread's forms (issue 44, decision 0085's bounds), shared by the browser and the server:
 * a message to send with the key that makes a resent form the same message, or one's own message
 * to delete. Messages are translation keys.
 */

export const sendMessageSchema = z.object({
  intent: z.literal('send'),
  text: z
    .string({ error: 'messages:thread.required' })
    .trim()
    .min(1, { error: 'messages:thread.required', abort: true })
    .max(MESSAGE_TEXT_MAX_LENGTH, { error: 'messages:thread.tooLong' })
    // The provider refuses a NUL; nobody types one.
    .refine((text) => !text.includes('\u0000'), { error: 'messages:thread.required' }),
  idempotency_key: z.string().regex(/^[A-Za-z0-9-]{8,64}$/),
})
export type SendMessageInput = z.input<typeof sendMessageSchema>

/** With files (decision 0086) the text may be empty. */
export const sendMessageWithFilesSchema = sendMessageSchema.extend({
  text: z
    .string()
    .trim()
    .max(MESSAGE_TEXT_MAX_LENGTH, { error: 'messages:thread.tooLong' })
    .refine((text) => !text.includes('\u0000'), { error: 'messages:thread.required' })
    .optional()
    .transform((text) => text ?? ''),
})


export const deleteMessageSchema = z.object({ intent: z.literal('delete'), message: z.coerce.number().int().positive().max(MAX_ID) })

/** The page with JavaScript: the other side's messages seen up to this one (decision 0088). */
export const readMessagesSchema = z.object({ intent: z.literal('read'), up_to: z.coerce.number().int().positive().max(MAX_ID) })
