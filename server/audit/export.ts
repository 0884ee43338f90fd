import { Readable, pipeline } from 'node:stream'
import { stringify } from 'csv-stringify'
import type { Database } from '#server/db/client.ts'
import { errorFields, type Logger } from '#server/log.ts'
import { auditEntriesAfter, cursorOf, serializeAuditEntry, type AuditCursor, type AuditFilter } from '#server/audit/queries.ts'

/**
 * The audit log as CSV (decision 0059), for a spreadsheet: UTF-8 with a BOM (so Excel reads the
 * accents), a header row, one row per entry newest first, before/after as JSON text. Written by
 * csv-stringify, whose escape_formulas puts a ' before a cell that starts with = + - @, a tab or a
 * carriage return (OWASP's CSV injection): a name or a reason never runs as a formula.
 */

const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'actor_id',
  'actor_role',
  'actor_name',
  'actor_email',
  'action',
  'target_type',
  'target_id',
  'subject_id',
  'subject_name',
  'reason',
  'before',
  'after',
] as const

/** Entries read per query: the export holds one batch at a time, never the whole log. */
const EXPORT_BATCH = 500

const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value))

function csvRecord(entry: ReturnType<typeof serializeAuditEntry>): Record<(typeof AUDIT_CSV_COLUMNS)[number], string | number> {
  return {
    id: entry.id,
    at: entry.at,
    actor_id: entry.actor?.id ?? '',
    actor_role: entry.actor?.role ?? 'system',
    actor_name: entry.actor?.name ?? '',
    actor_email: entry.actor?.email ?? '',
    action: entry.action,
    target_type: entry.target_type,
    target_id: entry.target_id ?? '',
    subject_id: entry.subject?.id ?? '',
    subject_name: entry.subject?.name ?? '',
    reason: entry.reason ?? '',
    before: json(entry.before),
    after: json(entry.after),
  }
}

/** The records of the filtered log, read a batch at a time, each batch only when the reader wants more. */
async function* auditRecords(db: Database, filter: AuditFilter, batch: number) {
  let cursor: AuditCursor | undefined
  for (;;) {
    const rows = await auditEntriesAfter(db, filter, cursor, batch)
    for (const row of rows) yield csvRecord(serializeAuditEntry(row))
    if (rows.length < batch) return
    cursor = cursorOf(rows.at(-1)!)
  }
}

/**
 * The CSV's bytes as a web stream for the response body. Backpressure runs from the client back
 * to the database reads; a client that goes away stops them; a failure midway is logged and cuts
 * the download short (the headers are long gone).
 */
export function auditCsvStream(db: Database, filter: AuditFilter, log: Logger, batch = EXPORT_BATCH): ReadableStream<Uint8Array> {
  const csv = stringify({ bom: true, header: true, columns: [...AUDIT_CSV_COLUMNS], escape_formulas: true })
  pipeline(Readable.from(auditRecords(db, filter, batch)), csv, (error) => {
    if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') log({ level: 'error', msg: 'audit export failed', ...errorFields(error) })
  })
  return Readable.toWeb(csv) as unknown as ReadableStream<Uint8Array>
}
