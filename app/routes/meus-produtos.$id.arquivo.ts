import { type LoaderFunctionArgs, data } from '@remix-run/node'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { downloadMaterial } from '#app/provider/products.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { parseId } from '#app/utils/ids.ts'
import { failureText } from '#app/utils/messages.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/**
 * A digital material's file (`/meus-produtos/{product id}/arquivo`, decision 0056), passed through
 * from the provider to its buyer: the session's token never leaves the server, and nothing keeps a
 * copy (`private, no-store`). Not theirs: 404. Not yet available or the provider failing: back to
 * "my products", told why.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = parseId(params.id)
  if (id === undefined) throw data({ reason: 'not-found' }, { status: 404 })
  const { auth } = await requireUser(request)
  try {
    const file = await downloadMaterial(auth, id)
    return new Response(new Uint8Array(file.bytes), {
      status: 200,
      headers: {
        'Content-Type': file.contentType,
        'Content-Length': String(file.bytes.length),
        'Content-Disposition': file.disposition ?? `attachment; filename="material-${id}.pdf"`,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    })
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    if (error.status === 404) throw data({ reason: 'not-found' }, { status: 404 })
    const t = await getFixedT(request, ['common', 'orders'])
    const message = error.code === 'not_available_yet' ? t('orders:myProducts.notYet') : failureText(t, error)
    return redirectWithToast('/meus-produtos', { type: 'error', message: { text: message } })
  }
}
