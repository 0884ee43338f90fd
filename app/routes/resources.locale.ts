import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { z } from 'zod'
import { supportedLanguages } from '#app/i18n/config.ts'
import { languageCookie } from '#app/i18n/i18next.server.ts'
import { safeRedirect } from '#app/utils/safe-redirect.ts'
import { readFormData } from '#app/utils/form-data.server.ts'

const schema = z.object({ lng: z.enum(supportedLanguages), redirectTo: z.string().optional() })

/** The language switcher posts here: remember the choice, go back where the user was. */
export async function action({ request }: ActionFunctionArgs) {
  const form = Object.fromEntries(await readFormData(request))
  const result = schema.safeParse(form)
  const redirectTo = safeRedirect(typeof form.redirectTo === 'string' ? form.redirectTo : null, '/')
  if (!result.success) return redirect(redirectTo, { status: 303 })
  return redirect(redirectTo, {
    status: 303,
    headers: { 'Set-Cookie': await languageCookie().serialize(result.data.lng) },
  })
}

export function loader() {
  return redirect('/')
}
