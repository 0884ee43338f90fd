import { type FieldMetadata, getInputProps, getSelectProps } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { ErrorList } from './forms.tsx'

/**
 * Pieces of the catalogue editor's pages (decision 0065): an item's state in words (published,
 * draft, never published, off sale), the labelled select and text inputs with hints and errors,
 * and the "discard draft" form.
 */

const badge = 'inline-block rounded-full px-2.5 py-0.5 text-sm font-semibold'

/** "Publicado", "Rascunho", "Nunca publicado", "Fora de venda": words, not only colour. */
export function StateBadges({ published, draft, offSale = false }: { published: boolean; draft: boolean; offSale?: boolean }) {
  const { t } = useTranslation('admin')
  const { t: tCatalogue } = useTranslation('admin-catalogue')
  return (
    <span className="inline-flex flex-wrap gap-2">
      {published ? <span className={`${badge} bg-green-100 text-green-900`}>{t('content.published_state')}</span> : <span className={`${badge} bg-gray-100 text-gray-900`}>{t('content.unpublished')}</span>}
      {offSale ? <span className={`${badge} bg-gray-200 text-gray-900`}>{tCatalogue('products.offSale')}</span> : null}
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

export function SelectInput({ meta, label, hint, options }: { meta: FieldMetadata<string | undefined>; label: string; hint?: string; options: { value: string; label: string }[] }) {
  const hintId = hint ? `${meta.id}-hint` : undefined
  return (
    <div>
      <Label id={meta.id} label={label} hint={hint} hintId={hintId} />
      <select {...getSelectProps(meta)} aria-describedby={describedBy(meta, hintId)} className={control}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

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

export function CheckboxInput({ meta, label, hint }: { meta: FieldMetadata<string | undefined>; label: string; hint?: string }) {
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

type TypeFieldName = 'consultations' | 'professional_id' | 'weeks' | 'plan_interval' | 'trial_days' | 'price'

/**
 * A new product's type fields, grouped by the type they belong to: with JavaScript only the chosen
 * type's group shows; without it every group does, each named by its type (the others are ignored).
 */
export function TypeFields({
  type,
  fields,
  professionals,
}: {
  type: string | undefined
  fields: Record<TypeFieldName, FieldMetadata<string | undefined>>
  professionals: { id: number; name: string }[] | null
}) {
  const { t } = useTranslation('admin-catalogue')
  const { t: tAdmin } = useTranslation('admin')
  const group = 'space-y-4 rounded-xl border border-gray-300 p-4'
  const shown = (which: string) => type === undefined || type === '' || type === which
  return (
    <>
      <fieldset className={group} hidden={!shown('consultation_package')}>
        <legend className="px-1 font-semibold text-ink">{t('types.consultation_package')}</legend>
        <SelectInput meta={fields.consultations} label={t('fields.consultations')} options={[{ value: '', label: t('fields.choose') }, ...['1', '4', '8'].map((size) => ({ value: size, label: size }))]} />
        <SelectInput
          meta={fields.professional_id}
          label={t('fields.professional')}
          hint={professionals ? t('fields.professionalHint') : t('fields.professionalsUnavailable')}
          options={[{ value: '', label: t('fields.anyProfessional') }, ...(professionals ?? []).map((person) => ({ value: String(person.id), label: person.name }))]}
        />
      </fieldset>
      <fieldset className={group} hidden={!shown('subscription')}>
        <legend className="px-1 font-semibold text-ink">{t('types.subscription')}</legend>
        <SelectInput
          meta={fields.plan_interval}
          label={t('fields.interval')}
          options={[{ value: '', label: t('fields.choose') }, ...(['monthly', 'yearly', 'trial', 'program'] as const).map((interval) => ({ value: interval, label: t(`intervals.${interval}`) }))]}
        />
        <TextInput meta={fields.trial_days} label={t('fields.trialDays')} hint={t('fields.trialDaysHint')} numeric />
      </fieldset>
      <fieldset className={group} hidden={!shown('program') && !shown('subscription')}>
        <legend className="px-1 font-semibold text-ink">{t('fields.weeksLegend')}</legend>
        <TextInput meta={fields.weeks} label={t('fields.weeks')} hint={t('fields.weeksHint')} numeric />
      </fieldset>
      <p className="rounded-xl bg-amber-50 p-4 text-sm text-amber-900" hidden={!shown('course')}>
        {t('fields.courseHint')}
      </p>
      <TextInput meta={fields.price} label={tAdmin('products.newPrice')} hint={t('fields.priceHint')} money />
    </>
  )
}
