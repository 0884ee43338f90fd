import { useNavigation } from '@remix-run/react'
import { type InputHTMLAttributes, type LabelHTMLAttributes, useId, useState } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'

/** Shows a message that may be a translation key (client and schema errors) or a finished text. */
function useErrorText() {
  const { t, i18n } = useTranslation()
  return (message: string) => (i18n.exists(message) ? t(message) : message)
}

export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const text = useErrorText()
  const shown = errors?.filter(Boolean) ?? []
  if (shown.length === 0) return null
  return (
    <ul id={id} className="mt-1 space-y-1 text-sm font-medium text-red-700">
      {shown.map((error) => (
        <li key={error}>{text(error)}</li>
      ))}
    </ul>
  )
}

/** The form-level message: announced when it appears. */
export function FormError({ id, errors }: { id?: string; errors?: string[] | null }) {
  const text = useErrorText()
  const shown = errors?.filter(Boolean) ?? []
  if (shown.length === 0) return null
  return (
    <div id={id} role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-800">
      {shown.map((error) => (
        <p key={error}>{text(error)}</p>
      ))}
    </div>
  )
}

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

/** A submit button that says it is working while its form is being sent (JavaScript on). */
export function SubmitButton({
  children,
  pendingText,
  className = 'btn-primary w-full',
  formAction,
  ...rest
}: React.ButtonHTMLAttributes<HTMLButtonElement> & { pendingText: string; formAction?: string }) {
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting' && (formAction === undefined || navigation.formAction === formAction)
  return (
    <button type="submit" {...rest} className={className} disabled={pending || rest.disabled} aria-disabled={pending || undefined}>
      {pending ? pendingText : children}
    </button>
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
