import { data, redirect } from '@remix-run/node'
import { z } from 'zod'
import { formatMoney } from '#app/domain/money.ts'
import { getEnv } from '#app/env.server.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { PAYMENT_METHODS } from '#app/provider/purchase-schemas.ts'
import { type Subscription } from '#app/provider/subscription-schemas.ts'
import { cancelSubscription, createSubscription, getSubscription, startCardUpdate, subscriptionAction, type CancelAt } from '#app/provider/subscriptions.server.ts'
import { CANCEL_STEP, isConfirmed, stepUrl } from '#app/utils/confirm-step.ts'
import { failureInit, failureText } from '#app/utils/messages.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { CHECKOUT_KEY_PATTERN } from '#app/features/cart/checkout.server.ts'
import { refundRequestedText } from './purchase-page.server.ts'
import { calendarDate } from './purchase.server.ts'

/**
 * Subscribing to a plan and the subscription's page (docs/product.md §2, decision 0052): the
 * plan's "Assinar" form on its product page, and the page that says where the subscription stands,
 * what cancelling now does, and offers cancel, resume and (PIX) paying the next period.
 */

const subscribeSchema = z.object({ intent: z.literal('subscribe'), method: z.enum(PAYMENT_METHODS), idempotencyKey: z.string().regex(CHECKOUT_KEY_PATTERN) })

/** A refused or failed subscribe: the method chosen, why, and where the live plan is (`subscriptionId`: its page; else the list). */
type SubscribeReply = { subscribe: { method: string; error: string; subscriptionsLink?: boolean; subscriptionId?: number } }

/** Where the next step is: a card's payment page, or the PIX code of its purchase. */
function nextStep(subscription: Subscription): Response {
  const url = subscription.checkout_url ?? subscription.open_payment_checkout_url
  if (url) return redirect(url, { status: 303 })
  if (subscription.open_payment_id) return redirect(`/compras/${subscription.open_payment_id}`, { status: 303 })
  return redirect(`/assinaturas/${subscription.id}`, { status: 303 })
}

/**
 * The plan's form: the provider starts the subscription and its first payment (PIX: the code on
 * the purchase's page; a card: the payment service's page, which comes back to the subscription's
 * page). A refusal or a failure re-renders the page with the method chosen and says why.
 */
export async function subscribeAction(request: Request, auth: SignedInCaller, productId: number, fields: Record<string, string>) {
  const t = await getFixedT(request, ['common', 'shop', 'orders'])
  const parsed = subscribeSchema.safeParse(fields)
  const method = PAYMENT_METHODS.find((item) => item === fields.method) ?? 'pix'
  if (!parsed.success) return data({ subscribe: { method, error: t('shop-replies:checkout.invalid') } } satisfies SubscribeReply, { status: 400 })
  try {
    const subscription = await createSubscription(auth, {
      productId,
      method: parsed.data.method,
      idempotencyKey: parsed.data.idempotencyKey,
      returnUrl: `${getEnv().APP_PUBLIC_URL}/assinaturas/{SUBSCRIPTION_ID}`,
    })
    return nextStep(subscription)
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    // One plan at a time (decision 0072): the same plan, or another, already live; its page says how to end it.
    if (error.code === 'already_subscribed' || error.code === 'another_plan_live') {
      const subscriptionId = error.failure.kind === 'http' ? error.failure.subscriptionId : undefined
      const why = t(error.code === 'already_subscribed' ? 'orders:subscriptions.already' : 'orders:subscriptions.anotherPlan')
      return data({ subscribe: { method, error: why, subscriptionsLink: true, ...(subscriptionId && { subscriptionId }) } } satisfies SubscribeReply, { status: 409 })
    }
    const message = error.code === 'payment_provider_unavailable' || error.code === 'payments_off' ? t('orders:subscriptions.unavailable') : failureText(t, error)
    return data({ subscribe: { method, error: message } } satisfies SubscribeReply, failureInit(error))
  }
}

const date = (iso: string | null, language: Language) => (iso ? calendarDate(iso.slice(0, 10), language) : '')
/** A period's last day: its end is the next period's first instant. */
const lastDay = (iso: string | null, language: Language) => (iso ? calendarDate(new Date(Date.parse(iso) - 1).toISOString().slice(0, 10), language) : '')

