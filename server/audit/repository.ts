import type { Writer } from '#server/db/client.ts'
import { auditLog } from '#server/db/schema.ts'
import { auditRow, type AuditEntry } from '#server/audit/entries.ts'

/**
 * Appends entries to the audit log (decision 0059). Call it with the transaction of the change it
 * records, so the change and its entry are written together or not at all.
 */
export async function recordAudit(db: Writer, ...entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return
  await db.insert(auditLog).values(entries.map(auditRow))
}
