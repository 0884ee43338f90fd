import { type InputHTMLAttributes, type LabelHTMLAttributes, useId } from 'react'
import { ErrorList } from './forms.tsx'

// Fields few forms need, apart from forms.tsx so that a page without them does not load them.
export function CheckboxField({
  labelProps,
  inputProps,
  errors,
}: {
  labelProps: LabelHTMLAttributes<HTMLLabelElement> & { children: React.ReactNode }
  inputProps: InputHTMLAttributes<HTMLInputElement>
  errors?: string[] | null
}) {
  const fallbackId = useId()
  const id = inputProps.id ?? fallbackId
  const errorId = errors?.length ? `${id}-error` : undefined
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          {...inputProps}
          type="checkbox"
          id={id}
          aria-invalid={errorId ? true : undefined}
          aria-describedby={[inputProps['aria-describedby'], errorId].filter(Boolean).join(' ') || undefined}
          className="mt-1 size-5 shrink-0 accent-brand-700"
        />
        <label {...labelProps} htmlFor={id} className="text-ink" />
      </div>
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

/** A field bots fill in and people never see (nor reach with the keyboard or a screen reader). */
export function HoneypotField({ name = 'website' }: { name?: string }) {
  return (
    <div className="absolute -left-[10000px] h-px w-px overflow-hidden" aria-hidden="true">
      <label htmlFor={`hp-${name}`}>Leave this field empty</label>
      <input id={`hp-${name}`} name={name} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  )
}