/** A subscription as its page and the list show it. */
export function subscriptionView(subscription: Subscription, language: Language) {
  const quote = subscription.cancellation
  return {
    id: subscription.id,
    status: subscription.status,
    method: subscription.method,
    plan: subscription.plan.name[language],
    renews: subscription.plan.renews,
    price: formatMoney(subscription.price_cents, language),
    interval: subscription.plan.plan_interval,
    hasAccess: subscription.has_access,
    periodEnds: lastDay(subscription.current_period_end, language),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    nextPrice: subscription.next_price ? { price: formatMoney(subscription.next_price.price_cents, language), from: date(subscription.next_price.from, language) } : null,
    payNextFrom: subscription.pay_next_from ? date(subscription.pay_next_from, language) : null,
    canPayNext: subscription.pay_next_from !== null && Date.parse(subscription.pay_next_from) <= Date.now() && subscription.open_payment_id === null,
    openPayment: subscription.open_payment_id,
    checkoutUrl: subscription.checkout_url ?? subscription.open_payment_checkout_url,
    canCancel: subscription.status !== 'ended' && !subscription.cancel_at_period_end,
    canResume: subscription.cancel_at_period_end && subscription.status !== 'ended' && subscription.plan.renews,
    canUpdateCard: subscription.card_updatable,
    cardUpdated: date(subscription.card_updated_at, language),
    renewalDeadline: date(subscription.renewal_deadline, language),
    cancellation: quote
      ? {
          withdrawal: quote.withdrawal,
          amount: formatMoney(quote.refund_cents, language),
          accessEnds: lastDay(quote.access_ends_at, language),
          deadline: quote.deadline && {
            method: quote.deadline.method,
            billingCycles: quote.deadline.billing_cycles ?? 2,
            businessDays: quote.deadline.business_days ?? 3,
            dateLabel: quote.deadline.date ? calendarDate(quote.deadline.date, language) : '',
          },
        }
      : null,
    payments: subscription.payments.map((payment) => ({
      id: payment.id,
      status: payment.status,
      total: formatMoney(payment.total_cents, language),
      period: payment.period_start && payment.period_end ? { from: date(payment.period_start, language), to: lastDay(payment.period_end, language) } : null,
    })),
    endedReason: subscription.ended_reason,
    ended: date(subscription.ended_at, language),
  }
}

export type SubscriptionView = ReturnType<typeof subscriptionView>

const INTENTS = ['cancel', 'resume', 'pay-next', 'card'] as const

/** Where Stripe's card page sends the subscriber back: the page, told the card was saved. */
export const CARD_SAVED_PARAM = 'cartao'

type T = (key: string, values?: Record<string, unknown>) => string

/**
 * What the toast says once a cancel went through (decision 0079): the withdrawal's refund, how much
 * and where it goes back by when (from the quote the subscriber confirmed); the period kept, until
 * when; or that nothing was charged.
 */
function subscriptionCancelledText(t: T, before: Subscription, after: Subscription, language: Language): string {
  const quote = before.cancellation
  if (after.status === 'ended' && quote?.withdrawal) {
    return t('orders:subscriptions.withdrawnRefund', { refund: refundRequestedText(t, quote.refund_cents, quote.deadline, language) })
  }
  if (after.status === 'ended') return t('orders:subscriptions.cancelledUnpaid')
  return t('orders:subscriptions.cancelledUntil', { date: lastDay(after.current_period_end, language) })
}

/**
 * Cancelling, only from its confirmation step (decision 0079): asked without it, the step opens
 * instead. `at` is the subscriber's choice within the 7 days (decision 0081): `period_end` keeps
 * the period; anything else asks for the withdrawal, which after the 7 days is the period's end.
 */
async function cancelAction(request: Request, auth: SignedInCaller, id: number, form: FormData) {
  const back = `/assinaturas/${id}`
  if (!isConfirmed(form)) return redirect(stepUrl(back, CANCEL_STEP), { status: 303 })
  const before = await getSubscription(auth, id)
  const at: CancelAt = form.get('at') === 'period_end' || !before.cancellation?.withdrawal ? 'period_end' : 'now'
  const after = await cancelSubscription(auth, id, at)
  const [t, language] = await Promise.all([getFixedT(request, ['common', 'orders']), languageOf(request)])
  return redirectWithToast(back, { type: 'success', message: { text: subscriptionCancelledText(t, before, after, language) } })
}

/**
 * The page's buttons; each comes back to the page with a toast (paying the next period goes to its
 * PIX code, changing the card to the payment service's page, which comes back with `?cartao=salvo`).
 */
export async function subscriptionPageAction(request: Request, auth: SignedInCaller, id: number, form: FormData) {
  const back = `/assinaturas/${id}`
  const intent = String(form.get('intent') ?? '')
  if (!(INTENTS as readonly string[]).includes(intent)) return redirectWithToast(back, { type: 'error', message: { key: 'shop-replies:checkout.invalid' } })
  const action = intent as (typeof INTENTS)[number]
  try {
    if (action === 'cancel') return await cancelAction(request, auth, id, form)
    if (action === 'card') {
      const page = `${getEnv().APP_PUBLIC_URL}${back}`
      const { url } = await startCardUpdate(auth, id, { returnUrl: `${page}?${CARD_SAVED_PARAM}=salvo`, cancelUrl: page })
      return redirect(url, { status: 303 })
    }
    const subscription = await subscriptionAction(auth, id, action)
    if (action === 'pay-next' && subscription.open_payment_id) return redirect(`/compras/${subscription.open_payment_id}`, { status: 303 })
    return redirectWithToast(back, { type: 'success', message: { key: 'orders:subscriptions.resumed' } })
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    const t = await getFixedT(request, ['common', 'orders'])
    const unavailable = error.code === 'payment_provider_unavailable' || error.code === 'payments_off'
    return redirectWithToast(back, { type: 'error', message: { text: error.status === 409 ? t('orders:subscriptions.changed') : unavailable ? t('orders:subscriptions.cardUnavailable') : failureText(t, error) } })
  }
}
