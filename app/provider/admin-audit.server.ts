import { z } from 'zod'
import { type SignedInCaller } from './fetch.server.ts'
import { paginated } from './schemas.ts'

/** The audit log (issue 26, decision 0059): every admin change and every staff read of a patient's health data. */

const changes = z.record(z.string(), z.unknown()).nullable()

const auditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  /** Null: the provider's own jobs. A person since deleted keeps their id and role, without a name. */
  actor: z.object({ id: z.number(), role: z.string(), name: z.string().nullable(), email: z.string().nullable() }).nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  subject: z.object({ id: z.number(), name: z.string().nullable() }).nullable(),
  before: changes,
  after: changes,
  reason: z.string().nullable(),
})
export type AuditEntry = z.infer<typeof auditEntrySchema>

const auditPage = paginated(auditEntrySchema)

/** The filters as the provider takes them: a person by id or e-mail, an action or its area, São Paulo days (both included). */
/** `from` and `to` are days of `tz` (São Paulo's without it), both included. */
export type AuditQuery = { actor?: string; subject?: string; action?: string; target_type?: string; from?: string; to?: string; tz?: string }

export const listAuditEntries = (auth: SignedInCaller, query: AuditQuery, page: number | 'last', pageSize: number) =>
  auth.call('/admin/audit/', auditPage, { query: { ...query, page: page === 1 ? undefined : page, page_size: pageSize } })

/** The filtered log as CSV, streamed through as the provider writes it. */
export const exportAuditEntries = (auth: SignedInCaller, query: AuditQuery) => auth.stream('/admin/audit/export/', { query })
