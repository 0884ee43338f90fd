import { redirect } from '@remix-run/node'
import { type Cents, formatMoney } from '#app/domain/money.ts'
import { boughtLinks } from '#app/domain/purchase-links.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { listCourses } from '#app/provider/courses.server.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { type PurchaseDetail, type RefundDeadline } from '#app/provider/purchase-schemas.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { cancelPurchase, getPurchase, refreshPurchase, renewPix } from '#app/provider/purchases.server.ts'
import { CANCEL_STEP, isConfirmed, stepOf, stepUrl } from '#app/utils/confirm-step.ts'
import { failureText } from '#app/utils/messages.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { calendarDate } from './purchase.server.ts'

/** Paid or given back: the method is how it was paid; before that, how it is to be paid. */
const SETTLED: readonly PurchaseDetail['status'][] = ['paid', 'refunded']

/**
 * What the purchase page shows besides the purchase itself (docs/product.md §2, issue 42): how it
 * is (to be) paid, where each paid item leads, the purchase that holds its products now when this
 * one was cancelled for it (decision 0076), and whether the cancel step is open. A course's page is
 * asked of the provider only when a course item links to it.
 */
export async function purchasePageExtras(auth: SignedInCaller, purchase: PurchaseDetail, url: string) {
  const replacedBy = purchase.replaced_by_purchase_id ?? null
  const leads = purchase.status === 'paid' || replacedBy !== null
  const courseIds = new Map<number, number>()
  if (leads && purchase.items.some((item) => item.product_type === 'course')) {
    // Without the list (the provider failing) the link goes to "my products", which lists the course too.
    const courses = await listCourses(auth, { mine: true }).catch(() => null)
    for (const course of courses?.results ?? []) if (course.product) courseIds.set(course.product.id, course.id)
  }
  const links = leads ? boughtLinks(purchase.items.map((item) => ({ productId: item.product_id, type: item.product_type })), (id) => courseIds.get(id)) : []
  return {
    methodKey: `purchase.${SETTLED.includes(purchase.status) ? 'method' : 'methodDue'}.${purchase.method}`,
    links,
    replacedBy: replacedBy === null ? null : { id: replacedBy, type: purchase.items.find((item) => item.product_id !== null)?.product_type ?? 'course' },
    step: purchase.can_cancel ? stepOf(url, [CANCEL_STEP]) : null,
    keepTo: `/compras/${purchase.id}`,
  }
}

/**
 * What the toast says once a cancel went through: the refund, how much and where it goes back by
 * when (from the quote the buyer confirmed), or that nothing was charged.
 */
function cancelledText(t: T, before: PurchaseDetail, after: PurchaseDetail, language: Language): string {
  const refunded = after.refunded_cents - before.refunded_cents
  if (refunded <= 0) return t(before.status === 'paid' ? 'orders:purchase.cancelledNoRefund' : 'orders:purchase.cancelledUnpaid')
  return refundRequestedText(t, after.refunded_cents, before.refund_quote?.deadline ?? null, language)
}

type T = (key: string, values?: Record<string, unknown>) => string

/**
 * "Reembolso de R$ 197,00 pedido: volta …": how much and where it goes back by when, from the
 * quote's deadline (a purchase's refund, a subscription's withdrawal).
 */
export function refundRequestedText(t: T, amountCents: Cents, deadline: RefundDeadline | null, language: Language): string {
  const amount = formatMoney(amountCents, language)
  if (deadline?.method === 'pix' && deadline.date) return t('orders:purchase.refundRequested.pix', { amount, date: calendarDate(deadline.date, language) })
  if (deadline?.method === 'card') return t('orders:purchase.refundRequested.card', { amount, count: deadline.billing_cycles ?? 2 })
  return t('orders:purchase.refundRequested.other', { amount })
}

/**
 * The cancel (or refund) button of the page: asked without the step's confirmation it opens the
 * step instead of acting; confirmed, it cancels and says what happened.
 */
async function cancelAction(request: Request, auth: SignedInCaller, id: number, form: FormData) {
  const back = `/compras/${id}`
  if (!isConfirmed(form)) return redirect(stepUrl(back, CANCEL_STEP), { status: 303 })
  const before = await getPurchase(auth, id)
  const after = await cancelPurchase(auth, id)
  const [t, language] = await Promise.all([getFixedT(request, ['common', 'orders']), languageOf(request)])
  return redirectWithToast(back, { type: 'success', message: { text: cancelledText(t, before, after, language) } })
}

const ACTIONS = {
  refresh: { call: refreshPurchase, toast: null },
  renew: { call: renewPix, toast: 'orders:purchase.renewed' },
} as const

/**
 * The purchase page's buttons: check the payment now, a new PIX code, cancel (or refund: only from
 * its confirmation step, decision 0079). Each comes back to the page.
 */
export async function purchaseAction(request: Request, auth: SignedInCaller, id: number, form: FormData) {
  const back = `/compras/${id}`
  const intent = String(form.get('intent') ?? '')
  const action = ACTIONS[intent as keyof typeof ACTIONS]
  if (!action && intent !== 'cancel') return redirectWithToast(back, { type: 'error', message: { key: 'shop-replies:checkout.invalid' } })
  try {
    if (!action) return await cancelAction(request, auth, id, form)
    const purchase = await action.call(auth, id)
    const toast = action.toast ?? `orders:purchase.status.${purchase.status}`
    return redirectWithToast(back, { type: 'success', message: { key: toast } })
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    const t = await getFixedT(request, ['common', 'orders'])
    // A new code refused because another purchase of the buyer holds its products now (decision 0072).
    const claimed = error.code === 'already_in_checkout' || error.code === 'already_owned'
    return redirectWithToast(back, { type: 'error', message: { text: claimed ? t('orders:purchase.claimedElsewhere') : error.status === 409 ? t('orders:purchase.changed') : failureText(t, error) } })
  }
}
