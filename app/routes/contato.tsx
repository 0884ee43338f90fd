import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useLocation } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { Trans, useTranslation } from '#app/i18n/react.tsx'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { sendContactMessage } from '#app/provider/contact.server.ts'
import { getAuth } from '#app/session/auth.server.ts'
import { MESSAGE_MAX_LENGTH, contactSubjects } from '#app/domain/contact-limits.ts'
import { replyToFailure } from '#app/utils/provider-reply.server.ts'
import { type ContactFormInput, contactFieldErrorKey, contactFields, contactSchema } from '#app/forms/contact-form.ts'
import { useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field } from '#app/ui/field.tsx'
import { ErrorList, FormError, SubmitButton } from '#app/ui/forms.tsx'
import { HoneypotField } from '#app/ui/special-fields.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['contact'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const [t, auth] = await Promise.all([getFixedT(request, 'contact'), getAuth(request)])
  const user = auth.user
  return data(
    {
      meta: { title: t('metaTitle'), description: t('metaDescription') },
      // Signed-in visitors find their name and e-mail already filled in.
      defaults: user ? { name: [user.first_name, user.last_name].filter(Boolean).join(' '), email: user.email } : { name: '', email: '' },
    },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readFormData(request)
  const submission = parseWithZod(formData, { schema: contactSchema })
  const t = await getFixedT(request, ['common', 'contact'])

  // A filled honeypot is a bot: refused with a message that tells it nothing, and never sent on.
  if (String(formData.get('website') ?? '') !== '') {
    return data({ result: submission.reply({ formErrors: [t('validation.spam')] }) }, { status: 400 })
  }
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })

  try {
    await sendContactMessage(submission.value)
  } catch (error) {
    // The provider speaks English: each of its field errors becomes one of our translated messages.
    const fields = Object.fromEntries(
      contactFields.map((field) => [field, { field, messages: (messages: string[]) => messages.map((message) => contactFieldErrorKey(field, message)) }]),
    )
    const { result, init } = replyToFailure(submission, error, t, { fields })
    return data({ result }, init)
  }
  return redirectWithToast('/contato', { type: 'success', message: { key: 'contact:sent' }, durationMs: 8_000 })
}

export default function ContactPage() {
  const { t } = useTranslation('contact')
  return (
    <main id="main">
      <PageHero title={t('title')} lead={t('lead')} />
      <div className="container-page grid gap-10 py-12 sm:py-16 lg:grid-cols-[1fr_2fr]">
        <section aria-labelledby="contact-intro-title" className="space-y-4 text-lg">
          <h2 id="contact-intro-title" className="text-2xl font-bold tracking-tight">
            {t('intro.title')}
          </h2>
          <p>{t('intro.reply')}</p>
          <p>{t('intro.subjects')}</p>
          <p className="rounded-2xl border-l-4 border-brand-700 bg-brand-50 p-4 text-base">{t('intro.emergency')}</p>
        </section>
        <section aria-labelledby="contact-form-title" className="rounded-2xl bg-white p-6 shadow-sm sm:p-8">
          <h2 id="contact-form-title" className="mb-6 text-2xl font-bold tracking-tight">
            {t('formTitle')}
          </h2>
          <ContactForm />
        </section>
      </div>
    </main>
  )
}

function ContactForm() {
  const { defaults } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()?.result
  const location = useLocation()
  // After a successful send the action redirects here: a new location with no result, so the
  // form remounts empty. A refused send keeps its result, and with it everything typed.
  return <ContactFormFields key={lastResult ? 'result' : location.key} defaults={defaults} lastResult={lastResult} />
}

type ContactResult = NonNullable<ReturnType<typeof useActionData<typeof action>>>['result']

function ContactFormFields({ defaults, lastResult }: { defaults: { name: string; email: string }; lastResult: ContactResult | undefined }) {
  const { t } = useTranslation('contact')
  const validation = useDeferredValidation('contact')
  const [form, fields] = useForm<ContactFormInput>({
    id: 'contact-form',
    lastResult,
    defaultValue: defaults,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="space-y-5">
      <FormError id={form.errorId} errors={form.errors} />
      <HoneypotField />
      <div className="grid gap-5 sm:grid-cols-2">
        <Field labelProps={{ children: t('fields.name') }} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'name' }} errors={fields.name.errors} />
        <Field
          labelProps={{ children: t('fields.email') }}
          inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }}
          errors={fields.email.errors}
        />
        <Field
          labelProps={{ children: t('fields.phone') }}
          hint={t('fields.phoneHint')}
          inputProps={{ ...getInputProps(fields.phone, { type: 'tel' }), autoComplete: 'tel' }}
          errors={fields.phone.errors}
        />
        <div>
          <label htmlFor={fields.subject.id} className="block font-medium text-ink">
            {t('fields.subject')}
          </label>
          <select
            {...getSelectProps(fields.subject)}
            aria-describedby={fields.subject.errors ? fields.subject.errorId : undefined}
            className="mt-1 block min-h-11 w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-base text-ink aria-[invalid]:border-red-700"
          >
            <option value="">{t('fields.subjectPlaceholder')}</option>
            {contactSubjects.map((subject) => (
              <option key={subject} value={subject}>
                {t(`subjects.${subject}`)}
              </option>
            ))}
          </select>
          <ErrorList id={fields.subject.errorId} errors={fields.subject.errors} />
        </div>
      </div>
      <MessageField
        textareaProps={getTextareaProps(fields.message)}
        errorId={fields.message.errorId}
        errors={fields.message.errors}
      />
      <p className="text-sm text-muted">
        <Trans t={t} i18nKey="consent" components={{ privacy: <Link className="link" to="/privacidade" /> }} />
      </p>
      <SubmitButton className="btn-primary w-full sm:w-auto" pendingText={t('pending')}>
        {t('submit')}
      </SubmitButton>
    </Form>
  )
}

/** The message box; with JavaScript on it also counts characters as the user types. */
function MessageField({
  textareaProps,
  errorId,
  errors,
}: {
  textareaProps: ReturnType<typeof getTextareaProps>
  errorId: string
  errors?: string[]
}) {
  const { t, i18n } = useTranslation('contact')
  const ref = useRef<HTMLTextAreaElement>(null)
  // null until hydrated: without JavaScript there is no counter to keep up to date.
  const [length, setLength] = useState<number | null>(null)
  useEffect(() => setLength(ref.current?.value.length ?? 0), [])
  const id = textareaProps.id!
  const describedBy = [`${id}-hint`, length !== null ? `${id}-counter` : null, errors?.length ? errorId : null].filter(Boolean).join(' ')
  const number = new Intl.NumberFormat(i18n.language)
  return (
    <div>
      <label htmlFor={id} className="block font-medium text-ink">
        {t('fields.message')}
      </label>
      <p id={`${id}-hint`} className="text-sm text-muted">
        {t('fields.messageHint')}
      </p>
      <textarea
        {...textareaProps}
        ref={ref}
        rows={7}
        onInput={(event) => setLength(event.currentTarget.value.length)}
        aria-describedby={describedBy}
        className="mt-1 block w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-base text-ink aria-[invalid]:border-red-700"
      />
      {length !== null ? (
        <p id={`${id}-counter`} className={`mt-1 text-right text-sm ${length > MESSAGE_MAX_LENGTH ? 'font-medium text-red-700' : 'text-muted'}`}>
          {t('counter', { current: number.format(length), max: number.format(MESSAGE_MAX_LENGTH) })}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}
