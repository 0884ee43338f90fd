import { Link } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'

/** A conflict as the loaders build it (app/features/calendar/calendar-conflicts.server.ts `conflictViews`). */
export type ConflictItem = {
  id: string
  severity: 'high' | 'medium' | 'low'
  when: string
  events: { title: string; time: string }[]
  resolution: string
}

const tones: Record<ConflictItem['severity'], string> = {
  high: 'bg-red-700 text-white',
  medium: 'bg-amber-100 text-amber-950',
  low: 'bg-gray-100 text-gray-800',
}

function SeverityBadge({ severity }: { severity: ConflictItem['severity'] }) {
  const { t } = useTranslation('calendar')
  const label = t(`conflicts.severity.${severity}`)
  return (
    <span className={`rounded-full px-3 py-1 text-sm font-medium ${tones[severity]}`}>
      <span className="sr-only">{t('conflicts.severityLabel', { severity: label })}</span>
      <span aria-hidden="true">{label}</span>
    </span>
  )
}

/** The conflicts of the next 30 days, most serious first (the loader sorted them), each with what to do. */
export function ConflictList({ conflicts }: { conflicts: ConflictItem[] | null }) {
  const { t } = useTranslation('calendar')
  return (
    <section aria-labelledby="conflicts-title" className="mt-8">
      <h2 id="conflicts-title" className="text-2xl font-semibold">
        {t('conflicts.title')}
      </h2>
      <p className="mt-1 max-w-2xl text-muted">{t('conflicts.lead')}</p>
      {conflicts === null ? (
        <p className="mt-4 rounded-xl bg-white p-4 text-muted">{t('errors.schedule')}</p>
      ) : conflicts.length === 0 ? (
        <p className="mt-4 rounded-xl bg-white p-4 text-muted">{t('conflicts.none')}</p>
      ) : (
        <ol className="mt-4 space-y-3">
          {conflicts.map((conflict) => (
            <li key={conflict.id} aria-labelledby={`conflict-${conflict.id}`} className="rounded-2xl bg-white p-5 shadow-sm" data-severity={conflict.severity}>
              <div className="flex flex-wrap items-center gap-3">
                <h3 id={`conflict-${conflict.id}`} className="font-semibold">
                  {conflict.when}
                </h3>
                <SeverityBadge severity={conflict.severity} />
              </div>
              <ConflictEvents conflict={conflict} />
              <p className="mt-2">{conflict.resolution}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

function ConflictEvents({ conflict }: { conflict: ConflictItem }) {
  const { t } = useTranslation('calendar')
  return (
    <ul aria-label={t('conflicts.events')} className="mt-2 space-y-1 text-sm text-muted">
      {conflict.events.map((event, index) => (
        <li key={`${index}-${event.title}`}>
          <span className="tabular-nums">{event.time}</span> · <span className="text-ink">{event.title}</span>
        </li>
      ))}
    </ul>
  )
}

/** Beside a slot of the availability editor: the conflicts that hit it, briefly, and where to see them all. */
export function SlotConflicts({ conflicts, id }: { conflicts: ConflictItem[]; id?: string }) {
  const { t } = useTranslation('calendar')
  if (conflicts.length === 0) return null
  return (
    <div id={id} className="mt-2 w-full rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <p className="font-medium">{t('conflicts.onSlot', { count: conflicts.length })}</p>
      <ul className="mt-1 space-y-1">
        {conflicts.map((conflict) => (
          <li key={conflict.id} className="flex flex-wrap items-center gap-2">
            <SeverityBadge severity={conflict.severity} />
            <span>
              {conflict.when}: {conflict.events.map((event) => event.title).join(', ')}
            </span>
          </li>
        ))}
      </ul>
      <Link to="/agenda/calendario#conflicts-title" className="link mt-1 inline-block">
        {t('conflicts.seeAll')}
      </Link>
    </div>
  )
}
