import { data } from '@remix-run/node'

/**
 * The submitted form. A body that is not a form at all (no body, JSON, text, a broken multipart:
 * never a browser, sometimes a script) is refused with 400 and the error page, never a 500.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData()
  } catch {
    throw data({ reason: 'not-a-form' }, { status: 400 })
  }
}
