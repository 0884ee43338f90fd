import { type SubmissionResult, getCollectionProps, getFormProps, getInputProps, useForm } from '@conform-to/react'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { PILLAR_ORDER } from '#app/domain/pillars.ts'
import { CONSULTATION_LANGUAGES, PROFESSION_MAX_LENGTH, REGISTRATION_MAX_LENGTH, REVOCATION_REASON_MAX_LENGTH } from '#app/forms/admin-users.ts'
import { type UserIntent, adminUserAction, adminUserView } from './admin-users.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getAdminUser } from '#app/provider/admin-users.server.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { nullWhileResubmitting } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { roles } from '#app/session/roles.ts'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field } from '#app/ui/field.tsx'
import { ErrorList, FormError, SubmitButton } from '#app/ui/forms.tsx'
import { TextAreaField } from '#app/ui/textarea-field.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { routeId } from '#app/utils/route-ids.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin'] }

/**
 * One user for an admin (`/admin/users/{id}`, decision 0059): who they are, their groups, their
 * account's activity, their accreditation as a professional and its revocation, each a form that
 * works without JavaScript. Outside the list's route (`users_`): the list has no outlet.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user: admin } = await requireUser(request, { role: 'admin' })
  const id = routeId(params)
  const [t, language, user, pillars] = await Promise.all([
    getFixedT(request, 'admin'),
    languageOf(request),
    getAdminUser(auth, id).catch(nullWhileResubmitting),
    pillarsForDisplay().catch(() => []),
  ])
  const view = user ? adminUserView(user, { language, pillars, timeZone: timeZoneOr(admin.time_zone) }) : null
  return data(
    {
      meta: { title: `${view?.name ?? t('user.title')} · Innera`, description: t('user.lead') },
      user: view,
      self: admin.id === id,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  return adminUserAction(request, auth, routeId(params))
}

type View = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['user']>
type Reply = { intent: UserIntent; result: SubmissionResult<string[]> }

/** The last reply of one of the page's forms, for that form only. */
function useReply(intent: UserIntent) {
  const reply = useActionData<typeof action>() as Reply | undefined
  return reply?.intent === intent ? reply.result : undefined
}

export default function AdminUserPage() {
  const { user, self } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>() as Reply | undefined
  const { t } = useTranslation('admin')
  return (
    <main id="main">
      <p>
        <Link className="link" to="/admin/users">
          {t('user.backToList')}
        </Link>
      </p>
      {user ? (
        <>
          <h1 className="mt-4 text-3xl font-bold">{user.name}</h1>
          <Facts user={user} />
          <div className="mt-6 grid gap-6 lg:grid-cols-2">
            <GroupsForm groups={user.groups} name={user.name} />
            <ActivityForm active={user.active} name={user.name} self={self} />
          </div>
          <AccreditationForm user={user} />
          {user.professional?.accredited ? <RevocationForm name={user.name} upcoming={user.upcomingAsProfessional} /> : null}
        </>
      ) : (
        // The user could not be read again after a failed submission: the form that was sent
        // comes back around what was typed.
        <>
          <h1 className="mt-4 text-3xl font-bold">{t('user.title')}</h1>
          <p role="status" className="mt-4 text-muted">
            {t('user.unavailable')}
          </p>
          {reply?.intent === 'accredit' ? <AccreditationForm user={null} /> : null}
          {reply?.intent === 'revoke' ? <RevocationForm name="" upcoming={null} /> : null}
          {reply?.intent === 'groups' ? <GroupsForm groups={[]} name="" /> : null}
        </>
      )}
    </main>
  )
}

function Facts({ user }: { user: View }) {
  const { t } = useTranslation('admin')
  const row = 'grid gap-1 border-t border-brand-100 py-3 sm:grid-cols-[12rem_1fr]'
  return (
    <section aria-labelledby="facts-title" className="mt-6 max-w-3xl rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="facts-title" className="sr-only">
        {t('user.facts')}
      </h2>
      <dl>
        <div className={row}>
          <dt className="text-muted">{t('users.email')}</dt>
          <dd className="break-all">{user.email}</dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('user.username')}</dt>
          <dd>@{user.username}</dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('users.role')}</dt>
          <dd>{t(`roles.${user.role}`)}</dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('users.status')}</dt>
          <dd>{user.active ? t('users.active') : t('users.inactive')}</dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('user.joined')}</dt>
          <dd>{user.joined}</dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('user.lastLogin')}</dt>
          <dd>{user.lastLogin ?? t('user.never')}</dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('user.upcoming')}</dt>
          <dd>{t('user.upcomingCounts', { professional: user.upcomingAsProfessional, patient: user.upcomingAsPatient })}</dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('user.accreditation')}</dt>
          <dd>
            {user.professional?.accredited
              ? t('user.accreditedAs', { profession: user.professional.profession, registration: user.professional.registrationNumber, price: user.professional.price })
              : user.professional
                ? t('user.notAccreditedAnyMore')
                : t('user.notProfessional')}
            {user.professional?.accredited && user.professional.pillarNames.length > 0 ? <span className="block text-sm text-muted">{user.professional.pillarNames.join(', ')}</span> : null}
          </dd>
        </div>
      </dl>
      <p className="mt-4">
        <Link className="link" to={`/admin/audit?subject=${user.id}`}>
          {t('user.auditLink')}
        </Link>
      </p>
    </section>
  )
}

