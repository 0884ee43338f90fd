import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { CARD_SAVED_PARAM, subscriptionPageAction, subscriptionView, type SubscriptionView } from '#app/features/purchases/subscription.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { getSubscription } from '#app/provider/subscriptions.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { ConfirmStep } from '#app/ui/confirm-step.tsx'
import { SubscriptionSummary } from '#app/ui/shop/subscription-summary.tsx'
import { readFormData } from '#app/utils/form-data.server.ts'
import { parseId } from '#app/utils/ids.ts'
import { CANCEL_STEP, stepOf, stepUrl } from '#app/utils/confirm-step.ts'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['orders', 'shop'] }

function idOf(params: Record<string, string | undefined>) {
  const id = parseId(params.id)
  if (id === undefined) throw data({ reason: 'not-found' }, { status: 404 })
  return id
}

/**
 * A subscription's page (`/assinaturas/{id}`, decision 0052): the subscriber's own (someone else's
 * is a 404). Where it stands, its payments, and its buttons: pay the next period (PIX), continue a
 * first payment, change the card (a renewing plan by card; the way to pay a refused renewal now),
 * cancel (its step, `?confirmar=cancelar`, says first what cancelling does and, within the 7 days,
 * offers the withdrawal or the period's end: decisions 0079 and 0081), keep renewing.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = idOf(params)
  const { auth } = await requireUser(request)
  const [t, language, subscription] = await Promise.all([getFixedT(request, ['orders', 'shop']), languageOf(request), getSubscription(auth, id).catch(errorResponseFor)])
  const view = subscriptionView(subscription, language)
  return data(
    {
      meta: { title: `${view.plan} · ${t('subscriptions.title')} · Innera`, description: t('subscriptions.lead') },
      subscription: view,
      confirmCancel: view.canCancel && stepOf(request.url, [CANCEL_STEP]) === CANCEL_STEP,
      // Back from the payment service's card page (decision 0055).
      cardSaved: view.canUpdateCard && new URL(request.url).searchParams.get(CARD_SAVED_PARAM) === 'salvo',
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request, params }: ActionFunctionArgs) {
  const id = idOf(params)
  const [{ auth }, form] = await Promise.all([requireUser(request, { role: 'paciente' }), readFormData(request)])
  return subscriptionPageAction(request, auth, id, form)
}

export default function SubscriptionPage() {
  const { subscription, confirmCancel, cardSaved } = useLoaderData<typeof loader>()
  const { t } = useTranslation('orders')
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link to="/assinaturas" className="link">
          {t('subscriptions.back')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{subscription.plan}</h1>
      <p className="text-muted">{t('subscriptions.item', { id: subscription.id })}</p>
      <section aria-labelledby="subscription-state" className="mt-6 max-w-3xl rounded-2xl bg-white p-6 shadow-sm">
        <h2 id="subscription-state" className="sr-only">
          {t('subscriptions.title')}
        </h2>
        <SubscriptionSummary subscription={subscription} />
        <p className="mt-1 text-sm text-muted">
          {t(`subscriptions.method.${subscription.method}`)}
          {subscription.cardUpdated ? ` ${t('subscriptions.cardUpdatedOn', { date: subscription.cardUpdated })}` : ''}
        </p>
        {cardSaved ? (
          <p role="status" className="mt-3 rounded-xl bg-brand-50 p-3">
            {t(subscription.status === 'past_due' ? 'subscriptions.cardSavedPastDue' : 'subscriptions.cardSaved')}
          </p>
        ) : null}
        {subscription.status === 'past_due' ? <p className="mt-2 font-medium">{t('subscriptions.pastDue', { date: subscription.renewalDeadline })}</p> : null}
        {subscription.nextPrice ? <p className="mt-2 font-medium">{t('subscriptions.nextPrice', { date: subscription.nextPrice.from, price: subscription.nextPrice.price })}</p> : null}
        {subscription.payNextFrom && !subscription.canPayNext && !subscription.openPayment ? <p className="mt-2">{t('subscriptions.payNextFrom', { date: subscription.payNextFrom })}</p> : null}
        {confirmCancel ? <CancelConfirmation subscription={subscription} /> : <Actions subscription={subscription} />}
      </section>
      <Payments subscription={subscription} />
    </main>
  )
}

function Actions({ subscription }: { subscription: SubscriptionView }) {
  const { t } = useTranslation('orders')
  return (
    <div className="mt-6 flex flex-wrap gap-3">
      {/* The first payment still open: a card's page, or the PIX code on the purchase's page. */}
      {subscription.status === 'incomplete' && subscription.checkoutUrl ? (
        <a href={subscription.checkoutUrl} className="btn-primary">
          {t('subscriptions.payOnPage')}
        </a>
      ) : subscription.openPayment ? (
        <Link to={`/compras/${subscription.openPayment}`} className="btn-primary">
          {t('subscriptions.continuePayment')}
        </Link>
      ) : null}
      {subscription.canPayNext ? (
        <Form method="post">
          <button type="submit" name="intent" value="pay-next" className="btn-primary">
            {t('subscriptions.payNext')}
          </button>
        </Form>
      ) : null}
      {subscription.canUpdateCard ? (
        <Form method="post">
          <button type="submit" name="intent" value="card" className={subscription.status === 'past_due' ? 'btn-primary' : 'btn-secondary'}>
            {t(subscription.status === 'past_due' ? 'subscriptions.payWithNewCard' : 'subscriptions.updateCard')}
          </button>
        </Form>
      ) : null}
      {subscription.canResume ? (
        <Form method="post">
          <button type="submit" name="intent" value="resume" className="btn-primary">
            {t('subscriptions.resume')}
          </button>
        </Form>
      ) : null}
      {subscription.canCancel ? (
        <Link to={stepUrl(`/assinaturas/${subscription.id}`, CANCEL_STEP)} preventScrollReset className="btn-secondary">
          {t('subscriptions.cancel')}
        </Link>
      ) : null}
    </div>
  )
}

