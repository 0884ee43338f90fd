import { z } from 'zod'
import { actorOf } from '#server/audit/entries.ts'
import { recordAudit } from '#server/audit/repository.ts'
import { authenticateWithRole } from '#server/auth/authenticate.ts'
import { REPORT_OUTCOMES } from '#server/db/schema.ts'
import { idParam, type Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { apiError, validationError } from '#server/http/errors.ts'
import { choiceField, validate } from '#server/http/fields.ts'
import { paginate, PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import { countReports, reportsPage, resolveReport } from '#server/messages/repository.ts'
import type { Services } from '#server/services.ts'

const PRIVATE = { 'Cache-Control': PRIVATE_NO_STORE }
const resolveSchema = z.object({ outcome: choiceField(REPORT_OUTCOMES) })
const personOf = (user: { id: number; firstName: string; lastName: string } | null) => user && { id: user.id, first_name: user.firstName, last_name: user.lastName }

/**
 * The admins' queue of reported messages (decision 0085): each report is the reported message's
 * text as it was reported and the reporter's reason, never the conversation around it. An admin
 * dismisses it or removes the message; the decision is audited (`message.report_dismissed`,
 * `message.remove`).
 */
export function registerAdminMessageReportRoutes(api: Api, services: Services): void {
  const { db, clock } = services

  api.endpoint('/admin/message-reports/', {
    GET: async (c) => {
      await authenticateWithRole(c, services, 'admin')
      const handled = c.req.query('handled')
      if (handled !== undefined && handled !== 'true' && handled !== 'false') throw validationError({ handled: ['Select a valid choice.'] })
      const open = handled !== 'true'
      const page = paginate(c, await countReports(db, open))
      const rows = await reportsPage(db, open, page)
      return c.json(
        page.envelope(
          rows.map(({ report, reporter, author, sentAt }) => ({
            id: report.id,
            message_id: report.messageId,
            text: report.reportedText,
            sent_at: sentAt.toISOString(),
            author: personOf(author),
            reporter: personOf(reporter),
            reason: report.reason,
            reported_at: report.createdAt.toISOString(),
            outcome: report.outcome,
            handled_at: report.handledAt?.toISOString() ?? null,
          })),
        ),
        200,
        PRIVATE,
      )
    },
  })

  api.endpoint('/admin/message-reports/:id{[0-9]+}/resolve/', {
    POST: async (c) => {
      const caller = await authenticateWithRole(c, services, 'admin')
      const { outcome } = validate(resolveSchema, await readFields(c.req.raw))
      const now = clock()
      const report = await resolveReport(db, {
        reportId: idParam(c, 'id'),
        outcome,
        adminId: caller.user.id,
        now: new Date(now),
        audit: (tx, row) =>
          recordAudit(tx, { ...actorOf(caller), action: outcome === 'removed' ? 'message.remove' : 'message.report_dismissed', targetType: 'message', targetId: row.messageId, reason: row.reason, at: now }),
      })
      if (!report) throw apiError(404, 'This report does not exist or was handled already.')
      return c.json({ id: report.id, outcome: report.outcome, handled_at: report.handledAt!.toISOString() }, 200, PRIVATE)
    },
  })
}
