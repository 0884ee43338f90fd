import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { cartAction } from '#app/features/cart/cart.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { randomUUID } from 'node:crypto'
import { checkoutAction } from '#app/features/cart/checkout.server.ts'
import { getAuth, requireUser } from '#app/session/auth.server.ts'
import { roleFromGroups } from '#app/session/roles.ts'
import { EmptyShopList } from '#app/ui/shop/add-to-cart.tsx'
import { PaymentForm } from '#app/ui/shop/payment-form.tsx'
import { ProductFacts } from '#app/ui/shop/product-facts.tsx'
import { readCart } from '#app/features/cart/cart-cookie.server.ts'
import { cartHoldings, cartView } from './cart-views.server.ts'
import { readFormData, textFields } from '#app/utils/form-data.server.ts'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['shop'] }

/**
 * The cart (`/carrinho`, docs/product.md §2): for visitors and members alike, without JavaScript.
 * What is in it comes from the browser's signed cookie; what it costs, from the catalogue now.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const [t, language, cart, auth] = await Promise.all([getFixedT(request, 'shop'), languageOf(request), readCart(request), getAuth(request)])
  const role = auth.user ? roleFromGroups(auth.user.groups) : null
  // A patient is told before paying what they have already or are paying for elsewhere (issue 42).
  const [view, holdings] = await Promise.all([cartView(cart, language).catch(errorResponseFor), role === 'paciente' ? cartHoldings(auth, cart) : { owned: [], open: [] }])
  return data(
    {
      meta: { title: `${t('cart.title')} · Innera`, description: t('cart.lead') },
      cart: view,
      // Patients buy (docs/product.md §6); a new key with each page, so a repeated click buys once.
      checkout: role === 'paciente' ? { key: randomUUID() } : null,
      holdings,
      signedIn: role !== null,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request)
  if (form.get('intent') === 'checkout') {
    const { auth } = await requireUser(request, { role: 'paciente' })
    return checkoutAction(request, auth, textFields(form))
  }
  return cartAction(request, await getAuth(request), form)
}

export default function CartPage() {
  const { cart, checkout, signedIn, holdings } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const { t } = useTranslation('shop')
  const refused = reply && 'checkout' in reply ? reply.checkout : undefined
  // Known before paying (the loader), or told by a refused checkout (the action): either marks the line.
  const ownedBy = new Map<number, number | null>([...(refused?.owned ?? []).map((id: number) => [id, null] as const), ...holdings.owned.map((item) => [item.productId, item.purchaseId] as const)])
  const openIn = new Map<number, number | null>([...(refused?.inCheckout ?? []).map((id: number) => [id, refused?.openPurchaseId ?? null] as const), ...holdings.open.map((item) => [item.productId, item.purchaseId] as const)])
  const blocked = holdings.owned.length > 0 || holdings.open.length > 0
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('cart.title')}</h1>
      {cart.changed ? (
        <p role="status" className="mt-4 rounded-xl border border-amber-300 bg-amber-50 p-4">
          {t(cart.tooLarge ? 'cart.errors.totalTooLarge' : 'cart.changed')}
        </p>
      ) : null}
      {cart.lines.length === 0 ? (
        <EmptyShopList message={t('cart.empty')} />
      ) : (
        <div className="mt-6 grid gap-8 lg:grid-cols-[2fr_1fr]">
          <section aria-labelledby="cart-items">
            <h2 id="cart-items" className="sr-only">
              {t('cart.items')}
            </h2>
            <ul className="space-y-4" data-testid="cart-lines">
              {cart.lines.map((line) => (
                <li key={line.product.id} className="rounded-2xl border border-brand-100 bg-white p-5 shadow-sm">
                  <div className="flex flex-wrap items-start justify-between gap-3">
                    <div>
                      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{t(`types.${line.product.type}`)}</p>
                      <h3 className="mt-1 text-lg font-semibold">
                        <Link to={`/produto/${line.product.id}`} className="hover:underline">
                          {line.product.name}
                        </Link>
                      </h3>
                      <ProductFacts product={line.product} />
                      <p className="mt-2 text-sm text-muted">{t('cart.quantity', { count: line.quantity })}</p>
                      {ownedBy.has(line.product.id) ? (
                        <p className="mt-2 font-medium text-red-800" data-testid="line-owned">
                          {t(`cart.ownedKind.${line.product.type}`, { defaultValue: t('cart.owned') })} <PurchaseLink id={ownedBy.get(line.product.id) ?? null} />
                        </p>
                      ) : openIn.has(line.product.id) ? (
                        <p className="mt-2 font-medium text-red-800" data-testid="line-in-checkout">
                          {t('cart.inCheckout')} <PurchaseLink id={openIn.get(line.product.id) ?? null} />
                        </p>
                      ) : null}
                    </div>
                    <p className="text-lg font-bold text-brand-800">{line.total}</p>
                  </div>
                  <Form method="post" className="mt-3">
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="productId" value={line.product.id} />
                    <button type="submit" className="link">
                      {t('cart.remove')}
                      <span className="sr-only">: {line.product.name}</span>
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          </section>
          <aside className="h-fit rounded-2xl border border-brand-100 bg-white p-6 shadow-sm" aria-labelledby="cart-summary">
            <h2 id="cart-summary" className="text-xl font-semibold">
              {t('cart.summary')}
            </h2>
            <dl className="mt-4 flex items-baseline justify-between gap-4">
              <dt>{t('cart.total', { count: cart.count })}</dt>
              <dd className="text-2xl font-bold text-brand-800" data-testid="cart-total">
                {cart.total}
              </dd>
            </dl>
            <p className="mt-2 text-sm text-muted">{t('product.withdrawal')}</p>
            {checkout && blocked ? (
              <p className="mt-6 rounded-xl bg-amber-50 p-4" data-testid="cart-blocked">
                {t('cart.blocked')}
              </p>
            ) : checkout ? (
              <PaymentForm intent="checkout" idempotencyKey={checkout.key} submitLabel={t('checkout.pay', { total: cart.total ?? '' })} reply={refused}>
                {refused?.openPurchaseId ? (
                  <p className="mt-1">
                    <Link to={`/compras/${refused.openPurchaseId}`} className="link">
                      {t('checkout.openPurchase', { id: refused.openPurchaseId })}
                    </Link>
                  </p>
                ) : null}
              </PaymentForm>
            ) : signedIn ? (
              <p className="mt-6 text-sm">{t('checkout.patientsOnly')}</p>
            ) : (
              <p className="mt-6">
                <Link to="/auth?mode=login&redirectTo=%2Fcarrinho" className="btn-primary w-full">
                  {t('cart.signInToPay')}
                </Link>
              </p>
            )}
            <p className="mt-4">
              <Link to="/solucoes" className="link">
                {t('cart.continue')}
              </Link>
            </p>
          </aside>
        </div>
      )}
    </main>
  )
}

/** The purchase that has a product already, or is paying for it: one click to it. */
function PurchaseLink({ id }: { id: number | null }) {
  const { t } = useTranslation('shop')
  if (id === null) return null
  return (
    <Link to={`/compras/${id}`} className="link whitespace-nowrap">
      {t('cart.seePurchase', { id })}
    </Link>
  )
}
