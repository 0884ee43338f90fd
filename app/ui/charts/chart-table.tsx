/**
 * A chart's numbers as a table (decision 0062): one row per bar, a column per series, the total
 * in the foot. Row and column headers are real headers, so a screen reader says which period and
 * which series each number is. Wider than the screen (a phone), it scrolls sideways by itself, the
 * page does not.
 */
export type ChartTableProps = {
  caption: string
  /** The first column's header (day, week, month). */
  periodHeader: string
  columns: string[]
  rows: { key: string; label: string; cells: string[] }[]
  total: { label: string; cells: string[] }
}

export function ChartTable({ caption, periodHeader, columns, rows, total }: ChartTableProps) {
  return (
    // Focusable, so a keyboard can scroll a table wider than a phone's screen.
    <div role="region" aria-label={caption} tabIndex={0} className="mt-3 overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-brand-100 text-muted">
          <tr>
            <th scope="col" className="py-2 pr-4 font-semibold">
              {periodHeader}
            </th>
            {columns.map((column) => (
              <th key={column} scope="col" className="py-2 pl-4 text-right font-semibold">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-brand-100">
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row" className="py-1.5 pr-4 font-normal whitespace-nowrap">
                {row.label}
              </th>
              {row.cells.map((cell, index) => (
                <td key={index} className="py-1.5 pl-4 text-right whitespace-nowrap tabular-nums">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t-2 border-brand-100 font-semibold">
          <tr>
            <th scope="row" className="py-2 pr-4">
              {total.label}
            </th>
            {total.cells.map((cell, index) => (
              <td key={index} className="py-2 pl-4 text-right whitespace-nowrap tabular-nums">
                {cell}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  )
}
