import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { pushSubscriptionFormSchema } from '#app/forms/notification-settings.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { subscribePush, unsubscribePush } from '#app/provider/notifications.server.ts'
import { requireUser } from '#app/session/auth.server.ts'

/** A subscription is well under 1 KB; a body past this is not one. */
const MAX_BODY_CHARACTERS = 4096
const json = (body: unknown, status = 200) => Response.json(body, { status, headers: { 'Cache-Control': 'private, no-store' } })

/**
 * Where the notification page's script posts this browser's push subscription (decision 0087):
 * `{intent: 'subscribe', endpoint, keys}` as PushSubscription.toJSON() gives them, or
 * `{intent: 'unsubscribe', endpoint}`. It forwards them to the provider with the session's token,
 * which the browser never sees, and answers JSON: `{ok: true}`, or `{ok: false, error}` with the
 * provider's status (400 a refused subscription, 503 the provider away). JSON only: a cross-site
 * form cannot send it, and the app refuses cross-site writes anyway.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: ['paciente', 'profissional'] })
  if (!request.headers.get('Content-Type')?.toLowerCase().startsWith('application/json')) return json({ ok: false, error: 'unsupported_media_type' }, 415)
  const text = await request.text()
  if (text.length > MAX_BODY_CHARACTERS) return json({ ok: false, error: 'too_large' }, 413)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return json({ ok: false, error: 'invalid' }, 400)
  }
  const parsed = pushSubscriptionFormSchema.safeParse(body)
  if (!parsed.success) return json({ ok: false, error: 'invalid' }, 400)
  try {
    if (parsed.data.intent === 'subscribe') await subscribePush(auth, { endpoint: parsed.data.endpoint, keys: parsed.data.keys })
    else await unsubscribePush(auth, parsed.data.endpoint)
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    // Forgetting a browser the provider no longer has is done already.
    if (parsed.data.intent === 'unsubscribe' && error.status === 404) return json({ ok: true })
    const status = error.isNetwork || (error.status ?? 500) >= 500 ? 503 : (error.status ?? 400)
    return json({ ok: false, error: status === 503 ? 'unavailable' : 'refused' }, status)
  }
  return json({ ok: true })
}

export function loader() {
  return redirect('/configuracoes/notificacoes')
}
