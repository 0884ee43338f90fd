import { type Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import { type TFunction } from 'i18next'
import { z } from 'zod'
import { type Cents, formatMoney } from '#app/domain/money.ts'
import { PILLAR_ORDER } from '#app/domain/pillars.ts'
import { formatDateAndTime } from '#app/domain/viewer-times.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { type AdminUserDetail, accreditProfessional, revokeAccreditation, updateAdminUser } from '#app/provider/admin-users.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { type Pillar } from '#app/provider/schemas.ts'
import { roleFromGroups, roles } from '#app/session/roles.ts'
import { failureInit } from '#app/utils/messages.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { CONSULTATION_LANGUAGES, accreditationSchema, activitySchema, groupsSchema, revocationSchema } from '#app/forms/admin-users.ts'
import { type FieldTarget, replyToFailure } from '#app/utils/provider-reply.server.ts'

/**
 * An admin's page of one user (`/admin/users/{id}`, decision 0059): the view it draws, and its
 * four forms' action (groups, activity, accreditation, revocation). Each success goes back to the
 * page with a toast; each refusal, the provider's included, re-renders the form with what was typed.
 */

const USER_INTENTS = ['groups', 'activity', 'accredit', 'revoke'] as const
export type UserIntent = (typeof USER_INTENTS)[number]

/** An amount as a person types it back into the price field: "150,00", "1234,50". */
function typedMoney(cents: Cents): string {
  return `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`
}

/** What the page shows of the user, in the page's language and the admin's time zone (decision 0077; the console names it). */
export function adminUserView(user: AdminUserDetail, { language, pillars, timeZone }: { language: Language; pillars: Pillar[]; timeZone: string }) {
  const dateTime = (iso: string) => formatDateAndTime(iso, timeZone, language, { dateStyle: 'medium' })
  const pillarName = (slug: string) => pillars.find((pillar) => pillar.slug === slug)?.name[language] ?? slug
  const profile = user.professional
  return {
    id: user.id,
    name: [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username,
    username: user.username,
    email: user.email,
    role: roleFromGroups(user.groups),
    groups: roles.filter((role) => user.groups.some((group) => group.trim().toLowerCase() === role)),
    active: user.is_active,
    joined: dateTime(user.date_joined),
    lastLogin: user.last_login ? dateTime(user.last_login) : null,
    upcomingAsProfessional: user.counts.future_appointments_as_professional,
    upcomingAsPatient: user.counts.future_appointments_as_patient,
    professional: profile
      ? {
          accredited: profile.accredited,
          profession: profile.profession,
          registrationNumber: profile.registration_number,
          pillars: profile.pillars.filter((slug): slug is (typeof PILLAR_ORDER)[number] => (PILLAR_ORDER as readonly string[]).includes(slug)),
          pillarNames: profile.pillars.map(pillarName),
          languages: profile.languages.filter((code): code is (typeof CONSULTATION_LANGUAGES)[number] => (CONSULTATION_LANGUAGES as readonly string[]).includes(code)),
          price: formatMoney(profile.price_cents as Cents, language),
          typedPrice: typedMoney(profile.price_cents as Cents),
        }
      : null,
    /** The checkboxes of the pillars, named in the page's language. */
    pillarChoices: PILLAR_ORDER.map((slug) => ({ value: slug, label: pillarName(slug) })),
  }
}

/** The provider's refusals an admin can meet here, in the page's language. */
const PROVIDER_MESSAGES: Record<string, string> = {
  'You cannot remove your own admin role.': 'admin:user.errors.ownAdminRole',
  'You cannot deactivate your own account.': 'admin:user.errors.ownAccount',
}
const translated = (t: TFunction) => (provided: string[]) => provided.map((message) => (PROVIDER_MESSAGES[message] ? t(PROVIDER_MESSAGES[message]!) : message))

type Reply = { intent: UserIntent; result: ReturnType<Submission<unknown>['reply']> }

/** The form's reply after the provider refused or failed, what was typed kept; an admin never accredited is said in words. */
async function failed(request: Request, intent: UserIntent, submission: Submission<unknown>, error: unknown, fields: Record<string, FieldTarget>) {
  const t = await getFixedT(request, ['common', 'admin'])
  if (error instanceof ProviderError && error.code === 'is_admin') {
    return data<Reply>({ intent, result: submission.reply({ formErrors: [t('admin:user.errors.isAdmin')] }) }, failureInit(error))
  }
  const { result, init } = replyToFailure(submission, error, t, { fields })
  return data<Reply>({ intent, result }, init)
}

/** The page's action: `intent` names the form. */
export async function adminUserAction(request: Request, auth: SignedInCaller, id: number) {
  const form = await readFormData(request)
  const intent = z.enum(USER_INTENTS).safeParse(form.get('intent'))
  if (!intent.success) throw data({ reason: 'bad-request' }, { status: 400 })
  const back = `/admin/users/${id}`
  const invalid = (submission: Submission<unknown>) => data<Reply>({ intent: intent.data, result: submission.reply() }, { status: 400 })

  switch (intent.data) {
    case 'groups': {
      const submission = parseWithZod(form, { schema: groupsSchema })
      if (submission.status !== 'success') return invalid(submission)
      try {
        await updateAdminUser(auth, id, { groups: submission.value.groups })
      } catch (error) {
        const t = await getFixedT(request, ['common', 'admin'])
        return failed(request, 'groups', submission, error, { groups: { field: 'groups', messages: translated(t) } })
      }
      return redirectWithToast(back, { type: 'success', message: { key: 'admin:user.groupsSaved' } })
    }
    case 'activity': {
      const submission = parseWithZod(form, { schema: activitySchema })
      if (submission.status !== 'success') return invalid(submission)
      try {
        await updateAdminUser(auth, id, { is_active: submission.value.active })
      } catch (error) {
        const t = await getFixedT(request, ['common', 'admin'])
        return failed(request, 'activity', submission, error, { is_active: { field: '', messages: translated(t) } })
      }
      return redirectWithToast(back, { type: 'success', message: { key: submission.value.active ? 'admin:user.reactivated' : 'admin:user.deactivated' } })
    }
    case 'accredit': {
      const submission = parseWithZod(form, { schema: accreditationSchema })
      if (submission.status !== 'success') return invalid(submission)
      const { profession, registration_number, pillars, languages, price } = submission.value
      try {
        await accreditProfessional(auth, id, { profession, registration_number, pillars, languages, price_cents: price })
      } catch (error) {
        return failed(request, 'accredit', submission, error, {
          profession: 'profession',
          registration_number: 'registration_number',
          pillars: 'pillars',
          languages: 'languages',
          price_cents: { field: 'price', messages: () => ['admin:user.validation.price'] },
        })
      }
      return redirectWithToast(back, { type: 'success', message: { key: 'admin:user.accredited' } })
    }
    case 'revoke': {
      const submission = parseWithZod(form, { schema: revocationSchema })
      if (submission.status !== 'success') return invalid(submission)
      let cancelled: number
      try {
        cancelled = (await revokeAccreditation(auth, id, submission.value.reason)).cancelled_appointments
      } catch (error) {
        return failed(request, 'revoke', submission, error, { reason: 'reason' })
      }
      return redirectWithToast(back, { type: 'success', message: { key: 'admin:user.revoked', values: { count: cancelled } }, durationMs: 8_000 })
    }
  }
}
