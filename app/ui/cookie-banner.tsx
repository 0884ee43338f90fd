import { Link, useFetcher, useLocation } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { type Consent, optionalCategories } from '#app/utils/consent.ts'

/** Side by side and equal at any width: three columns on a phone (a long label takes two lines), a row from 640 px. */
const choiceButton = 'btn border border-brand-700 bg-white px-2 text-center text-sm leading-tight text-brand-800 hover:bg-brand-50 sm:min-w-40 sm:px-5 sm:text-base'

/**
 * docs/product.md §2: necessary only, accept all and customize, equally prominent, and a close button.
 * Server-rendered, so it never flashes; plain forms, so it works without JavaScript. Compact (at
 * most a third of a 360 × 740 screen) and in the page's flow at its end, held at the bottom of the
 * screen (root.tsx): the page can scroll above it, so it never hides the end of a page (decision 0080).
 */
export function CookieBanner({ consent, settingsRequested }: { consent: Consent | null; settingsRequested: boolean }) {
  const { t } = useTranslation()
  const fetcher = useFetcher()
  const location = useLocation()
  if (fetcher.state !== 'idle' || (fetcher.data && !settingsRequested)) return null
  if (consent && !settingsRequested) return null
  const redirectTo = `${location.pathname}${location.search}`
  const settingsHref = withCookieSettings(location.pathname, location.search)
  const hidden = <input type="hidden" name="redirectTo" value={redirectTo} />
  return (
    <section aria-labelledby="cookie-banner-title" className="pointer-events-auto border-t border-brand-100 bg-white shadow-[0_-8px_24px_rgba(0,0,0,0.08)]">
      <div className="container-page relative max-h-[80vh] overflow-y-auto py-3 sm:py-4">
        <fetcher.Form method="post" action="/resources/cookie-consent" className="absolute right-1 top-0.5 sm:right-2 sm:top-1.5">
          {hidden}
          <button type="submit" name="intent" value="close" className="min-h-11 min-w-11 rounded-full text-2xl leading-none text-muted hover:bg-brand-50" aria-label={t('cookies.close')}>
            <span aria-hidden="true">×</span>
          </button>
        </fetcher.Form>
        <h2 id="cookie-banner-title" className="pr-12 font-semibold sm:text-lg">
          {t('cookies.title')}
        </h2>
        <p className="mt-1 max-w-3xl pr-2 text-sm text-muted sm:text-base">
          {t('cookies.text')}{' '}
          <Link to="/cookies" className="link">
            {t('cookies.policyLink')}
          </Link>
        </p>
        <fetcher.Form method="post" action="/resources/cookie-consent" className="mt-3 grid grid-cols-3 gap-2 sm:flex sm:flex-wrap sm:gap-3">
          {hidden}
          <button type="submit" name="intent" value="necessary" className={choiceButton}>
            {t('cookies.necessaryOnly')}
          </button>
          <button type="submit" name="intent" value="all" className={choiceButton}>
            {t('cookies.acceptAll')}
          </button>
          {/* A link, not a toggle: the preferences open with or without JavaScript, and can be linked to. */}
          <Link to={settingsHref} preventScrollReset className={choiceButton} aria-expanded={settingsRequested}>
            {t('cookies.customize')}
          </Link>
        </fetcher.Form>
        {settingsRequested ? (
          <fetcher.Form method="post" action="/resources/cookie-consent" className="mt-4 space-y-3">
            {hidden}
            <fieldset className="space-y-3">
              <legend className="font-semibold">{t('cookies.preferencesTitle')}</legend>
              <div className="flex items-start gap-3 rounded-lg bg-brand-50 p-3">
                <span className="flex-1">
                  <span className="block font-medium">{t('cookies.categories.necessary.name')}</span>
                  <span className="block text-sm text-muted">{t('cookies.categories.necessary.description')}</span>
                </span>
                <span className="text-sm font-semibold text-brand-800">{t('cookies.alwaysOn')}</span>
              </div>
              {optionalCategories.map((category) => (
                <label key={category} className="flex items-start gap-3 rounded-lg border border-brand-100 p-3">
                  <input type="checkbox" name={category} defaultChecked={consent?.[category] ?? false} className="mt-1 size-5 shrink-0 accent-brand-700" />
                  <span>
                    <span className="block font-medium">{t(`cookies.categories.${category}.name`)}</span>
                    <span className="block text-sm text-muted">{t(`cookies.categories.${category}.description`)}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <p className="text-sm">
              <Link to="/privacidade" className="link">
                {t('cookies.privacyLink')}
              </Link>
            </p>
            <button type="submit" name="intent" value="custom" className="btn-primary">
              {t('cookies.save')}
            </button>
          </fetcher.Form>
        ) : null}
      </div>
    </section>
  )
}

function withCookieSettings(pathname: string, search: string) {
  const params = new URLSearchParams(search)
  params.set('cookie-settings', '1')
  return `${pathname}?${params.toString()}`
}

/** The footer's way back to the preferences, from any page. */
export function CookieSettingsLink({ className }: { className?: string }) {
  const { t } = useTranslation()
  const location = useLocation()
  return (
    <Link to={withCookieSettings(location.pathname, location.search)} className={className} preventScrollReset>
      {t('footer.cookieSettings')}
    </Link>
  )
}
