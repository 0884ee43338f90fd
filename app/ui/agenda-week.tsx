import { Link } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { type Language } from '#app/i18n/config.ts'
import { formatDate, formatTime } from '#app/domain/appointments.ts'
import { StatusBadge } from '#app/ui/appointments/status-badge.tsx'

type AgendaItem = { id: number; start_time: string; end_time: string; status: string; patientName: string }
type AgendaDay = { date: string; items: AgendaItem[] }

type Props = {
  days: AgendaDay[]
  today: string
  timeZone: string
  language: Language
  previous: string
  next: string
  start: string
  /** The provider left some cancelled appointments out (it answers at most 500). */
  truncated?: boolean
}

/**
 * The professional's week as a server-rendered agenda (issue 12): each day with its appointments
 * (time, patient, status, a link), today marked, and links to the weeks before and after that work
 * without JavaScript.
 */
export function AgendaWeek({ days, today, timeZone, language, previous, next, start, truncated = false }: Props) {
  const { t } = useTranslation('dashboard')
  const last = days.at(-1)?.date ?? start
  return (
    <section aria-labelledby="week-title" className="mt-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="week-title" className="text-2xl font-semibold">
          {t('professional.weekTitle', { from: formatDate(start, language, 'dayMonth'), to: formatDate(last, language, 'dayMonth') })}
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
                {formatDate(day.date, language, 'long')}{' '}
                {isToday ? <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-sm text-brand-800">{t('professional.today')}</span> : null}
              </h3>
              {day.items.length === 0 ? (
                <p className="mt-2 text-sm text-muted">{t('professional.noAppointments')}</p>
              ) : (
                <ul className="mt-3 divide-y divide-brand-100">
                  {day.items.map((item) => (
                    <li key={item.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
                      <span className="w-28 font-medium tabular-nums">
                        {formatTime(item.start_time, timeZone, language)}–{formatTime(item.end_time, timeZone, language)}
                      </span>
                      <span className={`flex-1 ${item.status === 'cancelled' ? 'text-muted line-through' : ''}`}>{item.patientName}</span>
                      <StatusBadge status={item.status} />
                      <Link to={`/consultas/${item.id}`} className="link text-sm">
                        {t('professional.details')}
                        <span className="sr-only">: {item.patientName}, {formatTime(item.start_time, timeZone, language)}</span>
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
