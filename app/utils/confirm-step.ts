/**
 * The second step of a form that moves money or takes access away (docs/product.md §2, decision
 * 0079): the first button only opens the step (a GET: `?confirmar=<what>`), which says exactly
 * what happens; only the step's own button, which sends `confirmado=sim`, acts. An action asked
 * without it goes to the step instead of acting, so an old page or a double click moves nothing.
 * Pure; no imports: the pages' browser code uses it too.
 */
export const STEP_PARAM = 'confirmar'
export const CONFIRM_FIELD = 'confirmado'
export const CONFIRM_VALUE = 'sim'
/** The step that cancels something the user pays for: a purchase, a subscription. */
export const CANCEL_STEP = 'cancelar'

/** Whether the form was sent from the confirmation step. */
export function isConfirmed(form: FormData | URLSearchParams): boolean {
  return form.get(CONFIRM_FIELD) === CONFIRM_VALUE
}

/** The step a page's URL asks for (`?confirmar=cancelar`), when it is one the page knows. */
export function stepOf<const S extends string>(url: string | URL, steps: readonly S[]): S | null {
  const value = new URL(url).searchParams.get(STEP_PARAM)
  return steps.find((step) => step === value) ?? null
}

/** The URL of a page's confirmation step, its anchor the step itself (so the browser shows it). */
export function stepUrl(path: string, step: string, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ [STEP_PARAM]: step, ...extra })
  return `${path}?${query.toString()}#${STEP_PARAM}`
}
