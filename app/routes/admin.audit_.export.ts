import { type LoaderFunctionArgs } from '@remix-run/node'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { auditFilterParams, auditProviderQuery, readAuditQuery } from '#app/features/admin/admin-audit.server.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { exportAuditEntries } from '#app/provider/admin-audit.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { failureText } from '#app/utils/messages.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/** What the provider names the file; anything else is named here. */
const FILE_NAME = /^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/

/**
 * The audit log as CSV (`/admin/audit/export`, decision 0059), with the page's filters: the
 * provider's file streamed through as it is written (never held whole here), the session's token
 * never leaving the server, nothing keeping a copy. The provider refusing or away: back to the
 * page with the filters, told why.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const query = readAuditQuery(new URL(request.url))
  try {
    const file = await exportAuditEntries(auth, auditProviderQuery(query, timeZoneOr(user.time_zone)))
    const type = file.headers.get('Content-Type') ?? ''
    if (!type.startsWith('text/csv')) {
      await file.body?.cancel().catch(() => undefined)
      throw new ProviderError({ kind: 'http', status: 502 })
    }
    const disposition = file.headers.get('Content-Disposition') ?? ''
    return new Response(file.body, {
      status: 200,
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': FILE_NAME.test(disposition) ? disposition : 'attachment; filename="audit.csv"',
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    })
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    const t = await getFixedT(request, 'common')
    return redirectWithToast(`/admin/audit${auditFilterParams(query, query.page)}`, { type: 'error', message: { text: failureText(t, error) } })
  }
}
