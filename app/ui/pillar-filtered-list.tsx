import { type ReactNode } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import { PillarFilterForm } from './list-controls.tsx'

type ListSection<Item> = { key: string; title: string; items: readonly Item[] }

/**
 * A member's list filtered by health pillar (the courses, the live classes): the title and lead,
 * the pillar's GET form (no JavaScript needed), how many there are, then the items in sections (a
 * pillar, a day) or the list's empty text. Every text is the list's namespace's `list.*` key; the
 * sections' ids and test ids are `{idPrefix}-{key}` and `{testIdPrefix}-{key}`.
 */
export function PillarFilteredList<Item extends { id: string | number }>({
  namespace,
  clearTo,
  pilar,
  pillars,
  count,
  sections,
  idPrefix,
  testIdPrefix,
  titleClassName = '',
  renderItem,
  children,
}: {
  namespace: string
  clearTo: string
  pilar: string
  pillars: { value: string; label: string }[]
  count: number
  sections: readonly ListSection<Item>[]
  idPrefix: string
  testIdPrefix: string
  titleClassName?: string
  renderItem: (item: Item) => ReactNode
  /** After the sections (a list's pagination). */
  children?: ReactNode
}) {
  const { t } = useTranslation(namespace)
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('list.title')}</h1>
      <p className="mt-2 max-w-2xl text-lg text-muted">{t('list.lead')}</p>
      <PillarFilterForm
        clearTo={clearTo}
        pilar={pilar}
        pillars={pillars}
        texts={{ filters: t('list.filters'), pillar: t('list.pillar'), allPillars: t('list.allPillars'), apply: t('list.apply'), clear: t('list.clear') }}
      />
      <p className="mt-6 text-muted" role="status">
        {t('list.count', { count })}
      </p>
      {sections.length === 0 ? (
        <p className="mt-4 rounded-2xl bg-white p-6">{t('list.empty')}</p>
      ) : (
        sections.map((section) => (
          <section key={section.key} aria-labelledby={`${idPrefix}-${section.key}`} className="mt-8">
            <h2 id={`${idPrefix}-${section.key}`} className={`text-2xl font-semibold ${titleClassName}`.trim()}>
              {section.title}
            </h2>
            <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid={`${testIdPrefix}-${section.key}`}>
              {section.items.map((item) => (
                <li key={item.id}>{renderItem(item)}</li>
              ))}
            </ul>
          </section>
        ))
      )}
      {children}
    </main>
  )
}