/**
 * What cancelling does, said before the subscriber confirms (decision 0079): nothing charged for
 * one not paid yet; within the 7 days the withdrawal's refund (where it goes back, by when) beside
 * cancelling at the period's end (decision 0081); after them, the period's end.
 */
function CancelConfirmation({ subscription }: { subscription: SubscriptionView }) {
  const { t } = useTranslation('orders')
  const quote = subscription.cancellation
  const deadline = quote?.deadline
  const keep = { keepLabel: t('subscriptions.keep'), keepTo: `/assinaturas/${subscription.id}`, pendingText: t('purchase.working'), className: 'mt-6' }
  if (quote?.withdrawal) {
    return (
      <ConfirmStep
        {...keep}
        title={t('subscriptions.cancelTitle')}
        intent="cancel"
        fields={{ at: 'now' }}
        confirmLabel={t('subscriptions.withdrawConfirm', { amount: quote.amount })}
        alternatives={[{ fields: { at: 'period_end' }, label: t('subscriptions.periodEndConfirm', { date: subscription.periodEnds }), pendingText: t('purchase.working') }]}
      >
        <div data-testid="cancel-terms" className="space-y-1">
          <p>{t('subscriptions.withdrawal', { amount: quote.amount })}</p>
          {deadline ? (
            <p>{deadline.method === 'card' ? t('purchase.deadline.card', { count: deadline.billingCycles }) : t('purchase.deadline.pix', { count: deadline.businessDays, date: deadline.dateLabel })}</p>
          ) : null}
          <p>{t('subscriptions.orPeriodEnd', { date: subscription.periodEnds })}</p>
        </div>
      </ConfirmStep>
    )
  }
  return (
    <ConfirmStep {...keep} title={t('subscriptions.cancelTitle')} intent="cancel" fields={{ at: 'period_end' }} confirmLabel={t('subscriptions.cancelConfirm')}>
      <div data-testid="cancel-terms">{!quote ? <p>{t('subscriptions.cancelUnpaid')}</p> : <p>{t('subscriptions.atPeriodEnd', { date: quote.accessEnds })}</p>}</div>
    </ConfirmStep>
  )
}

function Payments({ subscription }: { subscription: SubscriptionView }) {
  const { t } = useTranslation('orders')
  return (
    <section aria-labelledby="subscription-payments" className="mt-8 max-w-3xl">
      <h2 id="subscription-payments" className="text-xl font-semibold">
        {t('subscriptions.payments')}
      </h2>
      {subscription.payments.length === 0 ? (
        <p className="mt-2 text-muted">{t('subscriptions.noPayments')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-brand-100 rounded-2xl bg-white px-5">
          {subscription.payments.map((payment) => (
            <li key={payment.id} className="flex flex-wrap items-baseline justify-between gap-3 py-3">
              <span>
                <Link to={`/compras/${payment.id}`} className="hover:underline">
                  {t('purchase.title', { id: payment.id })}
                </Link>
                <span className="block text-sm text-muted">
                  {t(`purchase.status.${payment.status}`)}
                  {payment.period ? ` · ${t('subscriptions.paymentPeriod', payment.period)}` : ''}
                </span>
              </span>
              <span className="font-semibold">{payment.total}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
