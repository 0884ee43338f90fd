import { z } from 'zod'
import { contactSubjects, type ContactSubject } from '#app/domain/contact-limits.ts'
import { providerJson, type SignedInCaller } from './fetch.server.ts'
import { paginated } from './schemas.ts'

const contactMessageSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable().optional().transform((value) => value ?? ''),
  // A subject this app does not know yet (a newer provider) still shows, as "other".
  subject: z.string().transform((value): ContactSubject => ((contactSubjects as readonly string[]).includes(value) ? (value as ContactSubject) : 'other')),
  message: z.string(),
  handled: z.boolean(),
  handled_at: z.string().nullable().optional().transform((value) => value ?? null),
  created_at: z.string(),
})

const createdSchema = z.object({ id: z.number(), detail: z.string().optional() }).passthrough()

type ContactInput = { name: string; email: string; phone: string; subject: ContactSubject; message: string }

/** Anonymous: anyone may write. The visitor's address travels as X-Forwarded-For (the provider throttles it). */
export const sendContactMessage = (input: ContactInput) => providerJson('/contact/', createdSchema, { method: 'POST', json: input })

type ContactQuery = { search?: string; subject?: ContactSubject; handled?: boolean; page?: number; page_size?: number }

const contactMessagePage = paginated(contactMessageSchema)

export const listContactMessages = (auth: SignedInCaller, query: ContactQuery) =>
  auth.call('/contact/', contactMessagePage, { query })

export const setContactMessageHandled = (auth: SignedInCaller, id: number, handled: boolean) =>
  auth.call(`/contact/${id}/`, contactMessageSchema, { method: 'PATCH', json: { handled } })
