import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data, redirect } from '@remix-run/node'
import { Form, Link, useLoaderData, useRevalidator } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { purchaseAction, purchasePageExtras } from '#app/features/purchases/purchase-page.server.ts'
import { cartAfterPayment, purchaseView } from '#app/features/purchases/purchase.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getPurchase } from '#app/provider/purchases.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { ConfirmStep } from '#app/ui/confirm-step.tsx'
import { CANCEL_STEP, stepUrl } from '#app/utils/confirm-step.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { parseId } from '#app/utils/ids.ts'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['orders', 'shop'] }

/** How often the page asks again while a payment is open (with JavaScript; without, a button). */
const POLL_MS = 5_000

/** A purchase's page (`/compras/{id}`, docs/product.md §2): the buyer's own; someone else's is a 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = parseId(params.id)
  if (id === undefined) throw data({ reason: 'not-found' }, { status: 404 })
  const { auth, user } = await requireUser(request)
  const [t, language, purchase] = await Promise.all([getFixedT(request, ['orders', 'shop']), languageOf(request), getPurchase(auth, id).catch(errorResponseFor)])
  // Paid: what it bought leaves this browser's cart, and the page comes again so every part of it
  // (the header's count too) reads the cart as it is now.
  const cartCookie = await cartAfterPayment(request, purchase)
  if (cartCookie) throw redirect(new URL(request.url).pathname, { headers: { 'Set-Cookie': cartCookie, 'Cache-Control': 'private, no-store' } })
  const [view, page] = await Promise.all([purchaseView(purchase, language, user.time_zone), purchasePageExtras(auth, purchase, request.url)])
  return data({ meta: { title: `${t('purchase.title', { id })} · Innera`, description: t('purchase.lead') }, purchase: view, page }, { headers: { 'Cache-Control': 'private, no-store' } })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request, params }: ActionFunctionArgs) {
  const id = parseId(params.id)
  if (id === undefined) throw data({ reason: 'not-found' }, { status: 404 })
  const [{ auth }, form] = await Promise.all([requireUser(request, { role: 'paciente' }), readFormData(request)])
  return purchaseAction(request, auth, id, form)
}

export default function PurchasePage() {
  const { purchase, page } = useLoaderData<typeof loader>()
  const { t } = useTranslation('orders')
  const pending = purchase.status === 'pending'
  const names = new Map(purchase.items.map((item) => [item.productId, item.name]))
  usePolling(pending)
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link to="/compras" className="link">
          {t('purchase.back')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t('purchase.title', { id: purchase.id })}</h1>
      <p className="mt-1 text-muted">{t('purchase.created', { date: purchase.createdLabel })}</p>
      <p role="status" data-testid="purchase-status" className={`mt-4 rounded-xl p-4 font-semibold ${purchase.status === 'paid' ? 'bg-brand-50 text-brand-800' : 'bg-white'}`}>
        {t(`purchase.status.${purchase.status}`)}
      </p>
      {purchase.failureKey && purchase.status !== 'paid' && !page.replacedBy ? <p className="mt-3 rounded-xl border border-red-300 bg-red-50 p-4 text-red-900">{t(purchase.failureKey)}</p> : null}
      {page.replacedBy ? (
        <p className="mt-3 rounded-xl bg-brand-50 p-4" data-testid="replaced">
          {t(`purchase.replaced.${page.replacedBy.type}`, { defaultValue: t('purchase.replaced.other'), id: page.replacedBy.id })}{' '}
          <Link to={`/compras/${page.replacedBy.id}`} className="link">
            {t('purchase.seeOther', { id: page.replacedBy.id })}
          </Link>
        </p>
      ) : null}
      {page.links.length > 0 ? (
        <ul className="mt-3 flex flex-wrap gap-3" aria-label={t('purchase.whatItGives')}>
          {page.links.map((link) => (
            <li key={link.productId}>
              {/* A material's file is a download: a document request, not a page of the app. */}
              <Link
                to={link.href}
                reloadDocument={link.label === 'material'}
                className={page.replacedBy ? 'link' : 'btn-primary'}
                aria-label={page.links.length > 1 ? `${t(`purchase.open.${link.label}`)}: ${names.get(link.productId) ?? ''}` : undefined}
              >
                {t(`purchase.open.${link.label}`)}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {purchase.subscriptionId ? (
        <p className="mt-3">
          <Link to={`/assinaturas/${purchase.subscriptionId}`} className={pending ? 'link' : 'btn-primary mt-1'}>
            {t('purchase.seeSubscription')}
          </Link>
        </p>
      ) : null}
      {/* A consultation's payment (decision 0051): what it holds, and the way to the consultation. */}
      {purchase.appointmentId ? (
        <p className="mt-3">
          {pending ? <span className="block">{t('purchase.consultationHeld')}</span> : null}
          <Link to={`/consultas/${purchase.appointmentId}`} className={pending ? 'link' : 'btn-primary mt-1'}>
            {t('purchase.seeConsultation')}
          </Link>
        </p>
      ) : null}

      <div className="mt-6 grid gap-8 lg:grid-cols-[3fr_2fr]">
        <section aria-labelledby="purchase-payment">
          <h2 id="purchase-payment" className="text-xl font-semibold">
            {t('purchase.payment')}
          </h2>
          {pending && purchase.pix ? <PixCode pix={purchase.pix} /> : null}
          {pending && purchase.checkoutUrl ? (
            <p className="mt-4">
              <a href={purchase.checkoutUrl} className="btn-primary">
                {t('purchase.payByCard')}
              </a>
            </p>
          ) : null}
          {purchase.status === 'paid' ? <p className="mt-3">{t('purchase.paidOn', { date: purchase.paidLabel })}</p> : null}
          {purchase.refunded ? <p className="mt-3">{t('purchase.refunded', { amount: purchase.refunded })}</p> : null}
          <div className="mt-6 flex flex-wrap gap-3">
            {pending ? (
              <Form method="post">
                <button type="submit" name="intent" value="refresh" className="btn-secondary">
                  {t('purchase.refresh')}
                </button>
              </Form>
            ) : null}
            {purchase.canRenewPix ? (
              <Form method="post">
                <button type="submit" name="intent" value="renew" className="btn-primary">
                  {t('purchase.renew')}
                </button>
              </Form>
            ) : null}
          </div>
          {purchase.canCancel && page.step === CANCEL_STEP ? <CancelStep purchase={purchase} keepTo={page.keepTo} /> : purchase.canCancel ? <CancelPanel purchase={purchase} /> : null}
        </section>
        <aside aria-labelledby="purchase-items" className="h-fit rounded-2xl border border-brand-100 bg-white p-6 shadow-sm">
          <h2 id="purchase-items" className="text-xl font-semibold">
            {t('purchase.items')}
          </h2>
          <ul className="mt-3 divide-y divide-brand-100">
            {purchase.items.map((item) => (
              <li key={item.productId ?? `consultation-${purchase.appointmentId}`} className="flex justify-between gap-4 py-2">
                <span>
                  {/* A consultation's line leads to the consultation (while it exists); a product's, to its page. */}
                  {item.productId !== null || purchase.appointmentId !== null ? (
                    <Link to={item.productId === null ? `/consultas/${purchase.appointmentId}` : `/produto/${item.productId}`} className="hover:underline">
                      {item.name}
                    </Link>
                  ) : (
                    item.name
                  )}
                  <span className="block text-sm text-muted">{t(`shop:types.${item.type}`)}</span>
                </span>
                <span className="font-semibold">{item.total}</span>
              </li>
            ))}
          </ul>
          <p className="mt-3 flex justify-between border-t border-brand-100 pt-3 text-lg font-bold">
            <span>{t('purchase.total')}</span>
            <span data-testid="purchase-total">{purchase.total}</span>
          </p>
          <p className="mt-1 text-sm text-muted">{t(page.methodKey)}</p>
        </aside>
      </div>
    </main>
  )
}