const section = 'rounded-2xl bg-white p-6 shadow-sm'

function GroupsForm({ groups, name }: { groups: string[]; name: string }) {
  const { t } = useTranslation('admin')
  const validation = useDeferredValidation('adminUserGroups')
  const [form, fields] = useForm<FormInput<'adminUserGroups'>, FormOutput<'adminUserGroups'>>({
    id: 'groups-form',
    lastResult: useReply('groups'),
    defaultValue: { groups },
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const boxes = getCollectionProps(fields.groups, { type: 'checkbox', options: [...roles] })
  return (
    <section aria-labelledby="groups-title" className={section}>
      <h2 id="groups-title" className="text-xl font-semibold">
        {t('user.groups')}
      </h2>
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-4 space-y-4">
        <FormError id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="groups" />
        <fieldset aria-describedby={['groups-hint', fields.groups.errors?.length ? fields.groups.errorId : null].filter(Boolean).join(' ')}>
          <legend className="font-medium">{t('user.groupsLegend', { name })}</legend>
          <p id="groups-hint" className="text-sm text-muted">
            {t('user.groupsHint')}
          </p>
          <div className="mt-2 flex flex-wrap gap-x-6">
            {boxes.map(({ key, ...box }) => (
              <label key={key} className="flex min-h-11 items-center gap-2">
                <input {...box} className="size-5 accent-brand-700" />
                <span>{t(`roles.${box.value}`)}</span>
              </label>
            ))}
          </div>
          <ErrorList id={fields.groups.errorId} errors={fields.groups.errors} />
        </fieldset>
        <SubmitButton className="btn-primary" pendingText={t('user.saving')}>
          {t('user.saveGroups')}
        </SubmitButton>
      </Form>
    </section>
  )
}

/** Deactivate or reactivate: the sentence says what it does, and the admin ticks it before the button counts. */
function ActivityForm({ active, name, self }: { active: boolean; name: string; self: boolean }) {
  const { t } = useTranslation('admin')
  const validation = useDeferredValidation('adminUserActivity')
  const [form, fields] = useForm<FormInput<'adminUserActivity'>, FormOutput<'adminUserActivity'>>({
    id: 'activity-form',
    lastResult: useReply('activity'),
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <section aria-labelledby="activity-title" className={section}>
      <h2 id="activity-title" className="text-xl font-semibold">
        {t('user.activity')}
      </h2>
      {self ? (
        <p className="mt-4 text-muted">{t('user.activitySelf')}</p>
      ) : (
        <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-4 space-y-4">
          <FormError id={form.errorId} errors={form.errors} />
          <input type="hidden" name="intent" value="activity" />
          <input type="hidden" name="active" value={active ? 'false' : 'true'} />
          <p id="activity-what">{active ? t('user.deactivateWhat', { name }) : t('user.reactivateWhat', { name })}</p>
          <div>
            <label className="flex min-h-11 items-center gap-3">
              <input
                {...getInputProps(fields.confirm, { type: 'checkbox', value: 'on' })}
                aria-describedby={['activity-what', fields.confirm.errors?.length ? fields.confirm.errorId : null].filter(Boolean).join(' ')}
                className="size-5 accent-brand-700"
              />
              <span>{active ? t('user.deactivateConfirm', { name }) : t('user.reactivateConfirm', { name })}</span>
            </label>
            <ErrorList id={fields.confirm.errorId} errors={fields.confirm.errors} />
          </div>
          <SubmitButton className={active ? 'btn-primary bg-red-700 hover:bg-red-800' : 'btn-primary'} pendingText={t('user.saving')}>
            {active ? t('user.deactivate') : t('user.reactivate')}
          </SubmitButton>
        </Form>
      )}
    </section>
  )
}

/** The profile the directory shows: profession, registration, pillars, languages and the price as people type it ("150,00"). */
function AccreditationForm({ user }: { user: View | null }) {
  const { t } = useTranslation('admin')
  const profile = user?.professional
  const validation = useDeferredValidation('adminAccreditation')
  const [form, fields] = useForm<FormInput<'adminAccreditation'>, FormOutput<'adminAccreditation'>>({
    id: 'accreditation-form',
    lastResult: useReply('accredit'),
    defaultValue: profile
      ? { profession: profile.profession, registration_number: profile.registrationNumber, pillars: profile.pillars, languages: profile.languages, price: profile.typedPrice }
      : { languages: ['pt'] },
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const pillarLabels = new Map<string, string>((user?.pillarChoices ?? []).map((choice) => [choice.value, choice.label]))
  const pillarBoxes = getCollectionProps(fields.pillars, { type: 'checkbox', options: [...PILLAR_ORDER] })
  const languageBoxes = getCollectionProps(fields.languages, { type: 'checkbox', options: [...CONSULTATION_LANGUAGES] })
  return (
    <section aria-labelledby="accreditation-title" className={`mt-6 max-w-3xl ${section}`}>
      <h2 id="accreditation-title" className="text-xl font-semibold">
        {t('user.accreditationTitle')}
      </h2>
      <p className="mt-2 text-muted">{profile?.accredited ? t('user.accreditationUpdateLead') : t('user.accreditationLead')}</p>
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-4 space-y-4">
        <FormError id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="accredit" />
        <Field
          labelProps={{ children: t('user.profession') }}
          hint={t('user.professionHint')}
          inputProps={{ ...getInputProps(fields.profession, { type: 'text' }), maxLength: PROFESSION_MAX_LENGTH, autoComplete: 'off' }}
          errors={fields.profession.errors}
        />
        <Field
          labelProps={{ children: t('user.registration') }}
          hint={t('user.registrationHint')}
          inputProps={{ ...getInputProps(fields.registration_number, { type: 'text' }), maxLength: REGISTRATION_MAX_LENGTH, autoComplete: 'off' }}
          errors={fields.registration_number.errors}
        />
        <fieldset aria-describedby={fields.pillars.errors?.length ? fields.pillars.errorId : undefined}>
          <legend className="font-medium">{t('user.pillars')}</legend>
          <div className="mt-1 grid gap-x-6 sm:grid-cols-2">
            {pillarBoxes.map(({ key, ...box }) => (
              <label key={key} className="flex min-h-11 items-center gap-2">
                <input {...box} className="size-5 accent-brand-700" />
                <span>{pillarLabels.get(box.value) ?? box.value}</span>
              </label>
            ))}
          </div>
          <ErrorList id={fields.pillars.errorId} errors={fields.pillars.errors} />
        </fieldset>
        <fieldset aria-describedby={fields.languages.errors?.length ? fields.languages.errorId : undefined}>
          <legend className="font-medium">{t('user.languages')}</legend>
          <div className="mt-1 flex flex-wrap gap-x-6">
            {languageBoxes.map(({ key, ...box }) => (
              <label key={key} className="flex min-h-11 items-center gap-2">
                <input {...box} className="size-5 accent-brand-700" />
                <span>{t(`user.language.${box.value}`)}</span>
              </label>
            ))}
          </div>
          <ErrorList id={fields.languages.errorId} errors={fields.languages.errors} />
        </fieldset>
        <Field
          labelProps={{ children: t('user.price') }}
          hint={t('user.priceHint')}
          inputProps={{ ...getInputProps(fields.price, { type: 'text' }), inputMode: 'decimal', autoComplete: 'off' }}
          errors={fields.price.errors}
        />
        <SubmitButton className="btn-primary" pendingText={t('user.saving')}>
          {profile?.accredited ? t('user.saveAccreditation') : t('user.accredit')}
        </SubmitButton>
      </Form>
    </section>
  )
}

/** Revoking: how many future appointments it cancels and refunds is said first; the reason is kept in the audit log. */
function RevocationForm({ name, upcoming }: { name: string; upcoming: number | null }) {
  const { t } = useTranslation('admin')
  const validation = useDeferredValidation('adminRevocation')
  const [form, fields] = useForm<FormInput<'adminRevocation'>, FormOutput<'adminRevocation'>>({
    id: 'revocation-form',
    lastResult: useReply('revoke'),
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <section aria-labelledby="revocation-title" className={`mt-6 max-w-3xl border border-red-200 ${section}`}>
      <h2 id="revocation-title" className="text-xl font-semibold">
        {t('user.revokeTitle')}
      </h2>
      {upcoming !== null ? (
        <p className="mt-2 font-medium" data-testid="revocation-consequence">
          {t('user.revokeWhat', { name, count: upcoming })}
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-4 space-y-4">
        <FormError id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="revoke" />
        <TextAreaField meta={fields.reason} label={t('user.reason')} hint={t('user.reasonHint', { max: REVOCATION_REASON_MAX_LENGTH })} rows={3} />
        <SubmitButton className="btn-primary bg-red-700 hover:bg-red-800" pendingText={t('user.saving')}>
          {t('user.revoke')}
        </SubmitButton>
      </Form>
    </section>
  )
}
