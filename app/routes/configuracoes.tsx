import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { supportedLanguages } from '#app/i18n/config.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { formatDateTime, timeZoneOr } from '#app/domain/appointments.ts'
import { getEnv } from '#app/env.server.ts'
import { languageOf } from '#app/i18n/i18next.server.ts'
import { createCalendarFeed, getCalendarFeedStatus, revokeCalendarFeed } from '#app/provider/calendar-feed.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { translatePasswordProblems } from '#app/provider/password-problems.server.ts'
import { changePassword } from '#app/provider/users.server.ts'
import { failureInit, failureText } from '#app/utils/messages.server.ts'
import { type RootLoader } from '#app/root.tsx'
import { replyToFailure } from '#app/utils/provider-reply.server.ts'
import { changePasswordSchema } from '#app/forms/account-forms.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field, useSecretFieldKey } from '#app/ui/field.tsx'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { CheckboxField } from '#app/ui/special-fields.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['account', 'privacy', 'notifications'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request)
  const [t, language, feed] = await Promise.all([
    getFixedT(request, 'account'),
    languageOf(request),
    // The rest of the page works without it: a failure here only says it could not be checked.
    getCalendarFeedStatus(auth).catch((error: unknown) => {
      if (error instanceof ProviderError) return null
      throw error
    }),
  ])
  return data({
    meta: { title: `${t('settings.title')} · Innera`, description: t('settings.lead') },
    calendar: feed && { active: feed.active, createdAt: feed.created_at ? formatDateTime(feed.created_at, timeZoneOr(user.time_zone), language) : null },
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

/** The settings forms, told apart by `intent`: the password (the default), and the calendar link. */
export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request)
  const formData = await readFormData(request)
  const intent = formData.get('intent')
  if (intent === 'calendar-create' || intent === 'calendar-revoke') {
    try {
      if (intent === 'calendar-revoke') {
        await revokeCalendarFeed(auth)
        return redirectWithToast('/configuracoes', { type: 'success', message: { key: 'account:settings.calendar.revoked' } })
      }
      // Shown in this answer only (the provider keeps a hash): no redirect, the page shows it once.
      const token = await createCalendarFeed(auth)
      return data({ calendarUrl: `${getEnv().APP_PUBLIC_URL}/calendario/${token}.ics`, calendarError: null })
    } catch (error) {
      const t = await getFixedT(request, ['common', 'account'])
      return data({ calendarUrl: null, calendarError: failureText(t, error) }, failureInit(error))
    }
  }
  const submission = parseWithZod(formData, { schema: changePasswordSchema })
  const hideFields = ['old_password', 'new_password', 'confirm_password']
  if (submission.status !== 'success') return data({ result: submission.reply({ hideFields }) }, { status: 400 })
  try {
    const renewed = await changePassword(auth, submission.value.old_password, submission.value.new_password, { keepCalendarFeed: submission.value.keep_calendar_feed })
    // Every other session has ended; this one goes on with the new pair.
    if (renewed) auth.renewTokens(renewed)
  } catch (error) {
    const t = await getFixedT(request, ['common', 'account'])
    const { result, init } = replyToFailure(submission, error, t, {
      fields: {
        old_password: { field: 'old_password', messages: () => [t('account:settings.wrongPassword')] },
        new_password: { field: 'new_password', messages: (messages) => translatePasswordProblems(t, messages) },
      },
      hideFields,
    })
    return data({ result }, init)
  }
  return redirectWithToast('/configuracoes', { type: 'success', message: { key: 'account:settings.passwordChanged' } })
}

