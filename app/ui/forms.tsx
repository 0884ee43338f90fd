import { useNavigation } from '@remix-run/react'
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
