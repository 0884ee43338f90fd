/** Server-rendered SVG charts for the assessment (no client chart library, no inline styles). */

type ScoreBar = { slug: string; label: string; score: number }

/** Horizontal bars, 0-100; the SVG is a picture (role img) and a table beside it carries the numbers. */
export function ScoreBarChart({ bars, title }: { bars: ScoreBar[]; title: string }) {
  const rowHeight = 36
  const labelWidth = 190
  const barWidth = 300
  const height = bars.length * rowHeight + 8
  return (
    <svg viewBox={`0 0 ${labelWidth + barWidth + 50} ${height}`} role="img" aria-label={title} className="h-auto w-full max-w-2xl" data-testid="score-chart">
      {bars.map((bar, index) => {
        const y = index * rowHeight + 4
        const width = Math.max(0, Math.min(100, bar.score)) * (barWidth / 100)
        return (
          <g key={bar.slug}>
            <text x={0} y={y + 20} className="fill-ink text-[13px]">
              {bar.label}
            </text>
            <rect x={labelWidth} y={y + 6} width={barWidth} height={18} rx={4} className="fill-brand-50" />
            <rect x={labelWidth} y={y + 6} width={width} height={18} rx={4} className={bar.score < 60 ? 'fill-amber-600' : 'fill-brand-700'} />
            <text x={labelWidth + barWidth + 8} y={y + 20} className="fill-ink text-[13px] font-semibold">
              {bar.score}
            </text>
          </g>
        )
      })}
    </svg>
  )
}

type TrendPoint = { id: number; label: string; score: number }

/** One pillar's scores over time as a line (0-100 on the vertical axis). */
export function TrendLineChart({ points, title }: { points: TrendPoint[]; title: string }) {
  const width = 320
  const height = 140
  const pad = 24
  const x = (index: number) => (points.length < 2 ? width / 2 : pad + (index * (width - 2 * pad)) / (points.length - 1))
  const y = (score: number) => height - pad - (Math.max(0, Math.min(100, score)) * (height - 2 * pad)) / 100
  return (
    <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title} className="h-auto w-full max-w-sm">
      <line x1={pad} y1={y(0)} x2={width - pad} y2={y(0)} className="stroke-gray-300" />
      <line x1={pad} y1={y(100)} x2={width - pad} y2={y(100)} className="stroke-gray-200" />
      <text x={2} y={y(100) + 4} className="fill-muted text-[10px]">
        100
      </text>
      <text x={10} y={y(0) + 4} className="fill-muted text-[10px]">
        0
      </text>
      <polyline points={points.map((point, index) => `${x(index)},${y(point.score)}`).join(' ')} fill="none" strokeWidth={2} className="stroke-brand-700" />
      {points.map((point, index) => (
        <g key={point.id}>
          <circle cx={x(index)} cy={y(point.score)} r={4} className="fill-brand-700" />
          <text x={x(index)} y={y(point.score) - 8} textAnchor="middle" className="fill-ink text-[11px]">
            {point.score}
          </text>
        </g>
      ))}
    </svg>
  )
}
