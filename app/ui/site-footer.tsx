import { Link } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { CookieSettingsLink } from './cookie-banner.tsx'

export function SiteFooter() {
  const { t } = useTranslation()
  const year = new Date().getFullYear()
  const links = [
    { to: '/sobre', key: 'footer.about' },
    { to: '/faq', key: 'footer.faq' },
    { to: '/contato', key: 'footer.contact' },
    { to: '/privacidade', key: 'footer.privacy' },
    { to: '/termos', key: 'footer.terms' },
    { to: '/cookies', key: 'footer.cookies' },
  ]
  return (
    <footer className="mt-16 border-t border-brand-100 bg-white">
      <div className="container-page flex flex-col gap-6 py-10 md:flex-row md:justify-between">
        <div className="max-w-sm space-y-2">
          <p className="text-xl font-bold text-brand-800">{t('brand')}</p>
          <p className="text-sm text-muted">{t('footer.disclaimer')}</p>
          <p className="text-sm text-muted">{t('footer.copyright', { year })}</p>
        </div>
        <nav aria-label={t('footer.label')}>
          <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-muted">{t('footer.legal')}</h2>
          <ul className="grid grid-cols-1 gap-x-8 gap-y-1 sm:grid-cols-2">
            {links.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="inline-block py-1.5 text-ink underline-offset-4 hover:underline">
                  {t(link.key)}
                </Link>
              </li>
            ))}
            <li>
              <CookieSettingsLink className="inline-block py-1.5 text-ink underline-offset-4 hover:underline" />
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  )
}
