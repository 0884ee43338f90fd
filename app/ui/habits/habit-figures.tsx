import { useTranslation } from '#app/i18n/react.tsx'
import { type TFunction } from '#app/i18n/translator.ts'

type Streak = { length: number; unit: 'day' | 'week' }

/** "Todos os dias", "Nos dias: seg., qua.", "3 vezes por semana". */
export function frequencyText(t: TFunction, frequency: { kind: string; days: string; times: number }) {
  if (frequency.kind === 'weekdays') return t('frequency.weekdaysList', { days: frequency.days })
  if (frequency.kind === 'weekly') return t('frequency.weeklyCount', { count: frequency.times })
  return t('frequency.daily')
}

function streakText(t: TFunction, streak: Streak) {
  if (streak.length === 0) return t('figures.noStreak')
  return t(streak.unit === 'week' ? 'figures.weeks' : 'figures.days', { count: streak.length })
}

/** The current streak and the strength, as words and a meter. */
export function HabitFigures({ streak, strength, best, className = '' }: { streak: Streak; strength: number; best?: Streak; className?: string }) {
  const { t } = useTranslation('habits')
  return (
    <dl className={`grid grid-cols-2 gap-3 ${best ? 'sm:max-w-xl sm:grid-cols-3' : 'sm:max-w-md'} ${className}`}>
      <div className="rounded-xl bg-brand-50 p-3">
        <dt className="text-sm text-muted">{t('figures.currentStreak')}</dt>
        <dd className="text-lg font-semibold">{streakText(t, streak)}</dd>
      </div>
      {best ? (
        <div className="rounded-xl bg-brand-50 p-3">
          <dt className="text-sm text-muted">{t('figures.bestStreak')}</dt>
          <dd className="text-lg font-semibold">{streakText(t, best)}</dd>
        </div>
      ) : null}
      <div className="rounded-xl bg-brand-50 p-3">
        <dt className="text-sm text-muted">{t('figures.strength')}</dt>
        <dd className="text-lg font-semibold">
          {t('figures.strengthValue', { value: strength })}
          <meter min={0} max={100} value={strength} aria-hidden="true" className="mt-1 block h-2 w-full" />
        </dd>
      </div>
    </dl>
  )
}
