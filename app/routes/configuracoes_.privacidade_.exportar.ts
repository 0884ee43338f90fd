import { type LoaderFunctionArgs } from '@remix-run/node'
import { PRIVACY_PATH } from '#app/forms/privacy.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { exportData } from '#app/provider/privacy.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { failureText } from '#app/utils/messages.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/**
 * The data export (`/configuracoes/privacidade/exportar`, docs/decisions/0060-lgpd-self-service.md):
 * the provider's ZIP passed straight through as it is written, never held whole here; the session's
 * token never leaves the server and nothing keeps a copy (`private, no-store`). The provider failing
 * or refusing (throttled) before the file starts: back to the privacy page, told why.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request)
  try {
    const file = await exportData(auth, await languageOf(request))
    return new Response(file.body, {
      status: 200,
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': file.headers.get('Content-Disposition') ?? 'attachment; filename="innera-dados.zip"',
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    })
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    const t = await getFixedT(request, ['common', 'privacy'])
    return redirectWithToast(PRIVACY_PATH, { type: 'error', message: { text: failureText(t, error) } })
  }
}
