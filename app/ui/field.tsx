import { type InputHTMLAttributes, type LabelHTMLAttributes, useId, useState } from 'react'
import { ErrorList } from './forms.tsx'

// Apart from forms.tsx (the errors and the submit button): a page whose form has no such field, the
// conversation's or a lesson's, does not load them (a shared module's chunk carries all its exports).

type FieldProps = {
  labelProps: LabelHTMLAttributes<HTMLLabelElement> & { children: React.ReactNode }
  inputProps: InputHTMLAttributes<HTMLInputElement>
  errors?: string[] | null
  hint?: React.ReactNode
  className?: string
}

export function Field({ labelProps, inputProps, errors, hint, className }: FieldProps) {
  const fallbackId = useId()
  const id = inputProps.id ?? fallbackId
  const errorId = errors?.length ? `${id}-error` : undefined
  const hintId = hint ? `${id}-hint` : undefined
  return (
    <div className={className}>
      <label {...labelProps} htmlFor={id} className="block font-medium text-ink" />
      {hint ? (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <input
        {...inputProps}
        id={id}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        className="mt-1 block min-h-11 w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-base text-ink aria-[invalid]:border-red-700"
      />
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

/**
 * A key that changes with every submission result: given to password fields, it remounts them
 * empty after a failed submission (with JavaScript off the server already sends them back empty),
 * so what the user typed stays and the secrets do not.
 */
export function useSecretFieldKey(lastResult: unknown): string {
  const [state, setState] = useState({ result: lastResult, key: 0 })
  if (state.result !== lastResult) setState({ result: lastResult, key: state.key + 1 })
  return `secret-${state.key}`
}
