import { type FieldMetadata } from '@conform-to/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { SelectInput, TextInput } from './content-editor-parts.tsx'

/**
 * A new product's type fields (decision 0065); the inputs are the content editor's
 * (content-editor-parts.tsx).
 */

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
