import { Form, Link, useLocation } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { pageInfo, withPage } from '#app/utils/pagination.ts'

/** A filter form's input or select. */
export const control = 'mt-1 block min-h-11 rounded-lg border border-gray-400 bg-white px-3'

/** A labelled search box of a GET filter form. */
export function SearchFilter({ label, defaultValue, name = 'search' }: { label: string; defaultValue: string; name?: string }) {
  return (
    <div className="min-w-56 flex-1">
      <label htmlFor={name} className="block font-medium">
        {label}
      </label>
      <input id={name} name={name} type="search" defaultValue={defaultValue} className={`${control} w-full`} />
    </div>
  )
}

/** A labelled select of a GET filter form; the empty option means "all". */
export function SelectFilter({ name, label, defaultValue, allLabel, options }: { name: string; label: string; defaultValue: string; allLabel: string; options: { value: string; label: string }[] }) {
  return (
    // Never wider than the form: a long option's label is cut in the closed select, not the page (decision 0080).
    <div className="min-w-0 max-w-full">
      <label htmlFor={name} className="block font-medium">
        {label}
      </label>
      <select id={name} name={name} defaultValue={defaultValue} className={`${control} max-w-full`}>
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  )
}

/**
 * A list's pillar filter (`?pilar=`): a GET form that works without JavaScript, "all" to clear.
 * The texts are the list's own (its `list.*` keys).
 */
export function PillarFilterForm({ clearTo, pilar, pillars, texts }: { clearTo: string; pilar: string; pillars: { value: string; label: string }[]; texts: { filters: string; pillar: string; allPillars: string; apply: string; clear: string } }) {
  return (
    <Form method="get" role="search" aria-label={texts.filters} className="mt-6 flex flex-wrap items-end gap-3">
      <SelectFilter key={pilar} name="pilar" label={texts.pillar} defaultValue={pilar} allLabel={texts.allPillars} options={pillars} />
      <button type="submit" className="btn-primary">
        {texts.apply}
      </button>
      {pilar ? (
        <Link to={clearTo} className="btn-secondary">
          {texts.clear}
        </Link>
      ) : null}
    </Form>
  )
}

/**
 * Previous / page N of M / next, keeping the list's other query parameters. `preventScrollReset`
 * for a list low on its page: with JavaScript the next page keeps the reader where they were.
 */
export function Pagination({ count, page, pageSize, preventScrollReset }: { count: number; page: number; pageSize: number; preventScrollReset?: boolean }) {
  const { t } = useTranslation()
  const location = useLocation()
  const info = pageInfo({ count, page, pageSize })
  if (info.pages <= 1) return null
  return (
    <nav aria-label={t('pagination.label')} className="mt-6 flex items-center justify-between gap-3">
      {info.previous ? (
        <Link className="btn-secondary" to={withPage(location.search, info.previous)} rel="prev" preventScrollReset={preventScrollReset}>
          {t('pagination.previous')}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-muted">{t('pagination.page', { current: info.current, pages: info.pages })}</span>
      {info.next ? (
        <Link className="btn-secondary" to={withPage(location.search, info.next)} rel="next" preventScrollReset={preventScrollReset}>
          {t('pagination.next')}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  )
}
