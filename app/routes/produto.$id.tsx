import { randomUUID } from 'node:crypto'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { planChoice } from '#app/domain/plan-choice.ts'
import { subscribeAction, subscriptionView } from '#app/features/purchases/subscription.server.ts'
import { type Language } from '#app/i18n/config.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { getProduct, getProductAs } from '#app/provider/products.server.ts'
import { type Subscription } from '#app/provider/subscription-schemas.ts'
import { listSubscriptions } from '#app/provider/subscriptions.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { PillarIcon } from '#app/ui/pillar-icon.tsx'
import { ProductFacts, ProductPrice } from '#app/ui/shop/product-facts.tsx'
import { getAuth, requireUser } from '#app/session/auth.server.ts'
import { roleFromGroups } from '#app/session/roles.ts'
import { AddToCart } from '#app/ui/shop/add-to-cart.tsx'
import { PaymentForm } from '#app/ui/shop/payment-form.tsx'
import { readCart } from '#app/features/cart/cart-cookie.server.ts'
import { readFormData, textFields } from '#app/utils/form-data.server.ts'
import { parseId } from '#app/utils/ids.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { productView } from '#app/features/products/product-views.server.ts'

/** What is had for good once bought: a second one is not sold (the provider's already_owned). */
const ONCE: readonly string[] = ['course', 'digital_material', 'program']

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['shop'] }

function productIdOf(params: Record<string, string | undefined>) {
  const id = parseId(params.id)
  if (id === undefined) throw data({ reason: 'not-found' }, { status: 404 })
  return id
}

/**
 * A product's page (`/produto/{id}`, docs/product.md §2): public; one provider call. A patient's
 * comes with their standing (decision 0095): whether they already have it, and their payment of
 * it still open (decision 0072: the one to finish, not a second one to start). A plan has its
 * "Assinar" form for patients (a new key with each page, so a repeated click subscribes once).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = productIdOf(params)
  const signedIn = getAuth(request)
  const asked = signedIn
    .then((auth) => (auth.user && roleFromGroups(auth.user.groups) === 'paciente' ? getProductAs(auth, id) : getProduct(id).then((product) => ({ ...product, viewer: null }))))
    .catch(errorResponseFor)
  // A plan's page says which plan the patient already has (issue 42, decision 0078): their subscriptions, asked once the product is known to be a plan.
  const plans = Promise.all([asked, signedIn]).then(([item, caller]) =>
    item.product_type === 'subscription' && caller.user && roleFromGroups(caller.user.groups) === 'paciente' ? listSubscriptions(caller).then((page) => page.results).catch(() => null) : null,
  )
  const [t, language, { viewer, ...product }, pillars, cart, auth, subscriptions] = await Promise.all([
    getFixedT(request, 'shop'),
    languageOf(request),
    asked,
    pillarsForDisplay().catch(errorResponseFor),
    readCart(request),
    signedIn,
    plans,
  ])
  const owns = viewer?.owned ?? false
  const openPurchaseId = viewer?.open_purchase_id ?? null
  const view = productView(product, { language, pillars })
  const role = auth.user ? roleFromGroups(auth.user.groups) : null
  return data({
    meta: { title: `${view.name} · ${t('catalogue.title')} · Innera`, description: view.description },
    product: view,
    owned: owns && ONCE.includes(view.type),
    openPurchaseId: !owns && ONCE.includes(view.type) ? openPurchaseId : null,
    inCart: cart.lines.some((line) => line.productId === view.id),
    subscribe: view.type === 'subscription' ? { key: role === 'paciente' ? randomUUID() : null, signedIn: role !== null } : null,
    plan: subscriptions ? currentPlan(view.id, subscriptions, language) : null,
  })
}

/** The patient's live plan as this plan's page speaks of it, and what this plan would add (nothing: decision 0078). */
function currentPlan(productId: number, subscriptions: Subscription[], language: Language) {
  const choice = planChoice(
    productId,
    subscriptions.map((item) => ({ productId: item.plan.id, status: item.status, renews: item.plan.renews, cancelAtPeriodEnd: item.cancel_at_period_end })),
  )
  const live = subscriptions.find((item) => item.status !== 'ended')
  if (choice.kind === 'open' || !live) return null
  const view = subscriptionView(live, language)
  return { choice, id: view.id, name: view.plan, periodEnds: view.periodEnds, awaitingPayment: live.status === 'incomplete' }
}

