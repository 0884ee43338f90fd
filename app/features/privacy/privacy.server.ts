import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from '@remix-run/node'
import { type TFunction } from 'i18next'
import { z } from 'zod'
import { formatDateTime, formatShortDateTime } from '#app/domain/appointments.ts'
import { getEnv } from '#app/env.server.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { formatEffectiveDate, legalDocuments } from '#app/i18n/legal-documents.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { CONSENT_DOCUMENTS, type ConsentDocument, type ConsentRecord, type Consents, type DeletionPlan, KEPT_ITEMS, type ResultViewer } from '#app/provider/privacy-schemas.ts'
import { deleteAccount, listResultViewers, recordConsent, revokeResultViewer } from '#app/provider/privacy.server.ts'
import { log } from '#app/http/log.server.ts'
import { type Auth } from '#app/session/auth.server.ts'
import { isConfirmed, stepUrl } from '#app/utils/confirm-step.ts'
import { type Consent, consentCookieHeader, consentFor } from '#app/utils/consent.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { parseId } from '#app/utils/ids.ts'
import { failureInit, failureText } from '#app/utils/messages.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { forgetCartHeader } from '#app/features/cart/cart.server.ts'
import { replyToFailure } from '#app/utils/provider-reply.server.ts'
import { PRIVACY_PATH, REVOKE_PARAM, REVOKE_STEP } from '#app/forms/privacy.ts'
import { deleteAccountSchema } from '#app/forms/privacy-forms.ts'

/**
 * The privacy page (`/configuracoes/privacidade`, docs/decisions/0060-lgpd-self-service.md): what it
 * shows of the provider's answers, and its forms, told apart by `intent`: a consent given or
 * withdrawn, a professional's access revoked, the account deleted. Everything works without
 * JavaScript; a failed submission comes back with what was typed (the password aside).
 */

/**
 * The version of each document the app shows, sent with a consent. Marketing e-mail is described
 * in the privacy policy: its opt-in is to that version.
 */
const shownVersion = (document: ConsentDocument): string => legalDocuments[document === 'marketing' ? 'privacy' : document].version

type DocumentRow = {
  document: ConsentDocument
  state: 'granted' | 'withdrawn' | 'none'
  /** The state as a sentence ("Aceito em … (versão 1.0)"). */
  text: string
  /** The version the app shows (what a new record is to). */
  version: string
  /** The version in force when the one granted is older. */
  outdatedBy: string | null
  /** The forms this document offers. */
  offers: ('accept' | 'grant' | 'withdraw' | 'cookie-settings')[]
  categories: string | null
}

