import { useId } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import type { HabitDetailView } from '#app/features/habits/habit-views.server.ts'

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

const BAR = 20
const BAR_GAP = 8
const CHART_HEIGHT = 80
const CHART_TOP = 8
const CHART_LEFT = 34
const AXIS_LABELS = 14

/**
 * The twelve weeks' completion, oldest first, the current week last: a bar chart drawn on the
 * server (named and summed up in words), then the same figures as a list, its text alternative.
 */
export function WeeklyRates({ weeks }: { weeks: HabitDetailView['weeks'] }) {
  const { t } = useTranslation('habits')
  const titleId = useId()
  const descId = useId()
  const width = CHART_LEFT + weeks.length * (BAR + BAR_GAP)
  const height = CHART_TOP + CHART_HEIGHT + AXIS_LABELS
  const due = weeks.filter((week) => week.percent !== null)
  const average = due.length ? Math.round(due.reduce((sum, week) => sum + (week.percent ?? 0), 0) / due.length) : null
  const current = weeks.at(-1)
  return (
    <>
      <svg role="img" aria-labelledby={`${titleId} ${descId}`} viewBox={`0 0 ${width} ${height}`} className="mt-4 h-auto w-full max-w-xl" data-testid="weekly-chart">
        <title id={titleId}>{t('detail.weeksChartTitle', { count: weeks.length })}</title>
        <desc id={descId}>
          {average === null
            ? t('detail.weeksChartNothingDue')
            : t('detail.weeksChartSummary', { average, current: current?.percent === null || current === undefined ? '—' : `${current.percent}%` })}
        </desc>
        {[0, 50, 100].map((level) => {
          const y = CHART_TOP + CHART_HEIGHT - (level / 100) * CHART_HEIGHT
          return (
            <g key={level}>
              <line x1={CHART_LEFT - 4} x2={width} y1={y} y2={y} className="stroke-gray-200" />
              <text x={0} y={y + 3} className="fill-muted text-[10px]">{`${level}%`}</text>
            </g>
          )
        })}
        {weeks.map((week, index) => {
          const x = CHART_LEFT + index * (BAR + BAR_GAP)
          const barHeight = week.rate === null ? 0 : Math.max(week.rate * CHART_HEIGHT, week.rate > 0 ? 2 : 0)
          const isCurrent = index === weeks.length - 1
          return (
            <g key={week.start}>
              {week.rate === null ? (
                // Nothing was due that week: a dashed outline, not an empty bar.
                <rect x={x} y={CHART_TOP + CHART_HEIGHT - 4} width={BAR} height={4} className="fill-none stroke-gray-400" strokeDasharray="2 2" />
              ) : (
                <rect x={x} y={CHART_TOP + CHART_HEIGHT - barHeight} width={BAR} height={barHeight} rx={2} className={isCurrent ? 'fill-brand-800' : 'fill-brand-600'} />
              )}
              <text x={x + BAR / 2} y={height - 2} textAnchor="middle" className="fill-muted text-[9px]">
                {isCurrent ? t('detail.thisWeekShort') : week.start}
              </text>
            </g>
          )
        })}
      </svg>
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
    </>
  )
}
