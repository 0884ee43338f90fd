import { data } from '@remix-run/node'
import { currentRequestContext } from '#app/http/request-context.server.ts'

/** More entries than any of our forms has (the assessment, the largest, has a few dozen). */
export const MAX_FORM_ENTRIES = 300
/** Longer than any text field we take; a longer value is never parsed into a page again. */
export const MAX_TEXT_VALUE_LENGTH = 50_000

const FORM_TOO_LARGE_REASON = 'too-large'

const tooLarge = () => data({ reason: FORM_TOO_LARGE_REASON }, { status: 413 })

/**
 * The submitted form, read through the one door every action uses. A body that is not a form at
 * all (no body, JSON, text, a broken multipart: never a browser, sometimes a script) is refused
 * with 400 and the error page, never a 500. A form that is too big (a body over the HTTP layer's
 * limit, too many fields, one enormous value) is refused with 413, so no action ever renders a
 * megabyte of someone's input back into a page. A form with more inputs than MAX_FORM_ENTRIES (the
 * questionnaire's editor) names its own `maxEntries`.
 */
export async function readFormData(request: Request, { maxEntries = MAX_FORM_ENTRIES }: { maxEntries?: number } = {}): Promise<FormData> {
  // The HTTP server has already seen a Content-Length over the limit and passed on no body.
  if (currentRequestContext()?.bodyTooLarge) throw tooLarge()
  let form: FormData
  try {
    form = await request.formData()
  } catch {
    // A chunked body that went over the limit while it was read fails the parse: say why.
    if (currentRequestContext()?.bodyTooLarge) throw tooLarge()
    throw data({ reason: 'not-a-form' }, { status: 400 })
  }
  let entries = 0
  for (const [, value] of form) {
    entries += 1
    if (entries > maxEntries) throw tooLarge()
    if (typeof value === 'string' && value.length > MAX_TEXT_VALUE_LENGTH) throw tooLarge()
  }
  return form
}

/** A form's text fields by name (the last of a name wins; files are left out). */
export function textFields(form: FormData): Record<string, string> {
  return Object.fromEntries([...form].filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
}