/** The page's data, formatted for the user's language and time zone. */
export function privacyView(
  { consents, viewers, plan }: { consents: Consents | null; viewers: readonly ResultViewer[] | null; plan: DeletionPlan | null },
  { t, language, timeZone }: { t: TFunction; language: Language; timeZone: string },
) {
  const when = (instant: string) => formatDateTime(instant, timeZone, language)
  const day = (instant: string) => formatEffectiveDate(new Date(Date.parse(instant)).toISOString().slice(0, 10), language)
  const documentName = (document: ConsentDocument) => t(`privacy:consents.documents.${document}`)
  const yesNo = (value: boolean) => t(value ? 'privacy:consents.yes' : 'privacy:consents.no')

  const documents: DocumentRow[] | null = consents && CONSENT_DOCUMENTS.map((document) => {
    const record: ConsentRecord | null = consents.current[document]
    const state = record ? (record.granted ? 'granted' : 'withdrawn') : 'none'
    const current = shownVersion(document)
    const acceptedCurrent = record?.granted === true && record.version === current
    const offers: DocumentRow['offers'] =
      document === 'terms' || document === 'privacy'
        ? acceptedCurrent
          ? []
          : ['accept']
        : document === 'marketing'
          ? [record?.granted ? 'withdraw' : 'grant']
          : ['cookie-settings', ...(record?.granted && record.categories && Object.values(record.categories).some(Boolean) ? (['withdraw'] as const) : [])]
    return {
      document,
      state,
      version: current,
      text: record ? t(`privacy:consents.${state}`, { date: when(record.recorded_at), version: record.version }) : t('privacy:consents.none'),
      outdatedBy: record?.granted && record.version !== current && (document === 'terms' || document === 'privacy' || document === 'cookies') ? current : null,
      offers,
      categories:
        document === 'cookies' && record?.categories
          ? t('privacy:consents.cookieCategories', { preferences: yesNo(record.categories.preferences), analytics: yesNo(record.categories.analytics), marketing: yesNo(record.categories.marketing) })
          : null,
    }
  })

  const history = consents?.history.results.map((record) =>
    t(record.granted ? 'privacy:consents.historyGranted' : 'privacy:consents.historyWithdrawn', {
      date: when(record.recorded_at),
      document: documentName(record.document),
      version: record.version,
      source: t(`privacy:consents.sources.${record.source}`, { defaultValue: record.source }),
    }),
  ) ?? null

  const sharing = viewers?.map((viewer) => {
    const name = `${viewer.professional.first_name} ${viewer.professional.last_name}`.trim()
    const latest = viewer.results[0]
    return {
      id: viewer.professional.id,
      name,
      profession: viewer.professional.profession,
      results: latest ? t('privacy:sharing.results', { count: viewer.results.length, date: day(latest.shared_at) }) : null,
      careLink: viewer.care_link_since ? t('privacy:sharing.careLink', { date: day(viewer.care_link_since) }) : null,
    }
  }) ?? null

  const deletion = plan && {
    requiresPassword: plan.requires_password,
    removed: plan.removed_now.map((item) => t(`privacy:delete.removed.${item}`, { defaultValue: item, ...(item in plan.removed_counts ? { count: plan.removed_counts[item] } : {}) })),
    appointments: plan.cancelled_now.appointments,
    upcoming: plan.cancelled_now.upcoming.map((item) => {
      const date = formatShortDateTime(item.start_time, timeZone, language)
      if (item.status === 'awaiting_payment') return t('privacy:delete.held', { date })
      if (item.credit_returned) return t('privacy:delete.refundCredit', { date })
      return t(item.refund === 'full' ? 'privacy:delete.refundFull' : 'privacy:delete.refundNone', { date })
    }),
    subscriptions: plan.cancelled_now.live_subscriptions,
    kept: plan.kept
      .filter((item): item is typeof item & { what: (typeof KEPT_ITEMS)[number] } => (KEPT_ITEMS as readonly string[]).includes(item.what))
      .map((item) => t(`privacy:delete.kept.${item.what}`, { until: item.until ? formatEffectiveDate(item.until, language) : '', count: item.count ?? 0 })),
  }

  return { documents, history, sharing, deletion }
}

export type PrivacyView = ReturnType<typeof privacyView>

const consentIntentSchema = z.object({ document: z.enum(CONSENT_DOCUMENTS), granted: z.enum(['true', 'false']) })

/** The page's forms. Successes go back to the page with a toast; a refusal comes back with its reason. */
export async function privacyAction(request: Request, auth: Auth) {
  const form = await readFormData(request)
  const intent = form.get('intent')
  if (intent === 'delete') return deleteAction(request, auth, form)
  try {
    if (intent === 'consent') {
      const parsed = consentIntentSchema.safeParse({ document: form.get('document'), granted: form.get('granted') })
      if (!parsed.success) throw data({ reason: 'invalid' }, { status: 400 })
      const { document } = parsed.data
      const granted = parsed.data.granted === 'true'
      await recordConsent(auth, { document, version: shownVersion(document), granted, source: 'settings' })
      // Withdrawing the optional cookies here also changes this browser's choice: necessary only.
      const headers = new Headers()
      if (document === 'cookies' && !granted) headers.append('Set-Cookie', consentCookieHeader(consentFor({ kind: 'necessary' }, new Date()), { secure: getEnv().SESSION_COOKIE_SECURE }))
      return redirectWithToast(PRIVACY_PATH, { type: 'success', message: { key: 'privacy:consents.saved' } }, { headers })
    }
    if (intent === 'revoke-share') {
      const professionalId = parseId(form.get('professional_id'))
      if (professionalId === undefined) throw data({ reason: 'invalid' }, { status: 400 })
      // Access is taken away only from its confirmation step (decision 0079), which says what goes.
      if (!isConfirmed(form)) return redirect(stepUrl(PRIVACY_PATH, REVOKE_STEP, { [REVOKE_PARAM]: String(professionalId) }), { status: 303 })
      const viewer = (await listResultViewers(auth)).find((item) => item.professional.id === professionalId)
      try {
        await revokeResultViewer(auth, professionalId)
      } catch (error) {
        // Nothing left to revoke (revoked meanwhile, in another tab): the end state is what was asked.
        if (!(error instanceof ProviderError && error.status === 404)) throw error
      }
      const name = viewer ? `${viewer.professional.first_name} ${viewer.professional.last_name}`.trim() : null
      return redirectWithToast(PRIVACY_PATH, { type: 'success', message: name ? { key: 'privacy:sharing.revokedFrom', values: { name } } : { key: 'privacy:sharing.revoked' } })
    }
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    const t = await getFixedT(request, ['common', 'privacy'])
    return data({ intent: String(intent), error: failureText(t, error) }, failureInit(error))
  }
  throw data({ reason: 'invalid' }, { status: 400 })
}