export default function SettingsPage() {
  const { t } = useTranslation('account')
  const { t: tc } = useTranslation()
  const root = useRouteLoaderData<RootLoader>('root')
  const actionData = useActionData<typeof action>()
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined
  const validation = useDeferredValidation('changePassword')
  const [form, fields] = useForm<FormInput<'changePassword'>, FormOutput<'changePassword'>>({
    id: 'password-form',
    lastResult,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const secretKey = useSecretFieldKey(lastResult)
  const { calendar } = useLoaderData<typeof loader>()
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('settings.title')}</h1>
      <p className="mt-2 text-muted">{t('settings.lead')}</p>
      <p className="mt-2">
        <Link to="/configuracoes/privacidade" className="link">
          {t('privacy:settingsLink')}
        </Link>
      </p>
      {root?.user && root.user.role !== 'admin' ? (
        <p className="mt-2">
          <Link to="/configuracoes/notificacoes" className="link">
            {t('notifications:settingsLink')}
          </Link>
        </p>
      ) : null}
      <div className="mt-8 grid gap-8 lg:grid-cols-2">
        <section aria-labelledby="password-title" className="rounded-2xl bg-white p-6 shadow-sm">
          <h2 id="password-title" className="text-xl font-semibold">
            {t('settings.passwordTitle')}
          </h2>
          <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-4 space-y-5">
            <FormError id={form.errorId} errors={form.errors} />
            <Field key={`${secretKey}-settings.oldPassword`} labelProps={{ children: t('settings.oldPassword') }} inputProps={{ ...getInputProps(fields.old_password, { type: 'password' }), autoComplete: 'current-password' }} errors={fields.old_password.errors} />
            <Field key={`${secretKey}-settings.newPassword`} labelProps={{ children: t('settings.newPassword') }} inputProps={{ ...getInputProps(fields.new_password, { type: 'password' }), autoComplete: 'new-password' }} errors={fields.new_password.errors} />
            <Field key={`${secretKey}-settings.confirmPassword`} labelProps={{ children: t('settings.confirmPassword') }} inputProps={{ ...getInputProps(fields.confirm_password, { type: 'password' }), autoComplete: 'new-password' }} errors={fields.confirm_password.errors} />
            {calendar?.active !== false ? (
              // Only where there may be a link to keep; unticked, the change revokes it (decision 0037).
              <div>
                <CheckboxField
                  labelProps={{ children: t('settings.keepCalendarFeed') }}
                  inputProps={{ ...getInputProps(fields.keep_calendar_feed, { type: 'checkbox' }), 'aria-describedby': 'keep-calendar-feed-hint' }}
                  errors={fields.keep_calendar_feed.errors}
                />
                <p id="keep-calendar-feed-hint" className="mt-1 pl-8 text-sm text-muted">
                  {t('settings.keepCalendarFeedHint')}
                </p>
              </div>
            ) : null}
            <SubmitButton className="btn-primary" pendingText={t('settings.saving')}>
              {t('settings.changePassword')}
            </SubmitButton>
          </Form>
        </section>
        <section aria-labelledby="language-title" className="rounded-2xl bg-white p-6 shadow-sm">
          <h2 id="language-title" className="text-xl font-semibold">
            {t('settings.languageTitle')}
          </h2>
          <form method="post" action="/resources/locale" className="mt-4 space-y-4">
            <input type="hidden" name="redirectTo" value="/configuracoes" />
            <fieldset>
              <legend className="font-medium">{tc('language.label')}</legend>
              <div className="mt-2 space-y-2">
                {supportedLanguages.map((lng) => (
                  <label key={lng} className="flex min-h-11 items-center gap-3">
                    <input type="radio" name="lng" value={lng} defaultChecked={root?.locale === lng} className="size-5 accent-brand-700" />
                    <span lang={lng}>{tc(`language.${lng}`)}</span>
                  </label>
                ))}
              </div>
            </fieldset>
            <button type="submit" className="btn-primary">
              {t('settings.saveLanguage')}
            </button>
          </form>
        </section>
        <CalendarSection created={actionData && 'calendarUrl' in actionData ? actionData : undefined} />
      </div>
    </main>
  )
}

/**
 * The private calendar link (issue 12): create (or replace) and revoke, as plain forms that work
 * without JavaScript. A new link's full URL is in the answer to its creation only, shown once.
 */
function CalendarSection({ created }: { created: { calendarUrl: string | null; calendarError: string | null } | undefined }) {
  const { t } = useTranslation('account')
  const { calendar } = useLoaderData<typeof loader>()
  const url = created?.calendarUrl ?? null
  const active = url !== null || calendar?.active === true
  return (
    <section aria-labelledby="calendar-title" className="rounded-2xl bg-white p-6 shadow-sm lg:col-span-2">
      <h2 id="calendar-title" className="text-xl font-semibold">
        {t('settings.calendar.title')}
      </h2>
      <p className="mt-2 text-muted">{t('settings.calendar.lead')}</p>
      {created?.calendarError ? (
        <p role="alert" className="mt-4 font-medium text-red-700">
          {created.calendarError}
        </p>
      ) : null}
      {url ? (
        <div className="mt-4 space-y-3">
          <label htmlFor="calendar-url" className="block font-medium">
            {t('settings.calendar.urlLabel')}
          </label>
          <input
            id="calendar-url"
            type="text"
            readOnly
            value={url}
            aria-describedby="calendar-url-hint"
            className="block min-h-11 w-full rounded-lg border border-gray-400 bg-gray-50 px-3 py-2 font-mono text-sm text-ink"
            onFocus={(event) => event.currentTarget.select()}
          />
          <p id="calendar-url-hint" className="font-medium">
            {t('settings.calendar.shownOnce')}
          </p>
          <h3 className="font-semibold">{t('settings.calendar.howToTitle')}</h3>
          <ul className="list-disc space-y-1 pl-6 text-muted">
            <li>{t('settings.calendar.howToApple')}</li>
            <li>{t('settings.calendar.howToGoogle')}</li>
            <li>{t('settings.calendar.howToOutlook')}</li>
          </ul>
        </div>
      ) : calendar === null ? (
        <p className="mt-4">{t('settings.calendar.unavailable')}</p>
      ) : calendar.active && calendar.createdAt ? (
        <p className="mt-4">{t('settings.calendar.activeSince', { date: calendar.createdAt })}</p>
      ) : !calendar.active ? (
        <p className="mt-4">{t('settings.calendar.none')}</p>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-3">
        <Form method="post">
          <input type="hidden" name="intent" value="calendar-create" />
          <SubmitButton className="btn-primary" pendingText={t('settings.calendar.working')} aria-describedby={active ? 'calendar-replace-hint' : undefined}>
            {active ? t('settings.calendar.replace') : t('settings.calendar.create')}
          </SubmitButton>
        </Form>
        {active ? (
          <Form method="post">
            <input type="hidden" name="intent" value="calendar-revoke" />
            <SubmitButton className="btn-secondary" pendingText={t('settings.calendar.working')} aria-describedby="calendar-revoke-hint">
              {t('settings.calendar.revoke')}
            </SubmitButton>
          </Form>
        ) : null}
      </div>
      {active ? (
        <div className="mt-3 space-y-1 text-sm text-muted">
          <p id="calendar-replace-hint">{t('settings.calendar.replaceHint')}</p>
          <p id="calendar-revoke-hint">{t('settings.calendar.revokeHint')}</p>
        </div>
      ) : null}
    </section>
  )
}
