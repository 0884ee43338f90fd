import { type FieldMetadata, getInputProps, getSelectProps } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { ErrorList } from './forms.tsx'

/**
 * The content editor's shared pieces (decision 0064), for every kind's pages: an item's state in
 * words, the labelled select, text and checkbox inputs with their hints and errors, and the
 * "discard draft" form.
 */

const badge = 'inline-block rounded-full px-2.5 py-0.5 text-sm font-semibold'

/** "Publicado" or "Nunca publicado", "Fora de venda", "Rascunho": words, not only colour. */
export function StateBadges({ published, draft, offSale = false }: { published: boolean; draft: boolean; offSale?: boolean }) {
  const { t } = useTranslation('admin')
  return (
    <span className="inline-flex flex-wrap gap-2">
      {published ? <span className={`${badge} bg-green-100 text-green-900`}>{t('content.published_state')}</span> : <span className={`${badge} bg-gray-100 text-gray-900`}>{t('content.unpublished')}</span>}
      {offSale ? <span className={`${badge} bg-gray-200 text-gray-900`}>{t('content.offSale')}</span> : null}
      {draft ? <span className={`${badge} bg-amber-100 text-amber-900`}>{t('content.draft')}</span> : null}
    </span>
  )
}

const control = 'mt-1 block min-h-11 w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-base text-ink aria-[invalid]:border-red-700'

function Label({ id, label, hint, hintId }: { id: string; label: string; hint?: string; hintId?: string }) {
  return (
    <>
      <label htmlFor={id} className="block font-medium text-ink">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
    </>
  )
}

const describedBy = (meta: FieldMetadata<unknown>, hintId?: string) => [hintId, meta.errors?.length ? meta.errorId : undefined].filter(Boolean).join(' ') || undefined

export function SelectInput({
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
  return (
    <div>
      <Label id={meta.id} label={label} hint={hint} hintId={hintId} />
      <select {...getSelectProps(meta)} aria-describedby={describedBy(meta, hintId)} className={control}>
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

/** A text input; `numeric` and `money` bring the matching keyboard and a narrower box. */
export function TextInput({
  meta,
  label,
  hint,
  numeric = false,
  money = false,
}: {
  meta: FieldMetadata<string | number | undefined>
  label: string
  hint?: string
  numeric?: boolean
  money?: boolean
}) {
  const hintId = hint ? `${meta.id}-hint` : undefined
  return (
    <div>
      <Label id={meta.id} label={label} hint={hint} hintId={hintId} />
      <input
        {...getInputProps(meta, { type: 'text' })}
        inputMode={numeric ? 'numeric' : money ? 'decimal' : undefined}
        autoComplete="off"
        aria-describedby={describedBy(meta, hintId)}
        className={numeric || money ? `${control} max-w-48` : control}
      />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

export function CheckboxInput({ meta, label, hint }: { meta: FieldMetadata<string | boolean | undefined>; label: string; hint?: string }) {
  const hintId = hint ? `${meta.id}-hint` : undefined
  return (
    <div>
      <div className="flex min-h-11 items-center gap-3">
        <input {...getInputProps(meta, { type: 'checkbox', value: 'on' })} aria-describedby={describedBy(meta, hintId)} className="size-5 accent-brand-700" />
        <label htmlFor={meta.id} className="font-medium text-ink">
          {label}
        </label>
      </div>
      {hint ? (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

/** Discards the item's draft: its own form, so it never sends the editor's fields; `since` says when the draft was saved. */
export function DiscardDraftForm({ name, since }: { name: string; since?: string }) {
  const { t } = useTranslation('admin')
  return (
    <Form method="post" className={since ? 'mt-4 flex flex-wrap items-center gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4' : undefined}>
      {since ? <p className="text-amber-900">{since}</p> : null}
      <button type="submit" name="intent" value="discard" className="btn-secondary">
        {t('content.discardDraft')}
        <span className="sr-only"> ({name})</span>
      </button>
    </Form>
  )
}
