import { Form, Link, NavLink, useLocation } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import { type Role } from '#app/session/roles.ts'
import { LanguageSwitcher } from './language-switcher.tsx'

type HeaderUser = { name: string; role: Role }

const publicNavigation = [
  { to: '/', key: 'nav.home', end: true },
  { to: '/sobre', key: 'nav.about' },
  { to: '/medicina-do-estilo-de-vida', key: 'nav.lifestyleMedicine' },
  { to: '/programa', key: 'nav.program' },
  { to: '/solucoes', key: 'nav.solutions' },
  // On a wide screen these two sit under "Mais", so the row stays one line in every language (decision 0080).
  { to: '/faq', key: 'nav.faq', more: true },
  { to: '/contato', key: 'nav.contact', more: true },
] as const

type NavItem = (typeof publicNavigation)[number]

/** Only patients buy (decision 0048: other roles get 403): admins and professionals get no cart button. */
const showsCart = (user: HeaderUser | null) => user === null || user.role === 'paciente'

const navLink =
  'block rounded-md px-3 py-2 font-medium text-ink hover:bg-brand-50 aria-[current=page]:text-brand-800 aria-[current=page]:underline aria-[current=page]:underline-offset-8'

function NavItems({ items, className, linkClassName = '' }: { items: readonly NavItem[]; className: string; linkClassName?: string }) {
  const { t } = useTranslation()
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} end={'end' in item} prefetch="intent" className={`${navLink} ${linkClassName}`}>
            {t(item.key)}
          </NavLink>
        </li>
      ))}
    </ul>
  )
}

/** The chevron of a disclosure's summary; it turns while the disclosure is open. */
function Chevron() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0 transition-transform group-open:rotate-180" fill="currentColor">
      <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
    </svg>
  )
}

/** Panels that open from the header: white, over the page, never wider than the screen. */
const panel = 'absolute z-30 mt-2 rounded-xl border border-brand-100 bg-white p-2 shadow-lg'

function UserMenu({ user }: { user: HeaderUser }) {
  const { t } = useTranslation()
  return (
    <details className="relative min-w-0">
      {/* The name shrinks to what the row leaves it (the account's full name is in the label). */}
      <summary className="btn-secondary flex max-w-full list-none px-3 sm:px-5" aria-label={t('nav.userMenu', { name: user.name })}>
        <span aria-hidden="true" className="min-w-0 max-w-40 truncate">
          {user.name}
        </span>
      </summary>
      <ul className={`${panel} right-0 w-56 max-w-[calc(100vw-2rem)]`}>
        <li>
          <Link className="block rounded-md px-3 py-2 hover:bg-brand-50" to={user.role === 'admin' ? '/admin/dashboard' : '/dashboard'}>
            {t(user.role === 'admin' ? 'nav.adminDashboard' : 'nav.dashboard')}
          </Link>
        </li>
        <li>
          <Link className="block rounded-md px-3 py-2 hover:bg-brand-50" to="/perfil">
            {t('nav.profile')}
          </Link>
        </li>
        <li>
          <Link className="block rounded-md px-3 py-2 hover:bg-brand-50" to="/compras">
            {t('nav.purchases')}
          </Link>
        </li>
        <li>
          <Link className="block rounded-md px-3 py-2 hover:bg-brand-50" to="/meus-produtos">
            {t('nav.myProducts')}
          </Link>
        </li>
        <li>
          <Link className="block rounded-md px-3 py-2 hover:bg-brand-50" to="/configuracoes">
            {t('nav.settings')}
          </Link>
        </li>
        <li>
          <Form method="post" action="/logout">
            <button type="submit" className="w-full rounded-md px-3 py-2 text-left hover:bg-brand-50">
              {t('nav.signOut')}
            </button>
          </Form>
        </li>
      </ul>
    </details>
  )
}

