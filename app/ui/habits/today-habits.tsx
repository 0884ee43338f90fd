import { Link } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import type { TodayHabitsView } from '#app/features/habits/habit-views.server.ts'
import { DayForm, type TrackFailure } from './habit-card.tsx'

/**
 * The dashboard's habits of today (issue 14): one small form per habit, answered with one tap
 * (JavaScript) or a post that comes back to the dashboard (without). `habits` is null when they
 * could not be read: the rest of the dashboard still shows.
 */
export function TodayHabits({ habits, failure }: { habits: TodayHabitsView | null; failure: TrackFailure | null }) {
  const { t } = useTranslation('dashboard')
  return (
    <section id="habitos-hoje" aria-labelledby="habits-title" className="mt-8 scroll-mt-24 rounded-2xl bg-white p-6 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="habits-title" className="text-2xl font-semibold">
          {t('patient.habits.title')}
        </h2>
        {habits && habits.total > 0 ? (
          <Link to="/habitos" className="link">
            {t('patient.habits.all')}
          </Link>
        ) : null}
      </div>
      {habits === null ? (
        <p className="mt-2 text-muted">{t('patient.habits.unavailable')}</p>
      ) : habits.total === 0 ? (
        <>
          <p className="mt-2 text-muted">{t('patient.habits.empty')}</p>
          <Link to="/habitos/novo" className="btn-primary mt-4">
            {t('patient.habits.create')}
          </Link>
        </>
      ) : habits.items.length === 0 ? (
        <p className="mt-2 text-muted">{t('patient.habits.noneToday')}</p>
      ) : (
        <ul className="mt-2 divide-y divide-gray-200">
          {habits.items.map(({ habit, today }) => (
            <li key={habit.id} className="py-3">
              <DayForm habit={habit} day={today} failure={failure} action="/dashboard" compact />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
