import { getFormProps, useForm } from '@conform-to/react'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { REFUND_REASON_MAX_LENGTH } from '#app/forms/admin-purchase-forms.ts'
import { type PurchaseDetailView, purchaseDetailView, refundAction } from '#app/features/admin/admin-purchases.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getAdminPurchase } from '#app/provider/admin-purchases.server.ts'
import { nullWhileResubmitting } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { type FormInput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { TextAreaField } from '#app/ui/textarea-field.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { routeId } from '#app/utils/route-ids.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin-purchases'] }

/**
 * One purchase for the admins (`/admin/purchases/{id}`, decision 0061): who bought what, its
 * events, Stripe's webhook deliveries, its refunds and, while the terms give something back, the
 * refund form: the amount and why said first, a reason required. Admins only (the admin layout and
 * this loader); a failed refund comes back with the reason as typed.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const id = routeId(params)
  const [t, language, purchase] = await Promise.all([getFixedT(request, 'admin-purchases'), languageOf(request), getAdminPurchase(auth, id).catch(nullWhileResubmitting)])
  const meta = { title: `${t('detail.title', { id })} · Innera`, description: t('list.lead') }
  return data({ meta, id, reasonMax: REFUND_REASON_MAX_LENGTH, purchase: purchase && purchaseDetailView(purchase, language, timeZoneOr(user.time_zone)) }, { headers: { 'Cache-Control': 'private, no-store' } })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  return refundAction(request, auth, routeId(params), await languageOf(request))
}

export default function AdminPurchasePage() {
  const { id, purchase } = useLoaderData<typeof loader>()
  const { t } = useTranslation('admin-purchases')
  return (
    <main id="main">
      <p>
        <Link to="/admin/purchases" className="link">
          {t('detail.back')}
        </Link>
      </p>
      <div className="mt-4 flex flex-wrap items-center gap-4">
        <h1 className="text-3xl font-bold">{t('detail.title', { id })}</h1>
        {purchase ? (
          <span data-testid="admin-purchase-status" className="rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-800">
            {t(`status.${purchase.status}`)}
          </span>
        ) : null}
        {purchase && purchase.mismatches.length > 0 ? (
          <a href="#mismatches-title" data-testid="admin-purchase-mismatch" className="rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900">
            {t('mismatches.badge', { count: purchase.mismatches.length })}
          </a>
        ) : null}
      </div>
      {purchase ? (
        <>
          <Facts purchase={purchase} />
          <Mismatches purchase={purchase} />
          <RefundPanel purchase={purchase} />
          <Refunds purchase={purchase} />
          <Events purchase={purchase} />
          <Deliveries purchase={purchase} />
        </>
      ) : (
        // The purchase could not be read again after a failed refund: the form comes back around what was typed.
        <section aria-labelledby="refund-title" className="mt-6 max-w-3xl rounded-2xl bg-white p-6 shadow-sm">
          <h2 id="refund-title" className="text-2xl font-semibold">
            {t('refund.title')}
          </h2>
          <p className="mt-2 text-muted">{t('detail.unavailable')}</p>
          <RefundForm amount={null} />
        </section>
      )}
    </main>
  )
}

const row = 'grid gap-1 border-t border-brand-100 py-3 sm:grid-cols-[12rem_1fr]'

function Facts({ purchase }: { purchase: PurchaseDetailView }) {
  const { t } = useTranslation('admin-purchases')
  return (
    <section aria-labelledby="facts-title" className="mt-6 max-w-3xl rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="facts-title" className="text-xl font-semibold">
        {t('detail.facts')}
      </h2>
      <dl className="mt-2">
        <div className={row}>
          <dt className="text-muted">{t('detail.buyer')}</dt>
          <dd>
            {purchase.buyer.name}
            <a className="link block break-all" href={`mailto:${purchase.buyer.email}`}>
              {purchase.buyer.email}
            </a>
          </dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('detail.created')}</dt>
          <dd>
            <time dateTime={purchase.createdAt}>{purchase.created}</time>
          </dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('detail.paid')}</dt>
          <dd>{purchase.paid ?? t('detail.notPaid')}</dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('detail.method')}</dt>
          <dd>{t(`method.${purchase.method}`)}</dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('detail.total')}</dt>
          <dd className="font-semibold" data-testid="admin-purchase-total">
            {purchase.total}
          </dd>
        </div>
        {purchase.refunded ? (
          <div className={row}>
            <dt className="text-muted">{t('detail.refunded')}</dt>
            <dd data-testid="admin-purchase-refunded">{purchase.refunded}</dd>
          </div>
        ) : null}
        <div className={row}>
          <dt className="text-muted">{t('detail.items')}</dt>
          <dd>
            <ul>
              {purchase.items.map((item, index) => (
                <li key={item.productId ?? `line-${index}`}>
                  {item.title} · {t(`kinds.${item.kind}`)} · {item.price}
                  {item.quantity > 1 ? ` (${t('detail.quantity', { count: item.quantity })})` : null}
                </li>
              ))}
            </ul>
          </dd>
        </div>
        {purchase.appointmentId ? (
          <div className={row}>
            <dt className="text-muted">{t('detail.consultation')}</dt>
            <dd>
              <Link className="link" to={`/consultas/${purchase.appointmentId}`}>
                {t('detail.seeConsultation')}
              </Link>
            </dd>
          </div>
        ) : null}
        {purchase.subscriptionId ? (
          <div className={row}>
            <dt className="text-muted">{t('detail.subscription')}</dt>
            <dd>{t('detail.subscriptionNumber', { id: purchase.subscriptionId })}</dd>
          </div>
        ) : null}
        {purchase.failure ? (
          <div className={row}>
            <dt className="text-muted">{t('detail.failure')}</dt>
            <dd className="break-words">{[purchase.failure.code, purchase.failure.message].filter(Boolean).join(': ')}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  )
}

/** Payments Stripe spoke of that did not fit this purchase (decision 0074): none granted anything; shown only when there are some. */
function Mismatches({ purchase }: { purchase: PurchaseDetailView }) {
  const { t } = useTranslation('admin-purchases')
  if (purchase.mismatches.length === 0) return null
  return (
    <section aria-labelledby="mismatches-title" className="mt-6 max-w-3xl rounded-2xl border border-amber-900 bg-amber-50 p-6 shadow-sm">
      <h2 id="mismatches-title" className="text-xl font-semibold text-amber-900">
        {t('mismatches.title')}
      </h2>
      <p className="mt-2">{t('mismatches.lead')}</p>
      <ul className="mt-2 divide-y divide-amber-100" data-testid="payment-mismatches">
        {purchase.mismatches.map((mismatch) => (
          <li key={`${mismatch.at}-${mismatch.paymentIntentId}-${mismatch.reason}`} className="py-3">
            <p className="font-medium">{t(`mismatches.reasons.${mismatch.reason}`, { amount: mismatch.amount, expected: mismatch.expected, currency: mismatch.currency })}</p>
            <p className="text-sm text-muted">
              <time dateTime={mismatch.at}>{mismatch.when}</time> · <span className="break-all font-mono">{mismatch.paymentIntentId}</span>
              {mismatch.eventId ? <span className="block break-all font-mono">{t('mismatches.event', { id: mismatch.eventId })}</span> : null}
            </p>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** What the terms give back now, said before the form; or why nothing can be refunded here. */
function RefundPanel({ purchase }: { purchase: PurchaseDetailView }) {
  const { t } = useTranslation('admin-purchases')
  const { quote, refusal } = purchase
  return (
    <section aria-labelledby="refund-title" className="mt-6 max-w-3xl rounded-2xl border border-brand-100 bg-white p-6 shadow-sm">
      <h2 id="refund-title" className="text-xl font-semibold">
        {t('refund.title')}
      </h2>
      {quote ? (
        <>
          <p className="mt-2 font-medium" data-testid="refund-quote">
            {t(quote.full ? 'refund.quoteFull' : 'refund.quotePartial', { amount: quote.amount })}
          </p>
          <p className="mt-1">{t(`refund.reasons.${quote.reason ?? 'mixed'}`, { defaultValue: t('refund.reasons.mixed') })}</p>
          <p className="mt-1 text-sm text-muted">{t('refund.withdrawalEnds', { date: quote.withdrawalEnds })}</p>
          {quote.deadline ? <p className="mt-1 text-sm text-muted">{deadlineText(t, quote.deadline)}</p> : null}
          <RefundForm amount={quote.amount} />
        </>
      ) : refusal ? (
        <p className="mt-2" data-testid="refund-refusal">
          {t(`refund.refusals.${refusal.code}`)}
          {refusal.code === 'nothing_to_refund' && refusal.withdrawalEnds ? ` ${t('refund.withdrawalEnded', { date: refusal.withdrawalEnds })}` : null}
        </p>
      ) : null}
    </section>
  )
}

type Translate = ReturnType<typeof useTranslation>['t']
type Deadline = NonNullable<PurchaseDetailView['refunds'][number]['deadline']>

function deadlineText(t: Translate, deadline: Deadline): string {
  return deadline.method === 'card' ? t('refund.deadline.card', { count: deadline.billingCycles }) : t('refund.deadline.pix', { count: deadline.businessDays, date: deadline.date })
}

/** The reason and the button; on a refusal or a provider failure, the reason comes back as typed with why. */
function RefundForm({ amount }: { amount: string | null }) {
  const { t } = useTranslation('admin-purchases')
  // The bound comes with the page's data: the schema's module (zod) stays out of the page's first load.
  const { reasonMax } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const validation = useDeferredValidation('adminRefund')
  const [form, fields] = useForm<FormInput<'adminRefund'>>({
    id: 'refund-form',
    lastResult: reply?.result,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-4 space-y-4">
      <FormError id={form.errorId} errors={form.errors} />
      <TextAreaField meta={fields.reason} label={t('refund.reason')} hint={t('refund.reasonHint', { max: reasonMax })} rows={3} />
      <SubmitButton className="btn-primary bg-red-700 hover:bg-red-800" pendingText={t('refund.refunding')}>
        {amount ? t('refund.confirm', { amount }) : t('refund.confirmAgain')}
      </SubmitButton>
    </Form>
  )
}

function Refunds({ purchase }: { purchase: PurchaseDetailView }) {
  const { t } = useTranslation('admin-purchases')
  return (
    <section aria-labelledby="refunds-title" className="mt-6 max-w-3xl rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="refunds-title" className="text-xl font-semibold">
        {t('refunds.title')}
      </h2>
      {purchase.refunds.length > 0 ? (
        <ul className="mt-2 divide-y divide-brand-100" data-testid="refunds">
          {purchase.refunds.map((refund) => (
            <li key={refund.id} className="py-3">
              <p className="font-medium">
                {refund.amount} · {t(`refunds.status.${refund.status}`, { defaultValue: refund.status })}
              </p>
              <p className="text-sm text-muted">
                {refund.when} · {t(`refunds.kind.${refund.kind}`, { defaultValue: refund.kind })} · {byText(t, refund.by)}
              </p>
              {refund.note ? <p className="mt-1 break-words">{t('refunds.note', { note: refund.note })}</p> : null}
              {refund.deadline ? <p className="mt-1 text-sm text-muted">{deadlineText(t, refund.deadline)}</p> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-muted">{t('refunds.empty')}</p>
      )}
    </section>
  )
}

function byText(t: Translate, by: PurchaseDetailView['refunds'][number]['by']): string {
  if (by.role === 'admin') return by.user ? t('refunds.by.admin', { name: by.user.name }) : t('refunds.by.adminUnknown')
  return t(`refunds.by.${by.role}`)
}

/** The purchase's status changes, in order, each with what caused it. */
function Events({ purchase }: { purchase: PurchaseDetailView }) {
  const { t } = useTranslation('admin-purchases')
  return (
    <section aria-labelledby="events-title" className="mt-6 max-w-3xl rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="events-title" className="text-xl font-semibold">
        {t('events.title')}
      </h2>
      <ol className="mt-2 space-y-3 border-l-2 border-brand-100 pl-4" data-testid="purchase-events">
        {purchase.events.map((event, index) => (
          <li key={`${event.at}-${index}`}>
            <p className="font-medium">
              {event.from_status ? t('events.moved', { from: t(`status.${event.from_status}`), to: t(`status.${event.to_status}`) }) : t('events.created', { to: t(`status.${event.to_status}`) })}
            </p>
            <p className="text-sm text-muted">
              <time dateTime={event.at}>{event.when}</time> · {t(`events.source.${event.source}`, { defaultValue: event.source })}
              {event.stripe_event_id ? <span className="block break-all font-mono">{event.stripe_event_id}</span> : null}
            </p>
          </li>
        ))}
      </ol>
    </section>
  )
}

/** The Stripe events that reached (or, with the development stand-in, were sent to) the webhook about it. */
function Deliveries({ purchase }: { purchase: PurchaseDetailView }) {
  const { t } = useTranslation('admin-purchases')
  return (
    <section aria-labelledby="webhooks-title" className="mt-6 max-w-3xl rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="webhooks-title" className="text-xl font-semibold">
        {t('webhooks.title')}
      </h2>
      {purchase.deliveries.length > 0 ? (
        <ul className="mt-2 divide-y divide-brand-100" data-testid="webhook-deliveries">
          {purchase.deliveries.map((delivery) => (
            <li key={delivery.id} className="py-3">
              <p className="font-medium">{delivery.type}</p>
              <p className="break-all font-mono text-sm text-muted">{delivery.id}</p>
              <p className="text-sm">
                {delivery.received_at ? t('webhooks.received', { when: delivery.received }) : t('webhooks.notReceived')}
                {delivery.changed_status ? ` · ${t('webhooks.changed')}` : null}
              </p>
              {delivery.deliveries ? (
                <p className="text-sm text-muted">
                  {t('webhooks.attempts', { count: delivery.deliveries.attempts })}
                  {delivery.deliveries.last_error ? ` · ${t('webhooks.lastError', { error: delivery.deliveries.last_error })}` : null}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-muted">{t('webhooks.empty')}</p>
      )}
    </section>
  )
}
