import { Link } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { StatusBadge } from '#app/ui/appointments/status-badge.tsx'

/** An appointment as the agenda shows it: its times already written in the professional's zone and language (`times`: "09:00–09:50"; `startsAt`: "09:00"). */
export type AgendaItem = { id: number; times: string; startsAt: string; status: string; patientName: string }
/** A day of the week, its heading already written ("segunda-feira, 30 de março de 2026"). */
export type AgendaDay = { date: string; label: string; items: AgendaItem[] }

type Props = {
  days: AgendaDay[]
  today: string
  timeZone: string
  /** The week's first and last days as the title says them ("30 de março"). */
  range: { from: string; to: string }
  previous: string
  next: string
  /** The provider left some cancelled appointments out (it answers at most 500). */
  truncated?: boolean
}

/**
 * The professional's week as a server-rendered agenda (issue 12): each day with its appointments
 * (time, patient, status, a link), today marked, and links to the weeks before and after that work
 * without JavaScript. Its dates and times come written by the loader (issue 43): the browser builds
 * no Intl formatter while it hydrates the page (the first one costs it ICU's start, a long task).
 */
export function AgendaWeek({ days, today, timeZone, range, previous, next, truncated = false }: Props) {
  const { t } = useTranslation('dashboard')
  return (
    <section aria-labelledby="week-title" className="mt-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="week-title" className="text-2xl font-semibold">
          {t('professional.weekTitle', range)}
        </h2>
        <nav aria-label={t('professional.weekNav')} className="flex flex-wrap gap-2">
          <Link to={`?semana=${previous}`} className="btn-secondary min-h-11" rel="prev">
            <span aria-hidden="true">← </span>
            {t('professional.previousWeek')}
          </Link>
          <Link to="?" className="btn-secondary min-h-11">
            {t('professional.thisWeek')}
          </Link>
          <Link to={`?semana=${next}`} className="btn-secondary min-h-11" rel="next">
            {t('professional.nextWeek')}
            <span aria-hidden="true"> →</span>
          </Link>
        </nav>
      </div>
      <p className="mt-1 text-sm text-muted">{t('professional.timesIn', { zone: timeZone })}</p>
      {truncated ? <p className="mt-1 text-sm">{t('professional.someCancelledLeftOut')}</p> : null}
      <ol className="mt-4 space-y-4">
        {days.map((day) => {
          const isToday = day.date === today
          const headingId = `day-${day.date}`
          return (
            <li key={day.date} aria-labelledby={headingId} aria-current={isToday ? 'date' : undefined} className={`rounded-2xl bg-white p-5 shadow-sm ${isToday ? 'ring-2 ring-brand-700' : ''}`}>
              <h3 id={headingId} className="font-semibold">
                {day.label}{' '}
                {isToday ? <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-sm text-brand-800">{t('professional.today')}</span> : null}
              </h3>
              {day.items.length === 0 ? (
                <p className="mt-2 text-sm text-muted">{t('professional.noAppointments')}</p>
              ) : (
                <ul className="mt-3 divide-y divide-brand-100">
                  {day.items.map((item) => (
                    <li key={item.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
                      <span className="w-28 font-medium tabular-nums">
                        {item.times}
                      </span>
                      <span className={`flex-1 ${item.status === 'cancelled' ? 'text-muted line-through' : ''}`}>{item.patientName}</span>
                      <StatusBadge status={item.status} />
                      <Link to={`/consultas/${item.id}`} className="link text-sm">
                        {t('professional.details')}
                        <span className="sr-only">: {item.patientName}, {item.startsAt}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          )
        })}
      </ol>
    </section>
  )
}
