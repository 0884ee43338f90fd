import { BarChart, type BarChartProps, type BarTone, ChartLegend } from './bar-chart.tsx'
import { ChartTable, type ChartTableProps } from './chart-table.tsx'

/**
 * One metric of a dashboard (decision 0062): its name as a heading, its total, the chart and,
 * behind a native `<details>` (keyboard, screen readers and no JavaScript alike), the same numbers
 * as a table. The disclosure's text names its chart for those who hear it out of context.
 */
export function ChartFigure({
  id,
  title,
  total,
  chart,
  legend,
  table,
  showTable,
}: {
  id: string
  title: string
  total: string
  chart: Omit<BarChartProps, 'title'>
  legend?: { label: string; tone: BarTone }[]
  table: Omit<ChartTableProps, 'caption'>
  showTable: string
}) {
  return (
    <figure aria-labelledby={`${id}-heading`} className="min-w-0 rounded-2xl bg-white p-4 shadow-sm sm:p-6" data-testid={`chart-${id}`}>
      <h3 id={`${id}-heading`} className="text-lg font-semibold">
        {title}
      </h3>
      <p className="mt-1 text-2xl font-bold text-brand-800 tabular-nums">{total}</p>
      <div className="mt-4">
        <BarChart title={title} {...chart} />
      </div>
      {legend ? <ChartLegend items={legend} /> : null}
      <details className="group mt-3">
        <summary className="inline-flex min-h-11 list-none items-center gap-2 font-medium text-brand-800 hover:text-brand-600">
          <span aria-hidden="true" className="inline-block transition-transform group-open:rotate-90">
            ▸
          </span>
          <span className="underline underline-offset-4">
            {showTable}
            <span className="sr-only">: {title}</span>
          </span>
        </summary>
        <ChartTable caption={title} {...table} />
      </details>
    </figure>
  )
}