type View = ReturnType<typeof useLoaderData<typeof loader>>['purchase']

/** The open PIX code: its QR (SVG drawn on the server), the text to copy, and until when it holds. */
function PixCode({ pix }: { pix: NonNullable<View['pix']> }) {
  const { t } = useTranslation('orders')
  const [copied, setCopied] = useState(false)
  const [canCopy, setCanCopy] = useState(false)
  useEffect(() => setCanCopy(typeof navigator !== 'undefined' && Boolean(navigator.clipboard)), [])
  return (
    <div className="mt-4 rounded-2xl border border-brand-100 bg-white p-6">
      <p>{t('purchase.pixHowTo')}</p>
      <figure className="mt-4 w-56 max-w-full" role="img" aria-label={t('purchase.qrLabel')} dangerouslySetInnerHTML={{ __html: pix.qrSvg }} />
      <label htmlFor="pix-code" className="mt-4 block font-medium">
        {t('purchase.pixCode')}
      </label>
      <textarea id="pix-code" readOnly rows={4} value={pix.data} className="mt-1 block w-full break-all rounded-lg border border-gray-400 p-2 font-mono text-sm" />
      {canCopy ? (
        <button
          type="button"
          className="btn-secondary mt-2"
          onClick={() => {
            void navigator.clipboard.writeText(pix.data).then(() => setCopied(true))
          }}
        >
          {t(copied ? 'purchase.copied' : 'purchase.copy')}
        </button>
      ) : null}
      <p className="mt-3">
        {t('purchase.expiresAt', { time: pix.expiresLabel })} <Countdown until={pix.expiresAt} />
      </p>
      {pix.instructionsUrl ? (
        <p className="mt-3">
          <a href={pix.instructionsUrl} className="link">
            {t('purchase.pixInstructions')}
          </a>
        </p>
      ) : null}
    </div>
  )
}

