import { Form, useNavigation } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { PAYMENT_METHODS } from '#app/domain/payment-methods.ts'

/**
 * How to pay (PIX or card), and the button that does: a plain post, the payment started on the
 * server, the page's key sent along so a repeated click pays once. The cart's checkout and a
 * plan's subscription share it; `reply` is a refused or failed attempt (the method kept, why said).
 */
export function PaymentForm({
  intent,
  idempotencyKey,
  submitLabel,
  reply,
  children,
}: {
  intent: string
  idempotencyKey: string
  submitLabel: string
  reply?: { method: string; error: string }
  children?: React.ReactNode
}) {
  const { t } = useTranslation('shop')
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent
  const chosen = reply?.method ?? 'pix'
  const errorId = `${intent}-error`
  return (
    <Form method="post" className="mt-6" aria-describedby={reply ? errorId : undefined}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <fieldset>
        <legend className="font-semibold">{t('checkout.method')}</legend>
        {PAYMENT_METHODS.map((method) => (
          <label key={method} className="mt-2 flex min-h-11 items-start gap-3 rounded-lg border border-brand-100 p-3">
            <input type="radio" name="method" value={method} defaultChecked={method === chosen} className="mt-1 size-5" />
            <span>
              <span className="block font-medium">{t(`checkout.methods.${method}.label`)}</span>
              <span className="block text-sm text-muted">{t(`checkout.methods.${method}.hint`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {reply ? (
        <div id={errorId} role="alert" className="mt-3 text-red-800">
          <p>{reply.error}</p>
          {children}
        </div>
      ) : null}
      <button type="submit" className="btn-primary mt-4 w-full" disabled={busy}>
        {submitLabel}
      </button>
    </Form>
  )
}
