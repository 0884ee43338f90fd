import { roleOf, type Caller } from '#server/auth/authenticate.ts'

/**
 * The audit log's entries (decision 0059), pure: who did what to what, whose data it was, the
 * changed fields before and after, and why. Every admin change and every staff view of a
 * patient's health data writes one, in the same transaction as the change it records.
 */

type AuditActorRole = 'admin' | 'profissional' | 'paciente' | 'system'

/** `area.verb`, lower case: "user.groups", "professional.accredit", "purchase.refund", "health.view". */
type AuditAction = `${string}.${string}`

export type AuditEntry = {
  actorId: number | null
  actorRole: AuditActorRole
  action: AuditAction
  targetType: string
  targetId: string | number | null
  /** Whose data it is, when it is someone's (the patient whose results were read; the user changed). */
  subjectUserId?: number | null
  before?: Record<string, unknown> | null
  after?: Record<string, unknown> | null
  reason?: string | null
  at: number
}

const MAX_AUDIT_REASON_LENGTH = 1000
const ACTION = /^[a-z_]+(\.[a-z_]+)+$/

/** The actor of a request's change. */
export const actorOf = (caller: Caller): Pick<AuditEntry, 'actorId' | 'actorRole'> => ({ actorId: caller.user.id, actorRole: roleOf(caller.groups) })

/** The provider's own jobs (retention, the deletion's finishing steps). */
export const SYSTEM_ACTOR: Pick<AuditEntry, 'actorId' | 'actorRole'> = { actorId: null, actorRole: 'system' }

/**
 * Only the fields that changed, before and after (a field that appears or disappears counts; values
 * compared as JSON). Both null when nothing changed, so a no-op is recorded as such.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown> | null; after: Record<string, unknown> | null } {
  const changedBefore: Record<string, unknown> = {}
  const changedAfter: Record<string, unknown> = {}
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue
    if (key in before) changedBefore[key] = before[key]
    if (key in after) changedAfter[key] = after[key]
  }
  const changed = Object.keys(changedBefore).length > 0 || Object.keys(changedAfter).length > 0
  return changed ? { before: changedBefore, after: changedAfter } : { before: null, after: null }
}

/** The row written for an entry; refuses what the table would (a malformed action, a long reason). */
export function auditRow(entry: AuditEntry) {
  if (!ACTION.test(entry.action) || entry.action.length > 64) throw new Error(`audit action must be area.verb: ${entry.action}`)
  const reason = entry.reason?.trim() || null
  if (reason && reason.length > MAX_AUDIT_REASON_LENGTH) throw new Error('audit reason too long')
  return {
    at: new Date(entry.at),
    actorId: entry.actorId,
    actorRole: entry.actorRole,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId === null ? null : String(entry.targetId),
    subjectUserId: entry.subjectUserId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
    reason,
  }
}
