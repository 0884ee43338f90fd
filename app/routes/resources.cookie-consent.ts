import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { z } from 'zod'
import { getEnv } from '#app/env.server.ts'
import { recordCookieChoice } from '#app/features/privacy/privacy.server.ts'
import { getAuth } from '#app/session/auth.server.ts'
import { type ConsentChoice, consentCookieHeader, consentFor, optionalCategories } from '#app/utils/consent.ts'
import { safeRedirect } from '#app/utils/safe-redirect.ts'
import { readFormData } from '#app/utils/form-data.server.ts'

const choiceSchema = z.object({
  intent: z.enum(['all', 'necessary', 'custom', 'close']),
  redirectTo: z.string().optional(),
})

/** The cookie banner and the preferences panel post here; it works with JavaScript off. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request)
  const parsed = choiceSchema.safeParse({ intent: form.get('intent'), redirectTo: form.get('redirectTo') ?? undefined })
  if (!parsed.success) return Response.json({ error: 'invalid choice' }, { status: 400 })
  const { intent, redirectTo } = parsed.data
  const choice: ConsentChoice =
    intent === 'custom' ? { kind: 'custom', categories: optionalCategories.filter((category) => form.get(category) === 'on') } : { kind: intent }
  const consent = consentFor(choice, new Date())
  // A signed-in user's choice goes to their consent record too (decision 0060), never holding up the answer.
  void recordCookieChoice(await getAuth(request), consent)
  const headers = { 'Set-Cookie': consentCookieHeader(consent, { secure: getEnv().SESSION_COOKIE_SECURE }) }
  if (request.headers.get('Accept')?.includes('application/json')) return Response.json({ consent }, { headers })
  return redirect(stripSettings(safeRedirect(redirectTo, '/')), { status: 303, headers })
}

/** After saving, the page comes back without the ?cookie-settings that opened the panel. */
function stripSettings(path: string) {
  const url = new URL(path, 'http://innera.invalid')
  url.searchParams.delete('cookie-settings')
  return `${url.pathname}${url.search}${url.hash}`
}

export function loader() {
  return redirect('/')
}