/** "(29:41 left)", ticking each second once the page runs JavaScript; nothing without. */
function Countdown({ until }: { until: string }) {
  const { t } = useTranslation('orders')
  const [now, setNow] = useState<number | null>(null)
  useEffect(() => {
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  if (now === null) return null
  const seconds = Math.max(0, Math.round((Date.parse(until) - now) / 1000))
  const left = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
  return <span className="text-muted">{seconds > 0 ? t('purchase.timeLeft', { left }) : t('purchase.codeExpired')}</span>
}

/** The refund's or the cancel's facts: how much comes back and by when, or that nothing is charged. */
function CancelFacts({ purchase }: { purchase: View }) {
  const { t } = useTranslation('orders')
  const refund = purchase.refund
  const deadline = refund?.deadline
  return purchase.status === 'paid' && refund ? (
    <>
      <p className="mt-2">{t(refund.full ? 'purchase.refundFull' : 'purchase.refundPartial', { amount: refund.amount })}</p>
      {refund.withdrawalEnds ? <p className="mt-1 text-sm text-muted">{t('purchase.withdrawalEnds', { date: refund.withdrawalEnds })}</p> : null}
      {deadline ? (
        <p className="mt-1 text-sm text-muted">
          {deadline.method === 'card' ? t('purchase.deadline.card', { count: deadline.billingCycles }) : t('purchase.deadline.pix', { count: deadline.businessDays, date: deadline.dateLabel })}
        </p>
      ) : null}
    </>
  ) : (
    <p className="mt-2">{t('purchase.cancelUnpaid')}</p>
  )
}

/** Says what cancelling does; its button opens the confirmation step (decision 0079), which acts. */
function CancelPanel({ purchase }: { purchase: View }) {
  const { t } = useTranslation('orders')
  return (
    <section aria-labelledby="cancel-title" className="mt-8 rounded-2xl border border-brand-100 bg-white p-6">
      <h3 id="cancel-title" className="text-lg font-semibold">
        {t(purchase.status === 'paid' ? 'purchase.refundTitle' : 'purchase.cancelTitle')}
      </h3>
      <CancelFacts purchase={purchase} />
      <Link to={stepUrl(`/compras/${purchase.id}`, CANCEL_STEP)} preventScrollReset className="btn-secondary mt-4">
        {t(purchase.status === 'paid' ? 'purchase.refundConfirm' : 'purchase.cancelConfirm')}
      </Link>
    </section>
  )
}

/** The step itself: the same facts, what the buyer stops having, and the one button that does it. */
function CancelStep({ purchase, keepTo }: { purchase: View; keepTo: string }) {
  const { t } = useTranslation('orders')
  const paid = purchase.status === 'paid' && purchase.refund !== null
  const losing = purchase.items.filter((item) => item.type !== 'consultation').map((item) => item.name)
  return (
    <ConfirmStep
      className="mt-8"
      title={t(paid ? 'purchase.confirmRefund.title' : 'purchase.confirmCancel.title', { id: purchase.id })}
      intent="cancel"
      confirmLabel={paid ? t('purchase.confirmRefund.yes', { amount: purchase.refund?.amount }) : t('purchase.confirmCancel.yes')}
      pendingText={t('purchase.working')}
      keepLabel={t(paid ? 'purchase.confirmRefund.no' : 'purchase.confirmCancel.no')}
      keepTo={keepTo}
    >
      <CancelFacts purchase={purchase} />
      {paid && losing.length > 0 ? <p>{t('purchase.confirmRefund.loses', { items: losing.join(', ') })}</p> : null}
    </ConfirmStep>
  )
}

/** While a payment is open, the page asks again every few seconds (when it is in view). */
function usePolling(active: boolean) {
  const revalidator = useRevalidator()
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && revalidator.state === 'idle') revalidator.revalidate()
    }, POLL_MS)
    return () => clearInterval(timer)
  }, [active, revalidator])
}
