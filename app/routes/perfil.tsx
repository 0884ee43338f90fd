import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { DEFAULT_TIME_ZONE, timeZoneChoices } from '#app/domain/time-zones.ts'
import { isFormSubmission } from '#app/http/request-context.server.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { type Profile, type SessionUser } from '#app/provider/schemas.ts'
import { getProfile, updateProfile } from '#app/provider/users.server.ts'
import { profileSchema } from '#app/forms/account-forms.ts'
import { replyToFailure, sameNames } from '#app/utils/provider-reply.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field } from '#app/ui/field.tsx'
import { ErrorList, FormError, SubmitButton } from '#app/ui/forms.tsx'
import { mediaUrl } from '#app/utils/media.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { translateNameProblems } from '#app/domain/person-names.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['account'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request)
  const [t, profile] = await Promise.all([
    getFixedT(request, 'account'),
    getProfile(auth).catch((error: unknown) => {
      // A save that failed for want of the provider shows the form again with what was typed:
      // the page is drawn from what the session knows rather than replaced by the error page.
      if (error instanceof ProviderError && error.isNetwork && isFormSubmission()) return profileFromSession(user)
      return errorResponseFor(error)
    }),
  ])
  return data(
    {
      meta: { title: `${t('profile.title')} · Innera`, description: t('profile.lead') },
      profile: { ...profile, photo: mediaUrl(profile.photo) },
      timeZones: timeZoneChoices(profile.time_zone, new Date()),
    },
  )
}

function profileFromSession(user: SessionUser): Profile {
  return { ...user, phone: '', birth_date: '', bio: '', time_zone: user.time_zone ?? DEFAULT_TIME_ZONE }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request)
  const submission = parseWithZod(await readFormData(request), { schema: profileSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply() }, { status: 400 })
  }
  const { photo, ...fields } = submission.value
  try {
    if (photo && photo.size > 0) {
      const body = new FormData()
      for (const [name, value] of Object.entries(fields)) body.set(name, value)
      body.set('photo', photo, photo.name)
      await updateProfile(auth, body)
    } else {
      await updateProfile(auth, { ...fields, birth_date: fields.birth_date || null })
    }
  } catch (error) {
    const t = await getFixedT(request, ['common', 'account'])
    const name = (field: string) => ({ field, messages: (messages: string[]) => translateNameProblems(t, messages) })
    const { result, init } = replyToFailure(submission, error, t, {
      fields: { ...sameNames(Object.keys(profileSchema.shape)), first_name: name('first_name'), last_name: name('last_name') },
    })
    return data({ result }, init)
  }
  // The header shows the name: the next root load fetches /users/me/ again.
  auth.forgetUserCheck()
  return redirectWithToast('/perfil', { type: 'success', message: { key: 'account:profile.saved' } })
}

export default function ProfilePage() {
  const { profile, timeZones } = useLoaderData<typeof loader>()
  const { t } = useTranslation('account')
  const validation = useDeferredValidation('profile')
  const [form, fields] = useForm<FormInput<'profile'>, FormOutput<'profile'>>({
    id: 'profile-form',
    lastResult: useActionData<typeof action>()?.result,
    defaultValue: {
      first_name: profile.first_name,
      last_name: profile.last_name,
      phone: profile.phone,
      birth_date: profile.birth_date,
      bio: profile.bio,
      time_zone: profile.time_zone,
    },
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const initials = (profile.first_name[0] ?? profile.username[0] ?? '?').toUpperCase()
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('profile.title')}</h1>
      <p className="mt-2 text-muted">{t('profile.lead')}</p>
      <div className="mt-8 grid gap-8 lg:grid-cols-[16rem_1fr]">
        <div className="flex flex-col items-center gap-3 rounded-2xl bg-white p-6 text-center shadow-sm">
          {profile.photo ? (
            <img src={profile.photo} alt={t('profile.photoAlt')} width={128} height={128} className="size-32 rounded-full object-cover" />
          ) : (
            <span aria-hidden="true" className="flex size-32 items-center justify-center rounded-full bg-brand-100 text-4xl font-bold text-brand-800">
              {initials}
            </span>
          )}
          <p className="font-semibold">@{profile.username}</p>
          <p className="break-all text-sm text-muted">{profile.email}</p>
        </div>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} {...validation.formProps} noValidate className="space-y-5 rounded-2xl bg-white p-6 shadow-sm">
          <FormError id={form.errorId} errors={form.errors} />
          <div className="grid gap-5 sm:grid-cols-2">
            <Field labelProps={{ children: t('profile.firstName') }} inputProps={{ ...getInputProps(fields.first_name, { type: 'text' }), autoComplete: 'given-name' }} errors={fields.first_name.errors} />
            <Field labelProps={{ children: t('profile.lastName') }} inputProps={{ ...getInputProps(fields.last_name, { type: 'text' }), autoComplete: 'family-name' }} errors={fields.last_name.errors} />
            <Field labelProps={{ children: t('profile.phone') }} inputProps={{ ...getInputProps(fields.phone, { type: 'tel' }), autoComplete: 'tel' }} errors={fields.phone.errors} />
            <Field labelProps={{ children: t('profile.birthDate') }} inputProps={{ ...getInputProps(fields.birth_date, { type: 'date' }), autoComplete: 'bday' }} errors={fields.birth_date.errors} />
          </div>
          <div>
            <label htmlFor={fields.bio.id} className="block font-medium">
              {t('profile.bio')}
            </label>
            <textarea
              {...getTextareaProps(fields.bio)}
              rows={4}
              className="mt-1 block w-full rounded-lg border border-gray-400 bg-white px-3 py-2"
              aria-describedby={fields.bio.errors ? `${fields.bio.id}-error` : undefined}
            />
            <ErrorList id={`${fields.bio.id}-error`} errors={fields.bio.errors} />
          </div>
          <div>
            <label htmlFor={fields.time_zone.id} className="block font-medium">
              {t('profile.timeZone')}
            </label>
            <p id={`${fields.time_zone.id}-hint`} className="text-sm text-muted">
              {t('profile.timeZoneHint')}
            </p>
            <select
              {...getSelectProps(fields.time_zone)}
              aria-describedby={[`${fields.time_zone.id}-hint`, fields.time_zone.errors ? `${fields.time_zone.id}-error` : ''].filter(Boolean).join(' ')}
              className="mt-1 block min-h-11 w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-base"
            >
              {timeZones.map((zone) => (
                <option key={zone.value} value={zone.value}>
                  {zone.label}
                </option>
              ))}
            </select>
            <ErrorList id={`${fields.time_zone.id}-error`} errors={fields.time_zone.errors} />
          </div>
          <Field
            labelProps={{ children: t('profile.photo') }}
            hint={t('profile.photoHint')}
            inputProps={{ ...getInputProps(fields.photo, { type: 'file' }), accept: 'image/jpeg,image/png,image/webp' }}
            errors={fields.photo.errors}
          />
          <SubmitButton className="btn-primary" pendingText={t('profile.saving')}>
            {t('profile.save')}
          </SubmitButton>
        </Form>
      </div>
    </main>
  )
}
