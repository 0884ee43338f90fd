import { useId } from 'react'

/**
 * A bar chart drawn on the server as inline SVG (no chart library reaches the browser; decision
 * 0062). The SVG holds only shapes and stretches to the width it is given; the axis' texts are
 * HTML beside it, so they keep their size at 360 px as on a desktop. A picture (`role="img"`)
 * named by its `<title>` and described by its `<desc>`; the numbers themselves are in the table
 * that follows it (chart-table.tsx).
 */

/** How a series is painted (the design's palette, tailwind.css): dark brand green, or pale green outlined in the darkest. */
export type BarTone = 'solid' | 'light'

export type BarChartProps = {
  title: string
  description: string
  /** One per bar: each series' height (0-100 of the axis), stacked bottom-up. */
  bars: { key: string; heights: number[] }[]
  tones: BarTone[]
  /** The axis' texts: its top, its middle and 0. */
  ticks: { top: string; middle: string; zero: string }
  /** The first and last bars' labels, under the chart. */
  first: string
  last: string
}

// Each bar gets a slot of 10 units, 7 of them drawn; the height is 100 units.
const SLOT = 10
const BAR = 7
const HEIGHT = 100

const toneClass: Record<BarTone, string> = {
  solid: 'fill-brand-700',
  light: 'fill-brand-100 stroke-brand-800',
}

export function BarChart({ title, description, bars, tones, ticks, first, last }: BarChartProps) {
  const id = useId()
  const width = Math.max(1, bars.length) * SLOT
  return (
    <div className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-1">
      <div aria-hidden="true" className="flex h-40 shrink-0 flex-col justify-between text-right text-xs leading-none text-muted tabular-nums">
        <span>{ticks.top}</span>
        <span>{ticks.middle}</span>
        <span>{ticks.zero}</span>
      </div>
      <svg
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="h-40 w-full overflow-visible"
        data-testid="bar-chart"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {[0, HEIGHT / 2, HEIGHT].map((y) => (
          <line key={y} x1={0} x2={width} y1={y} y2={y} vectorEffect="non-scaling-stroke" className={y === HEIGHT ? 'stroke-muted' : 'stroke-brand-100'} />
        ))}
        {bars.map((bar, index) => {
          let base = HEIGHT
          return (
            <g key={bar.key}>
              {bar.heights.map((height, series) => {
                if (height <= 0) return null
                base -= height
                return (
                  <rect
                    key={series}
                    x={index * SLOT + (SLOT - BAR) / 2}
                    y={base}
                    width={BAR}
                    height={height}
                    vectorEffect="non-scaling-stroke"
                    className={toneClass[tones[series] ?? 'solid']}
                  />
                )
              })}
            </g>
          )
        })}
      </svg>
      <div aria-hidden="true" className="col-start-2 flex justify-between gap-2 text-xs text-muted">
        <span>{first}</span>
        {bars.length > 1 ? <span>{last}</span> : null}
      </div>
    </div>
  )
}

/** What each colour of a stacked chart is: a swatch drawn as the bars are, and its name. */
export function ChartLegend({ items }: { items: { label: string; tone: BarTone }[] }) {
  return (
    <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {items.map((item) => (
        <li key={item.label} className="flex items-center gap-2">
          <svg aria-hidden="true" viewBox="0 0 12 12" className="h-3 w-3">
            <rect x={0.5} y={0.5} width={11} height={11} className={toneClass[item.tone]} />
          </svg>
          {item.label}
        </li>
      ))}
    </ul>
  )
}
