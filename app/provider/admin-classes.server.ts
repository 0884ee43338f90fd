import { adminClassDetailSchema, adminClassPageSchema, adminClassSchema, cancelAnswerSchema, classDraftSchema, scheduleAnswerSchema } from './admin-classes-schemas.ts'
import { type SignedInCaller } from './fetch.server.ts'

/** The admin's live classes (decisions 0064 and 0067): every call an admin's. */

const BASE = '/admin/content/live-classes'
const item = (slug: string) => `${BASE}/${encodeURIComponent(slug)}`

/** The classes ahead (soonest first) or started (latest first), each with its draft, and the drafts of classes not yet published. */
export const listAdminClasses = (auth: SignedInCaller, { when, page, pageSize }: { when: 'upcoming' | 'past'; page: number | 'last'; pageSize: number }) =>
  auth.call(`${BASE}/`, adminClassPageSchema, { query: { when: when === 'upcoming' ? undefined : when, page: page === 1 ? undefined : page, page_size: pageSize } })

/** A class and its draft (404 when neither). */
export const getAdminClass = (auth: SignedInCaller, slug: string) => auth.call(`${item(slug)}/`, adminClassDetailSchema)

/** The form's values as the draft (a published class's: its texts). */
export const saveClassDraft = (auth: SignedInCaller, slug: string, body: Record<string, unknown>) => auth.call(`${item(slug)}/draft/`, classDraftSchema, { method: 'PUT', json: body })

export const discardClassDraft = (auth: SignedInCaller, slug: string) => auth.send(`${item(slug)}/draft/`, { method: 'DELETE' })

/** Publishes the form (saved as the draft first): 400 `title.en`-style errors when a language is missing. */
export const publishClass = (auth: SignedInCaller, slug: string, body: Record<string, unknown>) => auth.call(`${item(slug)}/publish/`, adminClassSchema, { method: 'POST', json: body })

/** A new start, length or seats: the seat holders told when the time changes. */
export const rescheduleClass = (auth: SignedInCaller, slug: string, body: { starts_at: string; duration_minutes: number; seats: number }) =>
  auth.call(`${item(slug)}/schedule/`, scheduleAnswerSchema, { method: 'POST', json: body })

/** Cancels the class (exactly once; 409 when cancelled or started), the reason audited. */
export const cancelClass = (auth: SignedInCaller, slug: string, reason: string) => auth.call(`${item(slug)}/cancel/`, cancelAnswerSchema, { method: 'POST', json: { reason } })
