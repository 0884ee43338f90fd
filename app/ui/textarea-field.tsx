import { type FieldMetadata, getTextareaProps } from '@conform-to/react'
import { ErrorList } from './forms.tsx'

/** A conform textarea with its label, a hint under the label and its errors (described by both). */
export function TextAreaField({ meta, label, hint, rows }: { meta: FieldMetadata<string | undefined>; label: string; hint: string; rows: number }) {
  const hintId = `${meta.id}-hint`
  return (
    <div>
      <label htmlFor={meta.id} className="block font-medium text-ink">
        {label}
      </label>
      <p id={hintId} className="text-sm text-muted">
        {hint}
      </p>
      <textarea
        {...getTextareaProps(meta)}
        rows={rows}
        aria-describedby={[hintId, meta.errors?.length ? meta.errorId : null].filter(Boolean).join(' ')}
        className="mt-1 block w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-base text-ink aria-[invalid]:border-red-700"
      />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}
