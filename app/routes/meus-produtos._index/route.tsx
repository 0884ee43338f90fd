import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { type MyProductsView, myProductsView } from './my-products.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { listMyLiveClasses } from '#app/provider/classes.server.ts'
import { listCourses } from '#app/provider/courses.server.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { listOwnedProducts } from '#app/provider/products.server.ts'
import { errorResponseFor, orNull } from '#app/provider/responses.server.ts'
import { listSubscriptions } from '#app/provider/subscriptions.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { CourseProgress } from '#app/ui/courses/course-parts.tsx'
import { EmptyShopList } from '#app/ui/shop/add-to-cart.tsx'
import { SubscriptionSummary } from '#app/ui/shop/subscription-summary.tsx'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['orders', 'shop', 'courses'] }

/**
 * My products (`/meus-produtos`, docs/product.md §2): everything the user has, from its purchases
 * (courses, programs, digital materials with their download, consultations left of a package) and
 * its live subscriptions, the courses it has or started with their progress (decision 0057), and
 * the live classes it has a seat in (decision 0058). Four provider calls, in parallel; without
 * the courses' the page shows the courses bought, without the classes' no classes.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request)
  const [t, language, owned, subscriptions, pillars, courses, liveClasses] = await Promise.all([
    getFixedT(request, ['orders', 'shop']),
    languageOf(request),
    listOwnedProducts(auth).catch(errorResponseFor),
    listSubscriptions(auth).catch(errorResponseFor),
    pillarsForDisplay().catch(errorResponseFor),
    listCourses(auth, { mine: true }).catch(orNull),
    listMyLiveClasses(auth).catch(orNull),
  ])
  return data(
    {
      meta: { title: `${t('myProducts.title')} · Innera`, description: t('myProducts.lead') },
      products: myProductsView(owned.results, subscriptions.results, { language, pillars, now: Date.now(), courses: courses?.results ?? null, liveClasses: liveClasses?.results ?? null, timeZone: timeZoneOr(user.time_zone) }),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function MyProductsPage() {
  const { products } = useLoaderData<typeof loader>()
  const { t } = useTranslation('orders')
  const empty = Object.values(products).every((list) => list.length === 0)
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('myProducts.title')}</h1>
      <p className="mt-2 text-muted">{t('myProducts.lead')}</p>
      <p className="mt-2">
        <Link to="/compras" className="link">
          {t('purchases.title')}
        </Link>
      </p>
      {empty ? <EmptyShopList message={t('myProducts.empty')} /> : <Sections products={products} />}
    </main>
  )
}

/** A group of what the user has; nothing when it is empty. */
function Section<Item>({ id, title, items, children }: { id: string; title: string; items: readonly Item[]; children: (item: Item) => React.ReactNode }) {
  if (items.length === 0) return null
  return (
    <section aria-labelledby={id} className="mt-8 max-w-3xl">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      <ul className="mt-3 divide-y divide-brand-100 rounded-2xl bg-white px-5" data-testid={id}>
        {items.map(children)}
      </ul>
    </section>
  )
}

/** One product the user has: its name (or a link), a line under it, and what to do with it. */
function Owned({ name, note, action }: { name: React.ReactNode; note: string; action?: React.ReactNode }) {
  return (
    <li className="flex flex-wrap items-baseline justify-between gap-3 py-3">
      <span>
        <span className="font-semibold">{name}</span>
        <span className="block text-sm text-muted">{note}</span>
      </span>
      {action}
    </li>
  )
}

function Sections({ products }: { products: MyProductsView }) {
  const { t } = useTranslation('orders')
  const key = (item: { purchaseId: number; id: number }) => `${item.purchaseId}-${item.id}`
  return (
    <>
      <Section id="my-live-classes" title={t('myProducts.liveClasses')} items={products.liveClasses}>
        {(item) => (
          <Owned
            key={item.id}
            name={item.name}
            note={item.when}
            action={
              <Link to={item.href} className="btn-secondary">
                {t('myProducts.openClass')}
                <span className="sr-only">: {item.name}</span>
              </Link>
            }
          />
        )}
      </Section>
      <Section id="my-subscriptions" title={t('myProducts.subscriptions')} items={products.subscriptions}>
        {(subscription) => (
          <li key={subscription.id} className="py-3">
            <Link to={`/assinaturas/${subscription.id}`} className="font-semibold hover:underline">
              {subscription.plan}
            </Link>
            <SubscriptionSummary subscription={subscription} />
          </li>
        )}
      </Section>
      <Section id="my-consultations" title={t('myProducts.consultations')} items={products.packages}>
        {(item) => (
          <Owned
            key={key(item)}
            name={item.name}
            note={t('myProducts.creditsLeft', { count: item.remaining, total: item.total })}
            action={
              <Link to={item.professionalId ? `/consultas/agendar/${item.professionalId}` : '/consultas/profissionais'} className="btn-secondary">
                {t('myProducts.book')}
              </Link>
            }
          />
        )}
      </Section>
      <Section id="my-materials" title={t('myProducts.materials')} items={products.materials}>
        {(item) => (
          <Owned
            key={key(item)}
            name={item.name}
            note={t(item.available ? 'myProducts.since' : 'myProducts.availableFrom', { date: item.since })}
            action={
              item.available && item.downloadable ? (
                <a href={`/meus-produtos/${item.id}/arquivo`} className="btn-primary" download>
                  {t('myProducts.download')}
                  <span className="sr-only"> {item.name}</span>
                </a>
              ) : null
            }
          />
        )}
      </Section>
      <Section id="my-courses" title={t('myProducts.courses')} items={products.courses}>
        {(item) => (
          <li key={item.href} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div className="min-w-48 flex-1">
              <Link to={item.href} className="font-semibold hover:underline">
                {item.name}
              </Link>
              {item.since ? <span className="block text-sm text-muted">{t('myProducts.since', { date: item.since })}</span> : null}
              {item.progress ? <CourseProgress id={`my-course-${item.id}`} done={item.progress.done} total={item.progress.total} className="mt-2 max-w-xs" /> : null}
            </div>
            {item.next ? (
              <Link to={item.next.href} className="btn-secondary">
                {t(`myProducts.${item.next.label}`)}
                <span className="sr-only">: {item.name}</span>
              </Link>
            ) : null}
          </li>
        )}
      </Section>
      <Section id="my-programs" title={t('myProducts.programs')} items={products.programs}>
        {(item) => (
          <Owned
            key={key(item)}
            name={item.name}
            note={t('myProducts.since', { date: item.since })}
            action={
              <Link to="/programa" className="btn-secondary">
                {t('myProducts.openProgram')}
              </Link>
            }
          />
        )}
      </Section>
    </>
  )
}
