import QRCode from 'qrcode'
import { type Cart, removeFromCart } from '#app/domain/cart.ts'
import { formatMoney } from '#app/domain/money.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { type PurchaseDetail } from '#app/provider/purchase-schemas.ts'
import { cancelPurchase, refreshPurchase, renewPix } from '#app/provider/purchases.server.ts'
import { cartCookieHeader, readCart } from '#app/utils/cart-cookie.server.ts'
import { failureText } from '#app/utils/messages.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/** Refusals the page explains in the buyer's language; any other is `generic`. */
const KNOWN_FAILURES = ['generic_decline', 'card_declined', 'insufficient_funds', 'expired_card', 'incorrect_cvc', 'payment_intent_payment_attempt_expired'] as const

/** The key of the text that says why a payment was refused. */
export function failureKey(code: string | null | undefined): string {
  const known = KNOWN_FAILURES.find((item) => item === code)
  return `orders:purchase.failures.${known === 'card_declined' ? 'generic_decline' : (known ?? 'generic')}`
}

const TIME_ZONE = 'America/Sao_Paulo'

/** An instant as the page says it: the date and time in Brasília's time, in the page's language. */
function brasiliaTime(iso: string, language: Language, withDate = false) {
  return new Intl.DateTimeFormat(language === 'pt' ? 'pt-BR' : language, { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', ...(withDate && { day: 'numeric', month: 'long', year: 'numeric' }) }).format(new Date(iso))
}

/** The São Paulo date of an instant, in words. */
const brasiliaDate = (iso: string, language: Language) =>
  new Intl.DateTimeFormat(language === 'pt' ? 'pt-BR' : language, { timeZone: TIME_ZONE, day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(iso))

/** A São Paulo calendar date (YYYY-MM-DD) in words. */
export const calendarDate = (date: string, language: Language) =>
  new Intl.DateTimeFormat(language === 'pt' ? 'pt-BR' : language, { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(`${date}T12:00:00Z`))

/**
 * The purchase as its page shows it (docs/product.md §2): what was bought and for how much, where
 * the payment stands, and while a PIX code is open its QR code as SVG (drawn here, so the page
 * needs no script to show it) with the copy-and-paste text and its expiry.
 */
export async function purchaseView(purchase: PurchaseDetail, language: Language) {
  const pix = purchase.pix
    ? {
        data: purchase.pix.data,
        // The quiet zone of 4 modules ISO/IEC 18004 asks for: some bank apps read nothing narrower (issue 41).
        qrSvg: await QRCode.toString(purchase.pix.data, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 }),
        expiresAt: purchase.pix.expires_at,
        expiresLabel: brasiliaTime(purchase.pix.expires_at, language),
        instructionsUrl: purchase.pix.instructions_url,
      }
    : null
  const quote = purchase.refund_quote
  return {
    id: purchase.id,
    status: purchase.status,
    method: purchase.method,
    createdLabel: brasiliaTime(purchase.created_at, language, true),
    paidLabel: purchase.paid_at ? brasiliaTime(purchase.paid_at, language, true) : null,
    items: purchase.items.map((item) => ({ productId: item.product_id, type: item.product_type, name: item.name[language], quantity: item.quantity, total: formatMoney(item.line_cents, language) })),
    total: formatMoney(purchase.total_cents, language),
    refunded: purchase.refunded_cents > 0 ? formatMoney(purchase.refunded_cents, language) : null,
    pix,
    checkoutUrl: purchase.checkout_url,
    failureKey: purchase.failure ? failureKey(purchase.failure.code) : null,
    refund: quote
      ? {
          amount: formatMoney(quote.refund_cents, language),
          full: quote.refund_cents === purchase.total_cents,
          none: quote.refund_cents === 0,
          // The period's last day (its end may be given as the next day's first instant).
          withdrawalEnds: quote.withdrawal_ends_at ? brasiliaDate(new Date(Date.parse(quote.withdrawal_ends_at) - 1).toISOString(), language) : null,
          deadline: quote.deadline && {
            method: quote.deadline.method,
            billingCycles: quote.deadline.billing_cycles ?? 2,
            businessDays: quote.deadline.business_days ?? 3,
            dateLabel: quote.deadline.date ? calendarDate(quote.deadline.date, language) : '',
          },
        }
      : null,
    canCancel: purchase.can_cancel,
    canRenewPix: purchase.can_renew_pix,
    appointmentId: purchase.appointment_id ?? null,
    subscriptionId: purchase.subscription_id ?? null,
  }
}

export type PurchaseView = Awaited<ReturnType<typeof purchaseView>>

/**
 * Once a purchase is paid, what it bought leaves this browser's cart too (the account's copy left
 * it when the payment was recorded). Only the cookie is written, and only when it changes.
 */
export async function cartAfterPayment(request: Request, purchase: PurchaseDetail): Promise<string | undefined> {
  if (purchase.status !== 'paid') return undefined
  const cart = await readCart(request)
  const left: Cart = purchase.items.reduce((remaining, item) => (item.product_id === null ? remaining : removeFromCart(remaining, item.product_id)), cart)
  return left === cart ? undefined : cartCookieHeader(left)
}

const ACTIONS = {
  refresh: { call: refreshPurchase, toast: null },
  renew: { call: renewPix, toast: 'orders:purchase.renewed' },
  cancel: { call: cancelPurchase, toast: 'orders:purchase.cancelled' },
} as const

/** The purchase page's buttons: check the payment now, a new PIX code, cancel (or refund). Each comes back to the page. */
export async function purchaseAction(request: Request, auth: SignedInCaller, id: number, intent: string) {
  const back = `/compras/${id}`
  const action = ACTIONS[intent as keyof typeof ACTIONS]
  if (!action) return redirectWithToast(back, { type: 'error', message: { key: 'shop:checkout.invalid' } })
  try {
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
