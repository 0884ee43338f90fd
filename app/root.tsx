import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useLocation, useRouteLoaderData } from '@remix-run/react'
import { useEffect } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import { languageTags, type Language } from './i18n/config.ts'
import { i18nFor, languageCookie, languageOf } from './i18n/i18next.server.ts'
import { getAuth } from './session/auth.server.ts'
import { cartItemCount } from './domain/cart.ts'
import { readCart } from '#app/features/cart/cart-cookie.server.ts'
import { unreadCount } from '#app/provider/messages.server.ts'
import { orNull } from '#app/provider/responses.server.ts'
import { roleFromGroups } from './session/roles.ts'
import { useSessionRefresh } from './session/use-session-refresh.ts'
import styles from './styles/tailwind.css?url'
import { CookieBanner } from './ui/cookie-banner.tsx'
import { GeneralErrorBoundary } from './ui/error-boundary.tsx'
import { type Toast } from './utils/toast-message.ts'
import { SiteFooter } from './ui/site-footer.tsx'
import { MemberNav } from './ui/member-nav.tsx'
import { SiteHeader } from './ui/site-header.tsx'
import { ToastRegion } from './ui/toast.tsx'
import { getEnv } from './env.server.ts'
import { timeStageAsync } from './http/stage-costs.server.ts'
import { parseConsent } from './utils/consent.ts'
import { languageAlternates } from './utils/site.ts'
import { getToast } from './utils/toast.server.ts'
import { useNonce } from './utils/nonce.tsx'

/** zod reads its settings from this global when it loads; jitless parsing needs no eval. */
const ZOD_JITLESS = 'globalThis.__zod_globalConfig={jitless:true}'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: styles },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export async function loader({ request }: LoaderFunctionArgs) {
  // Timed as one stage for the bench: the three run interleaved, so their times cannot be told apart.
  const [locale, auth, flashed, cart] = await timeStageAsync('root loader: locale, session and toast', () =>
    Promise.all([languageOf(request), getAuth(request), getToast(request), readCart(request)]),
  )
  // docs/product.md §4: the session start ends by fetching the current user; other loaders run meanwhile.
  await auth.syncUser()
  if (auth.endedMidRequest) throw await auth.expired()
  const headers = new Headers(flashed.headers ?? undefined)
  // A supported ?lng= is also remembered, so the next page keeps the language.
  if (new URL(request.url).searchParams.get('lng') === locale) {
    headers.append('Set-Cookie', await languageCookie().serialize(locale))
  }
  const user = auth.user
  const notice: Toast | null = auth.endedWithNotice
    ? { id: `session-${Date.now()}`, type: 'error', message: { key: 'errors.sessionExpired' } }
    : flashed.toast
  const role = user ? roleFromGroups(user.groups) : null
  const [toast, unread] = await Promise.all([
    // Translated here: a toast's key may come from any namespace, and the browser has only the page's.
    notice && 'key' in notice.message ? translated(notice, notice.message, locale as Language) : notice,
    // The navigation's unread messages (issue 44), asked beside the page's own calls: a failed count only leaves the badge out.
    role === 'paciente' || role === 'profissional' ? unreadCount(auth).catch(orNull) : null,
  ])
  const url = new URL(request.url)
  return data(
    {
      locale: locale as Language,
      toast,
      consent: parseConsent(request.headers.get('Cookie')),
      // The configured origin, never the request's Host (which the visitor chooses).
      origin: getEnv().APP_PUBLIC_URL,
      cookieSettings: url.searchParams.get('cookie-settings') === '1',
      accessExpiresAt: auth.accessExpiresAt,
      // The header's cart badge: the browser's cart, counted without asking the provider.
      cartCount: cartItemCount(cart),
      user: user
        ? {
            name: [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username,
            role: roleFromGroups(user.groups),
            unread,
          }
        : null,
    },
    { headers },
  )
}

export type RootLoader = typeof loader

/** A toast's key in the user's language. */
async function translated(toast: Toast, message: { key: string; values?: Record<string, string | number> }, locale: Language): Promise<Toast> {
  return { ...toast, message: { text: (await i18nFor(locale)).getFixedT(locale)(message.key, message.values) } }
}

/** Pages that fail before their own meta is known still have a title. */
export const meta: MetaFunction<typeof loader> = ({ error }) => (error ? [{ title: 'Innera' }, { name: 'robots', content: 'noindex' }] : [{ title: 'Innera' }])

export function Layout({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData<RootLoader>('root')
  const { i18n, t } = useTranslation()
  const nonce = useNonce()
  const locale = rootData?.locale ?? (i18n.language as Language)
  return (
    <html lang={languageTags[locale] ?? 'pt-BR'} data-lng={locale} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0a6650" />
        {/* Before any module: zod must never probe `new Function` in the browser (the CSP forbids eval). */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: ZOD_JITLESS }} />
        <Meta />
        <Links />
        {rootData ? <LanguageAlternates origin={rootData.origin} /> : null}
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:shadow"
        >
          {t('skipToContent')}
        </a>
        <SiteHeader user={rootData?.user ?? null} locale={locale} cartCount={rootData?.cartCount ?? 0} />
        {rootData?.user ? <MemberNav role={rootData.user.role} unread={rootData.user.unread} /> : null}
        <div className="flex-1">{children}</div>
        <SiteFooter />
        {/*
          The toast above the cookie banner, both held at the bottom of the screen, in the page's flow
          at its end: the page scrolls above them and the header's controls stay uncovered (decision 0080).
        */}
        <div className="pointer-events-none sticky bottom-0 z-40">
          <ToastRegion toast={rootData?.toast ?? null} />
          {rootData ? <CookieBanner consent={rootData.consent} settingsRequested={rootData.cookieSettings} /> : null}
        </div>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

function LanguageAlternates({ origin }: { origin: string }) {
  const { pathname } = useLocation()
  return languageAlternates(origin, pathname).map((alternate) => <link key={alternate.hrefLang} rel="alternate" hrefLang={alternate.hrefLang} href={alternate.href} />)
}

export default function App() {
  const { accessExpiresAt } = useLoaderData<typeof loader>()
  useSessionRefresh(accessExpiresAt)
  // Once the page is hydrated its links and forms are enhanced: `data-hydrated` on <html> says so
  // (the end-to-end walks wait for it before a click that only JavaScript handles, a popup say).
  useEffect(() => {
    document.documentElement.dataset.hydrated = ''
  }, [])
  return <Outlet />
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
