import { Link } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { StatusBadge } from '#app/ui/appointments/status-badge.tsx'
import { type AppointmentItem, type EventItem } from '#app/domain/calendar-agenda.ts'

type CalendarWeekView = {
  start: string
  title: string
  previous: string | null
  next: string | null
  appointmentsUnavailable: boolean
  days: { date: string; label: string; isToday: boolean; items: (AppointmentItem | EventItem)[] }[]
}

/** A link to this page with the week and, maybe, an event to edit or delete. */
const pageLink = (week: string, extra: Record<string, string> = {}) => `?${new URLSearchParams({ semana: week, ...extra }).toString()}`

/**
 * The week of the refresh window as a server-rendered agenda (the look of the dashboard's): each
 * day with the product's appointments and the Google Calendar events (all-day ones as such), today
 * marked, links to the other weeks of the window that work without JavaScript.
 */
export function CalendarWeek({ week, timeZone }: { week: CalendarWeekView; timeZone: string }) {
  const { t } = useTranslation('calendar')
  return (
    <section aria-labelledby="week-title" className="mt-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="week-title" className="text-2xl font-semibold">
          {week.title}
        </h2>
        <nav aria-label={t('week.nav')} className="flex flex-wrap gap-2">
          {week.previous ? (
            <Link to={pageLink(week.previous)} className="btn-secondary min-h-11" rel="prev" preventScrollReset>
              <span aria-hidden="true">← </span>
              {t('week.previous')}
            </Link>
          ) : null}
          <Link to="?" className="btn-secondary min-h-11" preventScrollReset>
            {t('week.current')}
          </Link>
          {week.next ? (
            <Link to={pageLink(week.next)} className="btn-secondary min-h-11" rel="next" preventScrollReset>
              {t('week.next')}
              <span aria-hidden="true"> →</span>
            </Link>
          ) : null}
        </nav>
      </div>
      <p className="mt-1 text-sm text-muted">{t('week.timesIn', { zone: timeZone })}</p>
      <ol className="mt-4 space-y-4">
        {week.days.map((day) => {
          const headingId = `day-${day.date}`
          return (
            <li key={day.date} aria-labelledby={headingId} aria-current={day.isToday ? 'date' : undefined} className={`rounded-2xl bg-white p-5 shadow-sm ${day.isToday ? 'ring-2 ring-brand-700' : ''}`}>
              <h3 id={headingId} className="font-semibold">
                {day.label}{' '}
                {day.isToday ? <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-sm text-brand-800">{t('week.today')}</span> : null}
              </h3>
              {day.items.length === 0 ? (
                <p className="mt-2 text-sm text-muted">{t('week.empty')}</p>
              ) : (
                <ul className="mt-3 divide-y divide-brand-100">
                  {day.items.map((item) => (item.kind === 'appointment' ? <AppointmentRow key={item.key} item={item} /> : <EventRow key={item.key} item={item} week={week.start} />))}
                </ul>
              )}
            </li>
          )
        })}
      </ol>
    </section>
  )
}

function AppointmentRow({ item }: { item: AppointmentItem }) {
  const { t } = useTranslation('calendar')
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
      <span className="w-28 font-medium tabular-nums">{item.time}</span>
      <span className={`flex-1 ${item.status === 'cancelled' ? 'text-muted line-through' : ''}`}>
        <span className="mr-2 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">{t('week.appointment')}</span>
        {item.title}
      </span>
      <StatusBadge status={item.status} />
      <Link to={`/consultas/${item.id}`} className="link text-sm">
        {t('week.details')}
        <span className="sr-only">
          : {item.title}, {item.time}
        </span>
      </Link>
    </li>
  )
}

function EventRow({ item, week }: { item: EventItem; week: string }) {
  const { t } = useTranslation('calendar')
  const muted = item.status === 'cancelled' || item.declined
  const tags = [
    item.innera ? t('week.innera') : null,
    item.status === 'tentative' ? t('week.tentative') : null,
    item.status === 'cancelled' ? t('week.cancelled') : null,
    item.declined ? t('week.declined') : null,
    item.free ? t('week.free') : null,
  ].filter((tag): tag is string => tag !== null)
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3" data-event-id={item.id}>
      <span className={`font-medium tabular-nums ${item.allDay ? 'w-auto sm:w-28' : 'w-28'}`}>{item.time}</span>
      <span className={`min-w-0 flex-1 break-words ${muted ? 'text-muted line-through' : ''}`}>
        <span className="mr-2 rounded-full border border-brand-700 px-2 py-0.5 text-xs font-semibold text-brand-800">{t('week.event')}</span>
        {item.title}
        {item.location ? <span className="block text-sm text-muted">{item.location}</span> : null}
      </span>
      {tags.length ? (
        <span className="flex flex-wrap gap-1">
          {tags.map((tag) => (
            <span key={tag} className="rounded-full bg-gray-100 px-2 py-0.5 text-sm text-gray-800">
              {tag}
            </span>
          ))}
        </span>
      ) : null}
      <span className="flex flex-wrap gap-3 text-sm">
        {item.htmlLink ? (
          <a href={item.htmlLink} className="link" target="_blank" rel="noopener noreferrer">
            {t('week.openInGoogle')}
            <span className="sr-only">: {item.title}</span>
          </a>
        ) : null}
        {item.editable ? (
          <Link to={`${pageLink(week, { editar: item.id })}#event-form-title`} className="link">
            {t('week.edit')}
            <span className="sr-only">: {item.title}</span>
          </Link>
        ) : null}
        <Link to={`${pageLink(week, { excluir: item.id })}#delete-title`} className="link">
          {t('week.delete')}
          <span className="sr-only">: {item.title}</span>
        </Link>
      </span>
    </li>
  )
}
