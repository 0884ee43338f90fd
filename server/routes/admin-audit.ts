import { z } from 'zod'
import { actorOf } from '#server/audit/entries.ts'
import { auditCsvStream } from '#server/audit/export.ts'
import { auditEntriesPage, countAuditEntries, serializeAuditEntry, type AuditFilter, type PersonRef } from '#server/audit/queries.ts'
import { recordAudit } from '#server/audit/repository.ts'
import { authenticateWithRole } from '#server/auth/authenticate.ts'
import { addDays, localDateOf, startOfLocalDay } from '#server/dates.ts'
import type { Api, AppContext } from '#server/http/api.ts'
import { fieldError } from '#server/http/errors.ts'
import { charField, dateField, emailField, idField, timeZoneField, validate } from '#server/http/fields.ts'
import { paginate, PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import type { Services } from '#server/services.ts'

/** The business's zone: an admin's "from" and "to" are days in São Paulo without `tz` (the admin's zone, decision 0077). */
const SAO_PAULO = 'America/Sao_Paulo'

const ACTION_MESSAGE = 'Enter an action such as "user.groups", or an area such as "user".'
const TARGET_TYPE_MESSAGE = 'Enter a target type such as "user".'
const PERSON_MESSAGE = 'Enter a user id or an e-mail address.'

/** A user id, or an e-mail address (any case). */
const personField = () =>
  z.string().transform((value, context): PersonRef => {
    const text = value.trim()
    if (/^\d+$/.test(text)) {
      const id = idField().safeParse(text)
      if (id.success) return { id: id.data }
      context.addIssue({ code: 'custom', message: id.error.issues[0]!.message })
      return z.NEVER
    }
    const email = emailField().safeParse(text)
    if (email.success) return { email: email.data }
    context.addIssue({ code: 'custom', message: PERSON_MESSAGE })
    return z.NEVER
  })

const filterSchema = z.object({
  actor: personField().optional(),
  subject: personField().optional(),
  action: charField({ maxLength: 64 })
    .regex(/^[a-z_]+(\.[a-z_]+)*$/, ACTION_MESSAGE)
    .optional(),
  target_type: charField({ maxLength: 32 }).regex(/^[a-z_]+$/, TARGET_TYPE_MESSAGE).optional(),
  from: dateField().optional(),
  to: dateField().optional(),
  tz: timeZoneField().optional(),
})

/** The query's filters, checked and bounded (an empty parameter is no filter); a bad one is a 400 on its name. `from` and `to` are days of `tz`. */
function filterOf(c: AppContext): { filter: AuditFilter; timeZone: string } {
  const query = (name: string) => c.req.query(name)?.trim() || undefined
  const input = validate(filterSchema, {
    actor: query('actor'),
    subject: query('subject'),
    action: query('action'),
    target_type: query('target_type'),
    from: query('from'),
    to: query('to'),
    tz: query('tz'),
  })
  if (input.from && input.to && input.to < input.from) throw fieldError('to', 'Ensure this date is not before "from".')
  const timeZone = input.tz ?? SAO_PAULO
  const filter = {
    ...(input.actor && { actor: input.actor }),
    ...(input.subject && { subject: input.subject }),
    ...(input.action && { action: input.action }),
    ...(input.target_type && { targetType: input.target_type }),
    ...(input.from && { from: startOfLocalDay(input.from, timeZone) }),
    ...(input.to && { to: startOfLocalDay(addDays(input.to, 1), timeZone) }),
  }
  return { filter, timeZone }
}

/** The audit log for admins (decision 0059): filtered pages, newest first, and the CSV of the same filters. */
export function registerAdminAuditRoutes(api: Api, services: Services): void {
  const { db, clock, log } = services

  api.endpoint('/admin/audit/', {
    GET: async (c) => {
      await authenticateWithRole(c, services, 'admin')
      const { filter } = filterOf(c)
      const page = paginate(c, await countAuditEntries(db, filter))
      const rows = await auditEntriesPage(db, filter, page)
      return c.json(page.envelope(rows.map(serializeAuditEntry)))
    },
  })

  api.endpoint('/admin/audit/export/', {
    GET: async (c) => {
      const caller = await authenticateWithRole(c, services, 'admin')
      const { filter, timeZone } = filterOf(c)
      const now = clock()
      // Who took a copy of the log, and of what, is itself kept (the copy holds people's data).
      const filters = Object.fromEntries(['actor', 'subject', 'action', 'target_type', 'from', 'to', 'tz'].flatMap((name) => (c.req.query(name)?.trim() ? [[name, c.req.query(name)!.trim()]] : [])))
      await recordAudit(db, { ...actorOf(caller), action: 'audit.export', targetType: 'audit_log', targetId: null, after: { filters }, at: now })
      return new Response(auditCsvStream(db, filter, log), {
        status: 200,
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="audit-${localDateOf(now, timeZone)}.csv"`,
          'Cache-Control': PRIVATE_NO_STORE,
        },
      })
    },
  })
}
