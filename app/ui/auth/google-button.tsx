import { Form } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'

/** A plain POST form: the sign-in with Google starts on the server, so it works without JavaScript. */
export default function GoogleButton() {
  const { t } = useTranslation('auth')
  return (
    <div className="mt-6">
      <p className="relative my-4 text-center text-sm text-muted before:absolute before:left-0 before:top-1/2 before:h-px before:w-full before:bg-gray-200">
        <span className="relative bg-white px-3">{t('google.or')}</span>
      </p>
      <Form method="post" action="/auth/google" reloadDocument>
        <button type="submit" className="btn-secondary w-full">
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5">
            <path fill="#4285F4" d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.7Z" />
            <path fill="#34A853" d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24Z" />
            <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8l4-3.1Z" />
            <path fill="#EA4335" d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.8 3.6-4.9 6.7-4.9Z" />
          </svg>
          {t('google.submit')}
        </button>
      </Form>
    </div>
  )
}
