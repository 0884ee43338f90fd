import { NavLink } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { type Role } from '#app/session/roles.ts'
import { memberNavigation, memberNavigationLabelKey } from './member-navigation.ts'

/**
 * The signed-in areas of the user's role, under the site header on every page (the public
 * pages stay in the header above). Plain links, so it works without JavaScript; at 360 px the
 * row scrolls sideways on its own instead of the page.
 */
export function MemberNav({ role, unread = null }: { role: Role; unread?: number | null }) {
  const { t } = useTranslation()
  return (
    <nav aria-label={t(memberNavigationLabelKey(role))} className="border-b border-brand-100 bg-brand-50">
      <ul className="mx-auto flex w-full max-w-7xl gap-1 overflow-x-auto px-4 py-2 sm:px-6">
        {memberNavigation(role).map((item) => (
          <li key={item.to} className="shrink-0">
            <NavLink
              to={item.to}
              end={item.end}
              prefetch="intent"
              className="relative block rounded-full px-4 py-2 font-semibold text-brand-800 hover:bg-white aria-[current=page]:bg-brand-700 aria-[current=page]:text-white"
            >
              {t(item.key)}
              {item.to === '/mensagens' && unread ? (
                <>
                  {' '}
                  <span className="ml-1 inline-block min-w-5 rounded-full bg-brand-800 px-1.5 ring-1 ring-white text-center text-xs leading-5 text-white" aria-hidden="true" data-testid="unread-messages">
                    {unread}
                  </span>
                  <span className="sr-only">{t('memberNav.unreadMessages', { count: unread })}</span>
                </>
              ) : null}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}
