import { useLocation } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { supportedLanguages } from '#app/i18n/config.ts'

/**
 * A plain form: it works without JavaScript, and a full page load brings the new language's
 * texts with it. The choice is remembered in the language cookie.
 */
export function LanguageSwitcher({ current }: { current: string }) {
  const { t } = useTranslation()
  const location = useLocation()
  const params = new URLSearchParams(location.search)
  params.delete('lng')
  const search = params.toString()
  const redirectTo = `${location.pathname}${search ? `?${search}` : ''}`
  return (
    <form method="post" action="/resources/locale" className="flex shrink-0 items-center gap-0.5" aria-label={t('language.change')}>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {supportedLanguages.map((lng) => (
        <button
          key={lng}
          type="submit"
          name="lng"
          value={lng}
          lang={lng}
          aria-pressed={lng === current}
          title={t(`language.${lng}`)}
          className="min-h-11 min-w-9 rounded-full px-1.5 text-sm sm:min-w-11 sm:px-2 font-semibold uppercase text-muted hover:bg-brand-50 aria-pressed:bg-brand-700 aria-pressed:text-white"
        >
          <span aria-hidden="true">{lng}</span>
          <span className="sr-only">{t(`language.${lng}`)}</span>
        </button>
      ))}
    </form>
  )
}
