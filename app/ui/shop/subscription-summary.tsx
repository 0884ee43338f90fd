import { type SubscriptionView } from '#app/features/purchases/subscription.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'

/** Where a subscription stands, in a line or two: its status, its price, and until when it gives access or when it ended. */
export function SubscriptionSummary({ subscription }: { subscription: SubscriptionView }) {
  const { t } = useTranslation('orders')
  const price = subscription.renews && subscription.interval ? t('subscriptions.price', { price: subscription.price, interval: t(`shop:product.interval.${subscription.interval}`) }) : t('subscriptions.priceOnce', { price: subscription.price })
  let period: string | null = null
  if (subscription.status === 'ended') period = subscription.endedReason ? t(`subscriptions.ended.${subscription.endedReason}`, { date: subscription.ended }) : null
  else if (subscription.periodEnds) {
    period = subscription.cancelAtPeriodEnd || !subscription.renews ? t('subscriptions.accessUntil', { date: subscription.periodEnds }) : subscription.method === 'card' ? t('subscriptions.renewsOn', { date: subscription.periodEnds }) : t('subscriptions.accessUntil', { date: subscription.periodEnds })
  }
  return (
    <>
      <p className="mt-1 text-sm text-muted">
        <span data-testid="subscription-status" className="font-semibold text-ink">
          {t(`subscriptions.status.${subscription.status}`)}
        </span>{' '}
        · {price}
      </p>
      {period ? <p className="mt-1">{period}</p> : null}
    </>
  )
}
