import { type TFunction } from 'i18next'
import { z } from 'zod'
import { isDateInRange } from '#app/domain/date-range.ts'
import { formatDateAndTime } from '#app/domain/viewer-times.ts'
import { type Language } from '#app/i18n/config.ts'
import { type AuditEntry, type AuditQuery } from '#app/provider/admin-audit.server.ts'

/**
 * The audit log's page (`/admin/audit`, decision 0059): its GET filters as the page reads them,
 * the same filters for the provider and the export link, and each entry as the table shows it.
 */

/** The actions and areas the filter offers (an area keeps all its actions). Others' entries still show, by their name. */
export const AUDIT_ACTION_FILTERS = [
  'user',
  'user.update',
  'user.groups',
  'user.deactivate',
  'user.reactivate',
  'professional',
  'professional.accredit',
  'professional.revoke',
  'health.view',
  'purchase',
  'purchase.refund',
  // The provider's own: a payment Stripe spoke of that did not fit its purchase (decision 0074).
  'purchase.payment_mismatch',
  'appointment',
  'appointment.cancel',
  'appointment.move',
  'contact.handled',
  // The content editor (decision 0064): each kind's publications, creations and discarded drafts.
  'pillar',
  'product',
  'product.price',
  'course',
  'lesson',
  'live_class',
  'live_class.cancel',
  'questionnaire',
  'account',
  'account.delete_request',
  'account.delete_finish',
  'audit.export',
] as const

/** A user id or an e-mail address, as the provider takes a person. */
const PERSON = /^(?:\d{1,10}|[^\s@"(),:;<>[\]\\]+@[^\s@]+\.[^\s@]+)$/
const person = z.string().trim().max(254)
const date = z
  .string()
  .trim()
  .refine((value) => isDateInRange(value))
  .or(z.literal(''))
  .catch('')

const querySchema = z.object({
  action: z.enum(AUDIT_ACTION_FILTERS).or(z.literal('')).catch(''),
  actor: person.catch(''),
  subject: person.catch(''),
  from: date,
  to: date,
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
})
type AuditListQuery = z.infer<typeof querySchema> & { dropped: boolean }

/** The filters from the page's URL. A person that is neither an id nor an e-mail, or a reversed range, is dropped and said. */
export function readAuditQuery(url: URL): AuditListQuery {
  const read = (name: string) => url.searchParams.get(name) ?? ''
  const query = querySchema.parse({ action: read('action'), actor: read('actor'), subject: read('subject'), from: read('from'), to: read('to'), page: url.searchParams.get('page') ?? 1 })
  let dropped = false
  for (const name of ['actor', 'subject'] as const) {
    if (query[name] && !PERSON.test(query[name])) {
      query[name] = ''
      dropped = true
    }
  }
  if (query.from && query.to && query.to < query.from) {
    query.from = ''
    query.to = ''
    dropped = true
  }
  return { ...query, dropped }
}

/** What the provider is asked for: the dates are days of the admin's zone (`tz`, decision 0077). */
export function auditProviderQuery(query: AuditListQuery, timeZone: string): AuditQuery {
  return { action: query.action || undefined, actor: query.actor || undefined, subject: query.subject || undefined, from: query.from || undefined, to: query.to || undefined, tz: timeZone }
}

/** The filters as a query string (the pages, the export link): only what is set. */
export function auditFilterParams(query: AuditListQuery, page = 1): string {
  const params = new URLSearchParams()
  for (const name of ['action', 'actor', 'subject', 'from', 'to'] as const) if (query[name]) params.set(name, query[name])
  if (page > 1) params.set('page', String(page))
  const search = params.toString()
  return search ? `?${search}` : ''
}

/** The translation key of an action or an area ("user.groups" → audit.actions.user_groups: a key's dots nest). */
export const actionKey = (action: string) => `audit.actions.${action.replace(/\./g, '_')}`

const MAX_VALUE_LENGTH = 120

/** A recorded value in a line of text: lists joined, objects as JSON, long ones cut. */
function shown(value: unknown): string {
  const text = value === undefined || value === null ? '—' : typeof value === 'string' ? value : Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.join(', ') : JSON.stringify(value)
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH)}…` : text
}

/** Before and after, field by field. */
function changesOf(before: AuditEntry['before'], after: AuditEntry['after']) {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])]
  return fields.map((field) => ({ field, before: before && field in before ? shown(before[field]) : null, after: after && field in after ? shown(after[field]) : null }))
}

/** An entry as the table shows it, in the page's language and the admin's time zone (decision 0077). */
export function auditRow(entry: AuditEntry, { language, timeZone, t }: { language: Language; timeZone: string; t: TFunction }) {
  return {
    id: entry.id,
    at: entry.at,
    when: formatDateAndTime(entry.at, timeZone, language, { dateStyle: 'short', seconds: true }),
    actor: entry.actor
      ? { id: entry.actor.id, name: entry.actor.name ?? t('audit.gone', { id: entry.actor.id }), email: entry.actor.email, role: t(`roles.${entry.actor.role}`, { defaultValue: entry.actor.role }) }
      : null,
    action: t(actionKey(entry.action), { defaultValue: entry.action }),
    actionCode: entry.action,
    target: `${t(`audit.targets.${entry.target_type}`, { defaultValue: entry.target_type })}${entry.target_id ? ` #${entry.target_id}` : ''}`,
    subject: entry.subject ? { id: entry.subject.id, name: entry.subject.name ?? t('audit.gone', { id: entry.subject.id }) } : null,
    changes: changesOf(entry.before, entry.after),
    reason: entry.reason,
  }
}
