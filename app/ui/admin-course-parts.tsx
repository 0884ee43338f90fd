import { type FieldMetadata, getInputProps, getSelectProps } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { ErrorList } from './forms.tsx'

/**
 * Pieces of the course and lesson editor pages (decisions 0064 and 0066): an item's state said in
 * words (published, draft, never published), a select and a checkbox with their labels, hints and
 * errors, and the "discard draft" form.
 */

export type ContentState = { published: boolean; draft: boolean }

/** "Publicado" and/or "Rascunho" ("Nunca publicado" for a new item): words, not only colour. */
export function StateBadges({ published, draft }: ContentState) {
  const { t } = useTranslation('admin')
  const badge = 'inline-block rounded-full px-2.5 py-0.5 text-sm font-semibold'
  return (
    <span className="inline-flex flex-wrap gap-2">
      {published ? <span className={`${badge} bg-green-100 text-green-900`}>{t('content.published_state')}</span> : <span className={`${badge} bg-gray-100 text-gray-900`}>{t('content.unpublished')}</span>}
      {draft ? <span className={`${badge} bg-amber-100 text-amber-900`}>{t('content.draft')}</span> : null}
    </span>
  )
}

const control = 'mt-1 block min-h-11 w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-base text-ink aria-[invalid]:border-red-700'

export function SelectField({
  meta,
  label,
  hint,
  options,
}: {
  meta: FieldMetadata<string | number | undefined>
  label: string
  hint?: string
  options: { value: string; label: string; disabled?: boolean }[]
}) {
  const hintId = hint ? `${meta.id}-hint` : undefined
  const describedBy = [hintId, meta.errors?.length ? meta.errorId : undefined].filter(Boolean).join(' ') || undefined
  return (
    <div>
      <label htmlFor={meta.id} className="block font-medium text-ink">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <select {...getSelectProps(meta)} aria-describedby={describedBy} className={control}>
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

export function CheckboxField({ meta, label, hint }: { meta: FieldMetadata<boolean | undefined>; label: string; hint?: string }) {
  const hintId = hint ? `${meta.id}-hint` : undefined
  return (
    <div>
      <div className="flex items-center gap-3">
        <input {...getInputProps(meta, { type: 'checkbox' })} aria-describedby={hintId} className="size-5 rounded border-gray-400" />
        <label htmlFor={meta.id} className="font-medium text-ink">
          {label}
        </label>
      </div>
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

export function NumberField({ meta, label, hint }: { meta: FieldMetadata<number | undefined>; label: string; hint?: string }) {
  const hintId = hint ? `${meta.id}-hint` : undefined
  const describedBy = [hintId, meta.errors?.length ? meta.errorId : undefined].filter(Boolean).join(' ') || undefined
  return (
    <div>
      <label htmlFor={meta.id} className="block font-medium text-ink">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <input {...getInputProps(meta, { type: 'text' })} inputMode="numeric" autoComplete="off" aria-describedby={describedBy} className={`${control} max-w-40`} />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

/** Discards the item's draft: its own form, so it never sends the editor's fields. */
export function DiscardDraftForm({ name, since }: { name: string; since: string }) {
  const { t } = useTranslation('admin')
  return (
    <Form method="post" className="mt-4 flex flex-wrap items-center gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4">
      <p className="text-amber-900">{since}</p>
      <button type="submit" name="intent" value="discard" className="btn-secondary">
        {t('content.discardDraft')}
        <span className="sr-only"> ({name})</span>
      </button>
    </Form>
  )
}
