import { type FieldMetadata, getInputProps, getTextareaProps } from '@conform-to/react'
import { CONTENT_LANGUAGES, type LocalizedDraft } from '#app/forms/localized-text.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { ErrorList } from './forms.tsx'

/** Each input's language, for screen readers' pronunciation and the browser's spell checker. */
const LANG_ATTRIBUTE = { pt: 'pt-BR', en: 'en', es: 'es' } as const

/**
 * One text of a content item in the three languages (decision 0064): a fieldset named by the text,
 * an input (or a textarea) per language labelled with the language's name and marked with its
 * `lang`, each with its own errors ("missing" when publishing without it).
 */
export function LocalizedFields({
  meta,
  label,
  hint,
  multiline = false,
  rows = 4,
}: {
  meta: FieldMetadata<Partial<LocalizedDraft> | undefined>
  label: string
  hint?: string
  multiline?: boolean
  rows?: number
}) {
  const { t } = useTranslation('admin')
  const languages = meta.getFieldset()
  const hintId = hint ? `${meta.id}-hint` : undefined
  return (
    <fieldset className="space-y-3 rounded-xl border border-gray-300 p-4" aria-describedby={hintId}>
      <legend className="px-1 font-semibold text-ink">{label}</legend>
      {hint ? (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      {CONTENT_LANGUAGES.map((language) => {
        const field = languages[language]
        const describedBy = field.errors?.length ? field.errorId : undefined
        const className = 'mt-1 block w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-base text-ink aria-[invalid]:border-red-700'
        return (
          <div key={language}>
            <label htmlFor={field.id} className="block text-sm font-medium text-ink">
              {t(`content.languages.${language}`)}
              <span className="sr-only"> ({label})</span>
            </label>
            {multiline ? (
              <textarea {...getTextareaProps(field)} lang={LANG_ATTRIBUTE[language]} rows={rows} aria-describedby={describedBy} className={className} />
            ) : (
              <input {...getInputProps(field, { type: 'text' })} lang={LANG_ATTRIBUTE[language]} aria-describedby={describedBy} className={`min-h-11 ${className}`} />
            )}
            <ErrorList id={field.errorId} errors={field.errors} />
          </div>
        )
      })}
    </fieldset>
  )
}

/** The two ways to send a content form: keep it as a draft, or publish it (the languages checked first). */
export function ContentSubmitButtons({ name }: { name: string }) {
  const { t } = useTranslation('admin')
  return (
    <div className="flex flex-wrap gap-3">
      <button type="submit" name="intent" value="save" className="btn-secondary">
        {t('content.saveDraft')}
        <span className="sr-only"> ({name})</span>
      </button>
      <button type="submit" name="intent" value="publish" className="btn-primary">
        {t('content.publish')}
        <span className="sr-only"> ({name})</span>
      </button>
    </div>
  )
}
