import { Form, Link } from '@remix-run/react'
import { type ReactNode } from 'react'
import { CONFIRM_FIELD, CONFIRM_VALUE, STEP_PARAM } from '#app/utils/confirm-step.ts'
import { SubmitButton } from './forms.tsx'

/** Another way to go on from the step, beside its main button (a subscription's cancel at the period's end). */
type Alternative = { fields: Record<string, string>; label: string; pendingText: string }

/** One of the step's buttons: a plain form posting the intent, its fields and the confirmation. */
function StepForm({ intent, fields, label, pendingText, className }: { intent: string; fields: Record<string, string>; label: string; pendingText: string; className: string }) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name={CONFIRM_FIELD} value={CONFIRM_VALUE} />
      <SubmitButton className={className} pendingText={pendingText}>
        {label}
      </SubmitButton>
    </Form>
  )
}

/**
 * A confirmation step (decision 0079): what is about to happen, in full, then one button that
 * does it (and any alternatives beside it) and a link that keeps everything as it is. Plain forms:
 * the same without JavaScript. The heading takes the focus target's id, so the step's URL
 * (`#confirmar`) lands on it.
 */
export function ConfirmStep({
  title,
  children,
  intent,
  fields = {},
  confirmLabel,
  pendingText,
  keepLabel,
  keepTo,
  alternatives = [],
  className = '',
}: {
  title: string
  children: ReactNode
  intent: string
  fields?: Record<string, string>
  confirmLabel: string
  pendingText: string
  keepLabel: string
  keepTo: string
  alternatives?: Alternative[]
  className?: string
}) {
  return (
    <section aria-labelledby={STEP_PARAM} className={`rounded-2xl border-2 border-amber-400 bg-amber-50 p-6 ${className}`} data-testid="confirm-step">
      <h3 id={STEP_PARAM} tabIndex={-1} className="text-lg font-semibold">
        {title}
      </h3>
      <div className="mt-2 space-y-1">{children}</div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <StepForm intent={intent} fields={fields} label={confirmLabel} pendingText={pendingText} className="btn-primary" />
        {alternatives.map((alternative) => (
          <StepForm key={alternative.label} intent={intent} fields={alternative.fields} label={alternative.label} pendingText={alternative.pendingText} className="btn-secondary" />
        ))}
        <Link to={keepTo} className="link" preventScrollReset>
          {keepLabel}
        </Link>
      </div>
    </section>
  )
}