/** The cart, with how many items it holds (a badge on the icon once there is one, so the button keeps its size). */
function CartLink({ count }: { count: number }) {
  const { t } = useTranslation()
  return (
    <NavLink
      to="/carrinho"
      className="relative inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center rounded-full border border-brand-700 bg-white text-brand-800 hover:bg-brand-50 aria-[current=page]:bg-brand-50"
      aria-label={t('nav.cart', { count })}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <circle cx="9" cy="20" r="1.5" />
        <circle cx="18" cy="20" r="1.5" />
        <path d="M2 3h3l2.7 12.4a1.5 1.5 0 0 0 1.5 1.1h8.9a1.5 1.5 0 0 0 1.4-1.1L22 7H6" />
      </svg>
      {count > 0 ? (
        <span
          aria-hidden="true"
          data-testid="cart-count"
          className="absolute -right-1.5 -top-1.5 min-w-5 rounded-full bg-brand-700 px-1.5 text-center text-xs font-semibold leading-5 text-white ring-2 ring-white"
        >
          {count}
        </span>
      ) : null}
    </NavLink>
  )
}

/**
 * A page opened from a header panel (the menu, "Mais", the account) closes the panel: the header
 * stays on the page when the browser navigates without a reload. Without JavaScript every link
 * loads a new page, which starts closed.
 */
function useClosePanelsOnNavigation() {
  const header = useRef<HTMLElement>(null)
  const { key } = useLocation()
  const first = useRef(true)
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    for (const details of header.current?.querySelectorAll('details[open]') ?? []) details.removeAttribute('open')
  }, [key])
  return header
}

/**
 * docs/product.md §2. Below 640 px two rows that fit 360 px in every language (decision 0080):
 * the brand and the menu, then the languages, the cart and the account. From 640 px one row;
 * from 1280 px the public links show in it, FAQ and contact under "Mais".
 */
export function SiteHeader({ user, locale, cartCount }: { user: HeaderUser | null; locale: string; cartCount: number }) {
  const { t } = useTranslation()
  const header = useClosePanelsOnNavigation()
  const inRow = publicNavigation.filter((item) => !('more' in item))
  const more = publicNavigation.filter((item) => 'more' in item)
  const { pathname } = useLocation()
  const inMore = more.some((item) => item.to === pathname)
  return (
    <header ref={header} className="relative border-b border-brand-100 bg-white">
      <div className="mx-auto flex min-h-16 w-full max-w-7xl flex-wrap items-center gap-x-2 gap-y-1 px-4 py-2 sm:flex-nowrap sm:px-6">
        <Link to="/" className="mr-auto flex shrink-0 xl:mr-0 items-baseline gap-2 rounded-md text-2xl font-bold tracking-tight text-brand-800">
          {t('brand')}
          <span className="hidden text-sm font-medium text-muted lg:inline xl:hidden">{t('brandTagline')}</span>
        </Link>
        <nav aria-label={t('nav.label')} className="xl:mx-auto">
          <details className="group xl:hidden">
            <summary className="btn-secondary list-none px-4">
              {t('nav.menu')}
              <Chevron />
            </summary>
            {/* Under the whole header, as wide as it (the header is the panel's box). */}
            <NavItems items={publicNavigation} className={`${panel} inset-x-2 top-full flex flex-col sm:left-auto sm:right-6 sm:w-72`} />
          </details>
          <div className="hidden items-center gap-0.5 xl:flex">
            <NavItems items={inRow} className="flex items-center gap-0.5" linkClassName="whitespace-nowrap px-2" />
            <details className="group relative">
              <summary className={`${navLink} flex list-none items-center gap-1 whitespace-nowrap px-2 ${inMore ? 'text-brand-800 underline underline-offset-8' : ''}`}>
                {t('nav.more')}
                <Chevron />
              </summary>
              <NavItems items={more} className={`${panel} right-0 w-56`} />
            </details>
          </div>
        </nav>
        {/* Below 640 px a row of its own: the languages on the left, the cart and the account on the right. */}
        <div className="flex w-full min-w-0 items-center gap-2 sm:w-auto">
          <LanguageSwitcher current={locale} />
          <div className="ml-auto flex min-w-0 items-center gap-2">
            {showsCart(user) ? <CartLink count={cartCount} /> : null}
            {user ? (
              <UserMenu user={user} />
            ) : (
              <Link to="/auth?mode=login" className="btn-primary shrink-0 whitespace-nowrap max-sm:px-4 max-sm:text-sm">
                {t('nav.signIn')}
              </Link>
            )}
          </div>
        </div>
      </div>
    </header>
  )
}
