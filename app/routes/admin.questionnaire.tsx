import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { replyToFailure } from '#app/utils/provider-reply.server.ts'
import { newQuestionnaireVersionSchema } from '#app/forms/questionnaire-version.ts'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { formatDateAndTime } from '#app/domain/viewer-times.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { listQuestionnaireVersions, startQuestionnaireDraft } from '#app/provider/admin-questionnaire.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field } from '#app/ui/field.tsx'
import { FormError } from '#app/ui/forms.tsx'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin-questionnaire', 'admin'] }

/** In the admin's time zone (decision 0077; the console names it). */
const when = (iso: string, language: Language, timeZone: string) => formatDateAndTime(iso, timeZone, language, { dateStyle: 'medium' })

/** The question bank's versions (decision 0068): the published ones, the new ones in draft, and "Nova versão". */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const timeZone = timeZoneOr(user.time_zone)
  const [t, language, list] = await Promise.all([getFixedT(request, 'admin-questionnaire'), languageOf(request), listQuestionnaireVersions(auth).catch(errorResponseFor)])
  return data({
    meta: { title: `${t('list.title')} · Innera`, description: t('list.lead') },
    current: list.items.find((item) => item.current)?.version ?? null,
    versions: list.items.map((item) => ({
      version: item.version,
      current: item.current,
      title: item.title[language],
      publishedOn: when(item.published_at, language, timeZone),
      questions: item.question_count,
      results: item.result_count,
    })),
    drafts: list.new_drafts.map((draft) => ({ version: draft.version, title: draft.title[language] || draft.title.pt, questions: draft.question_count, savedOn: when(draft.updated_at, language, timeZone) })),
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  const submission = parseWithZod(await readFormData(request), { schema: newQuestionnaireVersionSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { version } = submission.value
  try {
    await startQuestionnaireDraft(auth, version)
  } catch (error) {
    const t = await getFixedT(request, ['admin-questionnaire', 'admin', 'common'])
    const { result, init } = replyToFailure(submission, error, t, { fields: { version: 'version' } })
    return data({ result }, init)
  }
  return redirectWithToast(`/admin/questionnaire/${version}`, { type: 'success', message: { key: 'admin-questionnaire:new.started', values: { version } } })
}

export default function AdminQuestionnaireVersions() {
  const { versions, drafts, current } = useLoaderData<typeof loader>()
  const { t } = useTranslation('admin-questionnaire')
  const { t: tAdmin } = useTranslation('admin')
  return (
    <main id="main">
      <h1 className="text-3xl font-bold">{t('list.title')}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('list.lead')}</p>

      {current ? <NewVersionForm current={current} /> : null}

      {drafts.length > 0 ? (
        <section aria-labelledby="drafts-title" className="mt-8">
          <h2 id="drafts-title" className="text-xl font-semibold">
            {t('list.drafts')}
          </h2>
          <ul className="mt-3 space-y-3">
            {drafts.map((draft) => (
              <li key={draft.version} className="rounded-2xl bg-white p-4 shadow-sm sm:p-6">
                <p className="flex flex-wrap items-center gap-2">
                  <Link className="link text-lg font-semibold" to={`/admin/questionnaire/${draft.version}`} aria-label={t('list.edit', { version: draft.version })}>
                    {draft.version}
                  </Link>
                  <span className="rounded-full border border-amber-700 px-2 py-0.5 text-sm font-medium text-amber-900">{tAdmin('content.draft')}</span>
                </p>
                <p className="mt-1">{draft.title}</p>
                <p className="text-sm text-muted">
                  {t('list.questions', { count: draft.questions })} · {t('list.savedOn', { date: draft.savedOn })}
                </p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="versions-title" className="mt-8">
        <h2 id="versions-title" className="text-xl font-semibold">
          {tAdmin('content.published_state')}
        </h2>
        {versions.length > 0 ? (
          <ul className="mt-3 space-y-3" data-testid="questionnaire-versions">
            {versions.map((item) => (
              <li key={item.version} className="rounded-2xl bg-white p-4 shadow-sm sm:p-6">
                <p className="flex flex-wrap items-center gap-2">
                  <Link className="link text-lg font-semibold" to={`/admin/questionnaire/${item.version}`} aria-label={t('list.view', { version: item.version })}>
                    {item.version}
                  </Link>
                  <span className="rounded-full border border-gray-500 px-2 py-0.5 text-sm font-medium text-ink">{tAdmin('content.published_state')}</span>
                  {item.current ? <span className="rounded-full bg-brand-700 px-2 py-0.5 text-sm font-semibold text-white">{t('list.current')}</span> : null}
                </p>
                <p className="mt-1">{item.title}</p>
                <p className="text-sm text-muted">
                  {t('list.publishedOn', { date: item.publishedOn })} · {t('list.questions', { count: item.questions })} · {t('list.results', { count: item.results })}
                </p>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 rounded-2xl bg-white p-6 text-muted">{t('list.empty')}</p>
        )}
      </section>
    </main>
  )
}

/** "Nova versão": the version string the draft is kept under, refused when taken. */
function NewVersionForm({ current }: { current: string }) {
  const { t } = useTranslation('admin-questionnaire')
  const actionData = useActionData<typeof action>()
  const validation = useDeferredValidation('newQuestionnaireVersion')
  const [form, fields] = useForm<FormInput<'newQuestionnaireVersion'>, FormOutput<'newQuestionnaireVersion'>>({
    id: 'new-version',
    lastResult: actionData?.result,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <section aria-labelledby="new-version-title" className="mt-6 max-w-xl rounded-2xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="new-version-title" className="text-xl font-semibold">
        {t('new.title')}
      </h2>
      <p className="mt-1 text-muted">{t('new.lead', { version: current })}</p>
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-4 space-y-3">
        <FormError id={form.errorId} errors={form.errors} />
        <Field
          labelProps={{ children: t('new.version') }}
          hint={t('new.versionHint')}
          inputProps={{ ...getInputProps(fields.version, { type: 'text' }), autoComplete: 'off', spellCheck: false }}
          errors={fields.version.errors}
        />
        <button type="submit" className="btn-primary">
          {t('new.submit')}
        </button>
      </Form>
    </section>
  )
}