/** The provider's refusals of the password, in the page's language: a wrong one, or none typed where the account has one. */
const PASSWORD_MESSAGES: Record<string, (t: TFunction) => string> = {
  'Wrong password.': (t) => t('privacy:delete.wrongPassword'),
  'This field is required.': (t) => t('errors.required'),
}

/**
 * The account's deletion: the provider closes it (and signs it out everywhere); here the session
 * and the cart cookie go, and the user lands on the home page, told. A refusal (a wrong password)
 * comes back on the form; the password is never echoed.
 */
async function deleteAction(request: Request, auth: Auth, form: FormData) {
  const submission = parseWithZod(form, { schema: deleteAccountSchema })
  const hideFields = ['password']
  if (submission.status !== 'success') return data({ intent: 'delete', result: submission.reply({ hideFields }) }, { status: 400 })
  try {
    await deleteAccount(auth, { password: submission.value.password, confirm: submission.value.confirm })
  } catch (error) {
    const t = await getFixedT(request, ['common', 'privacy'])
    const { result, init } = replyToFailure(submission, error, t, {
      fields: {
        password: { field: 'password', messages: (messages) => messages.map((message) => PASSWORD_MESSAGES[message]?.(t) ?? message) },
        confirm: { field: 'confirm', messages: () => [t('privacy:delete.confirmRequired')] },
      },
      // The only active admin (the provider's last_admin): the role goes to someone else first.
      statusMessages: { 409: t('privacy:delete.lastAdmin') },
      hideFields,
    })
    return data({ intent: 'delete', result }, init)
  }
  auth.clear()
  return redirectWithToast('/', { type: 'success', message: { key: 'privacy:delete.done' }, durationMs: 8000 }, { headers: { 'Set-Cookie': await forgetCartHeader() } })
}

/** How long the provider is given to record a cookie choice; the banner never waits for it. */
const COOKIE_RECORD_TIMEOUT_MS = 3_000

/**
 * The cookie banner's choice of a signed-in user, recorded at the provider (source "cookie-banner"):
 * started and left to run, so the banner answers as fast as before and works the same when the
 * provider is slow or away (the failure is logged). Closing the banner is no choice: not recorded.
 * Resolves when the call has ended, for tests; the banner does not await it.
 */
export function recordCookieChoice(auth: Pick<Auth, 'isSignedIn'> & SignedInCaller, consent: Consent): Promise<void> {
  if (!auth.isSignedIn || !consent.consented) return Promise.resolve()
  const categories = { preferences: consent.preferences, analytics: consent.analytics, marketing: consent.marketing }
  return recordConsent(auth, { document: 'cookies', version: consent.version, granted: true, source: 'cookie-banner', categories }, AbortSignal.timeout(COOKIE_RECORD_TIMEOUT_MS)).then(
    () => undefined,
    (error: unknown) => log('info', { type: 'cookie-consent-record', outcome: error instanceof ProviderError ? (error.status ?? 'network') : error instanceof Response ? 'session-ended' : 'timeout' }),
  )
}
