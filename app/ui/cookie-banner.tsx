import { Link, useFetcher, useLocation } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { type Consent, optionalCategories } from '#app/utils/consent.ts'

const choiceButton = 'btn min-w-40 flex-1 border border-brand-700 bg-white text-brand-800 hover:bg-brand-50 sm:flex-none'

/**
 * docs/product.md §2: necessary only, accept all and customize, equally prominent, and a close button.
 * Server-rendered, so it never flashes; plain forms, so it works without JavaScript.
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
    <section aria-labelledby="cookie-banner-title" className="fixed inset-x-0 bottom-0 z-40 border-t border-brand-100 bg-white shadow-[0_-8px_24px_rgba(0,0,0,0.08)]">
      <div className="container-page relative max-h-[80vh] overflow-y-auto py-5">
        <fetcher.Form method="post" action="/resources/cookie-consent" className="absolute right-2 top-2">
          {hidden}
          <button type="submit" name="intent" value="close" className="min-h-11 min-w-11 rounded-full text-2xl leading-none text-muted hover:bg-brand-50" aria-label={t('cookies.close')}>
            <span aria-hidden="true">×</span>
          </button>
        </fetcher.Form>
        <h2 id="cookie-banner-title" className="pr-12 text-lg font-semibold">
          {t('cookies.title')}
        </h2>
        <p className="mt-1 max-w-3xl text-muted">
          {t('cookies.text')}{' '}
          <Link to="/cookies" className="link">
            {t('cookies.policyLink')}
          </Link>
        </p>
        <fetcher.Form method="post" action="/resources/cookie-consent" className="mt-4 flex flex-wrap gap-3">
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
