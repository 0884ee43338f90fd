import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { formatShortDateTime } from '#app/domain/appointments.ts'
import { adminPillarSchema } from '#app/forms/admin-catalogue.ts'
import { refusal, refusedSubmission } from '#app/features/admin/admin-catalogue.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { discardPillarDraft, getAdminPillar, publishPillar, savePillarDraft } from '#app/provider/admin-catalogue.server.ts'
import { forgetPillarsForDisplay } from '#app/provider/pillars.server.ts'
import { nullWhileResubmitting } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { DiscardDraftForm, StateBadges } from '#app/ui/content-editor-parts.tsx'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { FormError } from '#app/ui/forms.tsx'
import { ContentSubmitButtons, LocalizedFields } from '#app/ui/localized-fields.tsx'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin', 'admin-catalogue'] }

const slugOf = (params: Record<string, string | undefined>) => params.slug ?? ''

/**
 * One pillar's texts for an admin (`/admin/pillars/{slug}`, decision 0065): its name and
 * description in pt, en and es, kept as a draft or published (every language filled in). Forms
 * that work without JavaScript.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const [t, language, item] = await Promise.all([getFixedT(request, 'admin-catalogue'), languageOf(request), getAdminPillar(auth, slugOf(params)).catch(nullWhileResubmitting)])
  const name = item?.published.name[language] ?? t('pillars.editTitleFallback')
  return data(
    {
      meta: { title: `${t('pillars.editTitle', { name })} · Innera`, description: t('pillars.editLead') },
      name,
      pillar: item && {
        values: { name: item.draft?.name ?? item.published.name, description: item.draft?.description ?? item.published.description },
        draftSince: item.draft ? formatShortDateTime(item.draft.updated_at, user.time_zone, language) : null,
      },
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  const slug = slugOf(params)
  const [formData, language] = await Promise.all([readFormData(request), languageOf(request)])
  const here = `/admin/pillars/${slug}`
  const nameOf = async () => (await getAdminPillar(auth, slug).catch(() => null))?.published.name[language] ?? slug
  if (formData.get('intent') === 'discard') {
    await discardPillarDraft(auth, slug).catch(() => undefined)
    return redirectWithToast(here, { type: 'success', message: { key: 'admin:content.draftDiscarded', values: { name: await nameOf() } } })
  }
  const submission = parseWithZod(formData, { schema: adminPillarSchema })
  const bodyOf = (value: FormOutput<'adminPillar'>) => ({ name: value.name, description: value.description })
  if (submission.status !== 'success') return refusedSubmission(submission, formData, adminPillarSchema, (value) => savePillarDraft(auth, slug, bodyOf(value)))
  const { intent } = submission.value
  try {
    if (intent === 'publish') {
      const published = await publishPillar(auth, slug, bodyOf(submission.value))
      // The pillar names beside other content are kept a minute per process: this one forgets them now.
      forgetPillarsForDisplay()
      return redirectWithToast('/admin/pillars', { type: 'success', message: { key: 'admin:content.published', values: { name: published.name[language] } } })
    }
    await savePillarDraft(auth, slug, bodyOf(submission.value))
  } catch (error) {
    return refusal(submission, error, await getFixedT(request, ['common', 'admin']), ['name', 'description'])
  }
  return redirectWithToast(here, { type: 'success', message: { key: 'admin:content.draftSaved', values: { name: await nameOf() } } })
}

export default function AdminPillarEditor() {
  const { name, pillar } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const { t } = useTranslation('admin-catalogue')
  const validation = useDeferredValidation('adminPillar')
  const [form, fields] = useForm<FormInput<'adminPillar'>, FormOutput<'adminPillar'>>({
    id: 'pillar-form',
    lastResult: reply?.result,
    defaultValue: pillar?.values,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <main id="main">
      <p>
        <Link className="link" to="/admin/pillars">
          {t('pillars.backToList')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t('pillars.editTitle', { name })}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('pillars.editLead')}</p>
      {pillar ? (
        <p className="mt-3">
          <StateBadges published draft={pillar.draftSince !== null} />
        </p>
      ) : (
        <p role="status" className="mt-4 text-muted">
          {t('unavailable')}
        </p>
      )}
      {pillar?.draftSince ? <DiscardDraftForm name={name} since={t('draftSince', { date: pillar.draftSince })} /> : null}
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-6 max-w-3xl space-y-6">
        <FormError id={form.errorId} errors={form.errors} />
        <LocalizedFields meta={fields.name} label={t('pillars.name')} hint={t('pillars.nameHint')} />
        <LocalizedFields meta={fields.description} label={t('pillars.description')} hint={t('pillars.descriptionHint')} multiline rows={6} />
        <ContentSubmitButtons name={name} />
      </Form>
    </main>
  )
}
