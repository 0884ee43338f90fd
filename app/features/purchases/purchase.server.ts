import QRCode from 'qrcode'
import { formatTime } from '#app/domain/appointments.ts'
import { dateAt } from '#app/domain/calendar-dates.ts'
import { type Cart, removeFromCart } from '#app/domain/cart.ts'
import { formatMoney } from '#app/domain/money.ts'
import { formatDateAndTime, withdrawalEndText } from '#app/domain/viewer-times.ts'
import { type Language } from '#app/i18n/config.ts'
import { type PurchaseDetail } from '#app/provider/purchase-schemas.ts'
import { cartCookieHeader, readCart } from '#app/features/cart/cart-cookie.server.ts'

/** Refusals the page explains in the buyer's language; any other is `generic`. */
const KNOWN_FAILURES = ['generic_decline', 'card_declined', 'insufficient_funds', 'expired_card', 'incorrect_cvc', 'payment_intent_payment_attempt_expired'] as const

/** The key of the text that says why a payment was refused. */
function failureKey(code: string | null | undefined): string {
  const known = KNOWN_FAILURES.find((item) => item === code)
  return `orders:purchase.failures.${known === 'card_declined' ? 'generic_decline' : (known ?? 'generic')}`
}

/** An instant as the page says it, in the viewer's time zone (decision 0077): the time, or the date and time, in the page's language. */
function viewerTime(iso: string, language: Language, timeZone: string, withDate = false) {
  return withDate ? formatDateAndTime(iso, timeZone, language) : formatTime(iso, timeZone, language)
}

/** A São Paulo calendar date (YYYY-MM-DD) in words. */
export const calendarDate = (date: string, language: Language) =>
  new Intl.DateTimeFormat(language === 'pt' ? 'pt-BR' : language, { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' }).format(dateAt(date))

/**
 * The purchase as its page shows it (docs/product.md §2): what was bought and for how much, where
 * the payment stands, and while a PIX code is open its QR code as SVG (drawn here, so the page
 * needs no script to show it) with the copy-and-paste text and its expiry.
 */
export async function purchaseView(purchase: PurchaseDetail, language: Language, timeZone: string) {
  const pix = purchase.pix
    ? {
        data: purchase.pix.data,
        // The quiet zone of 4 modules ISO/IEC 18004 asks for: some bank apps read nothing narrower (issue 41).
        qrSvg: await QRCode.toString(purchase.pix.data, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 }),
        expiresAt: purchase.pix.expires_at,
        expiresLabel: viewerTime(purchase.pix.expires_at, language, timeZone),
        instructionsUrl: purchase.pix.instructions_url,
      }
    : null
  const quote = purchase.refund_quote
  return {
    id: purchase.id,
    status: purchase.status,
    method: purchase.method,
    createdLabel: viewerTime(purchase.created_at, language, timeZone, true),
    paidLabel: purchase.paid_at ? viewerTime(purchase.paid_at, language, timeZone, true) : null,
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
          // The period's last day in São Paulo, or outside its zone the instant it ends (decision 0077).
          withdrawalEnds: quote.withdrawal_ends_at ? withdrawalEndText(quote.withdrawal_ends_at, timeZone, language) : null,
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
