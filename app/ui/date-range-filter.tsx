import { EARLIEST_DATE, LATEST_DATE } from '#app/domain/date-range.ts'
import { control } from './list-controls.tsx'

// A module of its own, not in list-controls.tsx: the public lists (the catalogue) import those
// controls, and a shared module's chunk carries all its exports to every page that imports it.

/**
 * A GET filter form's two dates (`?from=&to=`, YYYY-MM-DD, the years the provider takes), labelled
 * in the list's own words (its i18n keys), both described by the hint under the form (the zone).
 */
export function DateRangeFilter({ from, to, labels, describedBy }: { from: string; to: string; labels: { from: string; to: string }; describedBy: string }) {
  return (
    <>
      {(['from', 'to'] as const).map((name) => (
        <div key={name}>
          <label htmlFor={name} className="block font-medium">
            {labels[name]}
          </label>
          <input id={name} name={name} type="date" min={EARLIEST_DATE} max={LATEST_DATE} defaultValue={name === 'from' ? from : to} aria-describedby={describedBy} className={control} />
        </div>
      ))}
    </>
  )
}