/** Subscribing to the plan (patients): on to its first payment. */
export async function action({ request, params }: ActionFunctionArgs) {
  const id = productIdOf(params)
  const [{ auth }, form] = await Promise.all([requireUser(request, { role: 'paciente' }), readFormData(request)])
  return subscribeAction(request, auth, id, textFields(form))
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function ProductPage() {
  const { product, owned, openPurchaseId, inCart, subscribe, plan } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const { t } = useTranslation('shop')
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link to="/solucoes" className="link">
          {t('product.back')}
        </Link>
      </p>
      <article className="mt-4 grid gap-8 lg:grid-cols-[2fr_1fr]">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{t(`types.${product.type}`)}</p>
          <h1 className="mt-1 text-3xl font-bold">{product.name}</h1>
          {product.pillar ? (
            <p className="mt-2 flex items-center gap-1 text-muted">
              <PillarIcon icon={product.pillar.icon} className="size-5" />
              <Link to={`/solucoes?pilar=${product.pillar.slug}`} className="link">
                {t('product.theme', { pillar: product.pillar.name })}
              </Link>
            </p>
          ) : null}
          <p className="mt-4 max-w-2xl whitespace-pre-line text-lg">{product.description}</p>
          <ProductFacts product={product} />
        </div>
        <aside className="h-fit rounded-2xl border border-brand-100 bg-white p-6 shadow-sm" aria-label={t('product.price')}>
          <ProductPrice product={product} className="text-3xl font-bold text-brand-800" />
          {owned ? (
            <p className="mt-4 rounded-xl bg-brand-50 p-4" data-testid="owned">
              {t('product.owned')}{' '}
              <Link to="/compras" className="link">
                {t('product.seePurchases')}
              </Link>
            </p>
          ) : (
            <>
              {openPurchaseId ? (
                <p className="mt-4 rounded-xl bg-amber-50 p-4" data-testid="open-purchase">
                  {t('product.inCheckout')}{' '}
                  <Link to={`/compras/${openPurchaseId}`} className="link">
                    {t('product.seeOpenPurchase', { id: openPurchaseId })}
                  </Link>
                </p>
              ) : null}
              <AddToCart product={product} inCart={inCart} className="mt-4" />
            </>
          )}
          {plan ? <CurrentPlan plan={plan} /> : subscribe ? <Subscribe productId={product.id} price={product.price} subscribe={subscribe} reply={reply && 'subscribe' in reply ? reply.subscribe : undefined} /> : null}
          <ul className="mt-4 space-y-2 text-sm text-muted">
            <li>{product.type === 'subscription' && (product.interval === 'trial' || product.interval === 'program') ? t('product.subscriptionOnce') : t(`product.access.${product.type}`)}</li>
            <li>{t('product.withdrawal')}</li>
            <li>{t('product.payment')}</li>
          </ul>
        </aside>
      </article>
    </main>
  )
}

type Plan = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['plan']>

/**
 * Instead of "Assinar" while the patient has a plan (decision 0078): which one, that this one adds
 * nothing (every plan opens the same), and how to move to it when the current one ends.
 */
function CurrentPlan({ plan }: { plan: Plan }) {
  const { t } = useTranslation('shop')
  const { choice } = plan
  return (
    <div className="mt-4 rounded-xl bg-brand-50 p-4" data-testid="current-plan">
      {choice.kind === 'same' ? (
        <p>{plan.awaitingPayment ? t('product.plan.sameAwaiting') : t('product.plan.same', { date: plan.periodEnds })}</p>
      ) : (
        <>
          <p>{plan.awaitingPayment ? t('product.plan.otherAwaiting', { name: plan.name }) : t('product.plan.other', { name: plan.name, date: plan.periodEnds })}</p>
          <p className="mt-2">{t('product.plan.nothingMore')}</p>
          {plan.awaitingPayment ? null : <p className="mt-2">{t(choice.switchAt === 'period_end' ? 'product.plan.switchAtPeriodEnd' : 'product.plan.switchWhenEnds', { date: plan.periodEnds })}</p>}
        </>
      )}
      <p className="mt-2">
        <Link to={`/assinaturas/${plan.id}`} className="link">
          {t('product.subscription.seeLive')}
        </Link>
      </p>
    </div>
  )
}

/** A plan's "Assinar": the payment form for a patient; a visitor signs in first (and comes back here). */
function Subscribe({
  productId,
  price,
  subscribe,
  reply,
}: {
  productId: number
  price: string
  subscribe: { key: string | null; signedIn: boolean }
  reply?: { method: string; error: string; subscriptionsLink?: boolean; subscriptionId?: number }
}) {
  const { t } = useTranslation('shop')
  if (subscribe.key) {
    return (
      <PaymentForm intent="subscribe" idempotencyKey={subscribe.key} submitLabel={t('product.subscription.subscribe', { price })} reply={reply}>
        {reply?.subscriptionsLink ? (
          <p className="mt-1">
            <Link to={reply.subscriptionId ? `/assinaturas/${reply.subscriptionId}` : '/assinaturas'} className="link">
              {t(reply.subscriptionId ? 'product.subscription.seeLive' : 'product.subscription.seeMine')}
            </Link>
          </p>
        ) : null}
      </PaymentForm>
    )
  }
  if (subscribe.signedIn) return <p className="mt-4 text-sm">{t('product.subscription.patientsOnly')}</p>
  return (
    <p className="mt-4">
      <Link to={`/auth?mode=login&redirectTo=${encodeURIComponent(`/produto/${productId}`)}`} className="btn-primary w-full">
        {t('product.subscription.signIn')}
      </Link>
    </p>
  )
}
