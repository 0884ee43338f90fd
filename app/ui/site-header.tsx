import { Form, Link, NavLink } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { type Role } from '#app/session/roles.ts'
import { LanguageSwitcher } from './language-switcher.tsx'

export type HeaderUser = { name: string; role: Role }

export const publicNavigation = [
  { to: '/', key: 'nav.home', end: true },
  { to: '/sobre', key: 'nav.about' },
  { to: '/medicina-do-estilo-de-vida', key: 'nav.lifestyleMedicine' },
  { to: '/programa', key: 'nav.program' },
  { to: '/solucoes', key: 'nav.solutions' },
  { to: '/faq', key: 'nav.faq' },
  { to: '/contato', key: 'nav.contact' },
] as const

function NavItems({ className }: { className: string }) {
  const { t } = useTranslation()
  return (
    <ul className={className}>
      {publicNavigation.map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            end={'end' in item}
            prefetch="intent"
            className="block rounded-md px-3 py-2 font-medium text-ink hover:bg-brand-50 xl:px-2 aria-[current=page]:text-brand-800 aria-[current=page]:underline aria-[current=page]:underline-offset-8"
          >
            {t(item.key)}
          </NavLink>
        </li>
      ))}
    </ul>
  )
}

function UserMenu({ user }: { user: HeaderUser }) {
  const { t } = useTranslation()
  return (
    <details className="relative">
      <summary className="btn-secondary list-none px-3 sm:px-5" aria-label={t('nav.userMenu', { name: user.name })}>
        <span aria-hidden="true" className="max-w-24 truncate sm:max-w-32">{user.name}</span>
      </summary>
      <ul className="absolute right-0 z-20 mt-2 w-56 rounded-xl border border-brand-100 bg-white p-2 shadow-lg">
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

/** The cart, with how many items it holds (a badge once there is one). */
function CartLink({ count }: { count: number }) {
  const { t } = useTranslation()
  return (
    <NavLink to="/carrinho" className="btn-secondary gap-1 px-3 aria-[current=page]:bg-brand-50" aria-label={t('nav.cart', { count })}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <circle cx="9" cy="20" r="1.5" />
        <circle cx="18" cy="20" r="1.5" />
        <path d="M2 3h3l2.7 12.4a1.5 1.5 0 0 0 1.5 1.1h8.9a1.5 1.5 0 0 0 1.4-1.1L22 7H6" />
      </svg>
      {count > 0 ? (
        <span aria-hidden="true" data-testid="cart-count" className="rounded-full bg-brand-700 px-2 text-sm font-semibold text-white">
          {count}
        </span>
      ) : null}
    </NavLink>
  )
}

export function SiteHeader({ user, locale, cartCount }: { user: HeaderUser | null; locale: string; cartCount: number }) {
  const { t } = useTranslation()
  return (
    <header className="border-b border-brand-100 bg-white">
      <div className="mx-auto flex min-h-16 w-full max-w-7xl flex-wrap items-center justify-between gap-2 px-4 py-2 sm:px-6 xl:flex-nowrap">
        <Link to="/" className="flex items-baseline gap-2 rounded-md text-2xl font-bold tracking-tight text-brand-800">
          {t('brand')}
          <span className="hidden text-sm font-medium text-muted sm:inline xl:hidden">{t('brandTagline')}</span>
        </Link>
        <nav aria-label={t('nav.label')} className="order-last w-full xl:order-none xl:w-auto">
          <details className="xl:hidden">
            <summary className="btn-secondary my-1 w-full list-none">{t('nav.menu')}</summary>
            <NavItems className="flex flex-col py-2" />
          </details>
          <NavItems className="hidden items-center gap-1 xl:flex" />
        </nav>
        <div className="flex items-center gap-2">
          <LanguageSwitcher current={locale} />
          <CartLink count={cartCount} />
          {user ? (
            <UserMenu user={user} />
          ) : (
            <Link to="/auth?mode=login" className="btn-primary">
              {t('nav.signIn')}
            </Link>
          )}
        </div>
      </div>
    </header>
  )
}
