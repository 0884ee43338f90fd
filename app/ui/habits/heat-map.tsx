import { useId } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import type { HabitDetailView } from '#app/utils/habit-views.server.ts'

const CELL = 12
const GAP = 3
const STEP = CELL + GAP
const LEFT = 30
const TOP = 16
// Colour steps from nothing recorded to done; every cell also names its date and state.
const LEVEL_FILL = ['fill-gray-200', 'fill-brand-100', 'fill-[#7fcfb0]', 'fill-brand-600', 'fill-brand-800'] as const

type HeatMap = HabitDetailView['heatMap']

/**
 * Six months of a habit, drawn on the server: weeks as columns (Monday on top), a day's level as
 * its colour. The picture has a name and a summary in words, and each cell a title.
 */
export function HabitHeatMap({ heatMap, weekdayLabels }: { heatMap: HeatMap; weekdayLabels: string[] }) {
  const { t } = useTranslation('habits')
  const titleId = useId()
  const descId = useId()
  const width = LEFT + heatMap.columns * STEP
  const height = TOP + 7 * STEP
  return (
    <figure className="mt-4">
      <svg role="img" aria-labelledby={`${titleId} ${descId}`} viewBox={`0 0 ${width} ${height}`} className="h-auto w-full max-w-3xl" data-testid="heat-map">
        <title id={titleId}>{t('detail.heatMapTitle', { from: heatMap.from, to: heatMap.to })}</title>
        <desc id={descId}>{t('detail.heatMapSummary', heatMap.tally)}</desc>
        {heatMap.months.map((month) => (
          <text key={`${month.column}-${month.label}`} x={LEFT + month.column * STEP} y={10} className="fill-muted text-[10px]">
            {month.label}
          </text>
        ))}
        {[0, 2, 4].map((row) => (
          <text key={row} x={0} y={TOP + row * STEP + CELL - 2} className="fill-muted text-[10px]">
            {weekdayLabels[row]}
          </text>
        ))}
        {heatMap.cells.map((cell) => (
          <rect
            key={cell.date}
            x={LEFT + cell.column * STEP}
            y={TOP + cell.row * STEP}
            width={CELL}
            height={CELL}
            rx={2}
            className={`${LEVEL_FILL[cell.level] ?? LEVEL_FILL[0]} ${cell.status === 'skipped' ? 'stroke-gray-500' : ''}`}
            strokeDasharray={cell.status === 'skipped' ? '2 2' : undefined}
            data-level={cell.level}
            data-date={cell.date}
          >
            <title>{`${cell.label}: ${t(`heat.${cell.status}`)}`}</title>
          </rect>
        ))}
      </svg>
      <figcaption className="mt-2 flex flex-wrap items-center gap-2 text-sm text-muted">
        <span>{t('detail.legendLess')}</span>
        <svg aria-hidden="true" viewBox={`0 0 ${5 * STEP} ${CELL}`} width={5 * STEP} height={CELL}>
          {LEVEL_FILL.map((fill, level) => (
            <rect key={fill} x={level * STEP} y={0} width={CELL} height={CELL} rx={2} className={fill} />
          ))}
        </svg>
        <span>{t('detail.legendMore')}</span>
        <span className="sr-only">{t('detail.legendText')}</span>
      </figcaption>
    </figure>
  )
}

/** The twelve weeks' completion, oldest first, the current week last: a list with bars. */
export function WeeklyRates({ weeks }: { weeks: HabitDetailView['weeks'] }) {
  const { t } = useTranslation('habits')
  return (
    <ol className="mt-4 space-y-2" data-testid="weekly-rates">
      {weeks.map((week, index) => (
        <li key={week.start} className="grid grid-cols-[1fr_auto] items-center gap-x-3 text-sm sm:grid-cols-[10rem_1fr_9rem]">
          <span className="font-medium">{index === weeks.length - 1 ? t('detail.thisWeek') : t('detail.weekOf', { date: week.start })}</span>
          <meter min={0} max={1} value={week.rate ?? 0} aria-hidden="true" className="order-last col-span-2 h-3 w-full sm:order-none sm:col-span-1" />
          <span className="text-right text-muted sm:text-left">
            {week.percent === null ? t('detail.nothingDue') : t('detail.weekRate', { done: week.done, due: week.due, percent: week.percent })}
          </span>
        </li>
      ))}
    </ol>
  )
}
