import { type LoaderFunctionArgs } from '@remix-run/node'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { providerQuery, readPurchaseQuery } from '#app/features/admin/admin-purchases.server.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { exportAdminPurchases } from '#app/provider/admin-purchases.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { failureText } from '#app/utils/messages.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

const SAFE_DISPOSITION = /^attachment; filename="[\w.-]{1,100}"$/

/**
 * The purchases list as CSV (`/admin/purchases/export`, decision 0061), with the list page's
 * filters: the provider's file passed through as it is written (never held whole here), the
 * session's token never leaving the server, nothing keeping a copy. Admins only. The provider
 * failing before the file starts: back to the list, told why.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const url = new URL(request.url)
  try {
    // The list's dates, and a consultation's line, in the admin's zone (decision 0077).
    const file = await exportAdminPurchases(auth, providerQuery(readPurchaseQuery(url), timeZoneOr(user.time_zone)))
    const disposition = file.headers.get('Content-Disposition') ?? ''
    return new Response(file.body, {
      status: 200,
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        // The provider's dated name ("compras-2026-03-10.csv"), when it is one.
        'Content-Disposition': SAFE_DISPOSITION.test(disposition) ? disposition : 'attachment; filename="compras.csv"',
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    })
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    const t = await getFixedT(request, 'common')
    return redirectWithToast(`/admin/purchases${url.search}`, { type: 'error', message: { text: failureText(t, error) } })
  }
}
