import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { PRIVACY_PATH, REVOKE_PARAM, REVOKE_STEP } from '#app/forms/privacy.ts'
import { privacyAction, privacyView, type PrivacyView } from '#app/features/privacy/privacy.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getConsents, getDeletionPlan, listResultViewers } from '#app/provider/privacy.server.ts'
import { nullWhileResubmitting } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field, useSecretFieldKey } from '#app/ui/field.tsx'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { ConfirmStep } from '#app/ui/confirm-step.tsx'
import { CheckboxField } from '#app/ui/special-fields.tsx'
import { stepOf, stepUrl } from '#app/utils/confirm-step.ts'
import { parseId } from '#app/utils/ids.ts'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['privacy'] }

const PRIVATE = { 'Cache-Control': 'private, no-store' }

/**
 * Privacy and data (`/configuracoes/privacidade`, docs/decisions/0060-lgpd-self-service.md): the
 * consent record with a form per document, the professionals who see the user's results with a
 * revoke button each, the data export (a plain link: a download without JavaScript), and the
 * account's deletion, saying first what goes now and what the law keeps until when.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request)
  const [t, language, consents, viewers, plan] = await Promise.all([
    getFixedT(request, ['privacy', 'common']),
    languageOf(request),
    getConsents(auth).catch(nullWhileResubmitting),
    listResultViewers(auth).catch(nullWhileResubmitting),
    getDeletionPlan(auth).catch(nullWhileResubmitting),
  ])
  return data(
    {
      meta: { title: `${t('privacy:title')} · Innera`, description: t('privacy:lead') },
      view: privacyView({ consents, viewers, plan }, { t, language, timeZone: timeZoneOr(user.time_zone) }),
      // The professional whose access the confirmation step is about (decision 0079), if it is open.
      revoking: stepOf(request.url, [REVOKE_STEP]) ? (parseId(new URL(request.url).searchParams.get(REVOKE_PARAM)) ?? null) : null,
    },
    { headers: PRIVATE },
  )
}

export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request)
  return privacyAction(request, auth)
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function PrivacyPage() {
  const { view, revoking } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const { t } = useTranslation('privacy')
  const failed = answer && 'error' in answer ? answer : null
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link to="/configuracoes" className="link">
          {t('back')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t('title')}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('lead')}</p>
      <div className="mt-8 grid gap-8">
        <ConsentSection documents={view.documents} history={view.history} error={failed?.intent === 'consent' ? failed.error : null} />
        <SharingSection sharing={view.sharing} revoking={revoking} error={failed?.intent === 'revoke-share' ? failed.error : null} />
        <section aria-labelledby="export-title" className="rounded-2xl bg-white p-6 shadow-sm">
          <h2 id="export-title" className="text-xl font-semibold">
            {t('export.title')}
          </h2>
          <p className="mt-2 max-w-3xl text-muted">{t('export.lead')}</p>
          <p className="mt-4">
            {/* A plain link: the browser downloads the ZIP as it streams, with or without JavaScript. */}
            <a href={`${PRIVACY_PATH}/exportar`} className="btn-primary" download>
              {t('export.download')}
            </a>
          </p>
        </section>
        <DeleteSection deletion={view.deletion} />
      </div>
    </main>
  )
}

function ConsentSection({ documents, history, error }: { documents: PrivacyView['documents']; history: PrivacyView['history']; error: string | null }) {
  const { t } = useTranslation('privacy')
  return (
    <section aria-labelledby="consents-title" className="rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="consents-title" className="text-xl font-semibold">
        {t('consents.title')}
      </h2>
      <p className="mt-2 max-w-3xl text-muted">{t('consents.lead')}</p>
      {error ? (
        <p role="alert" className="mt-4 font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {documents === null ? (
        <p className="mt-4">{t('common:errors.network')}</p>
      ) : (
        <ul className="mt-4 divide-y divide-gray-200">
          {documents.map((row) => (
            <li key={row.document} className="py-4">
              <h3 className="font-semibold">{t(`consents.documents.${row.document}`)}</h3>
              <p className="mt-1">{row.text}</p>
              {row.categories ? <p className="mt-1 text-sm text-muted">{row.categories}</p> : null}
              {row.outdatedBy ? <p className="mt-1 text-sm font-medium">{t('consents.outdated', { version: row.outdatedBy })}</p> : null}
              {row.document === 'terms' || row.document === 'privacy' ? (
                <p className="mt-1 text-sm text-muted">
                  {t('consents.requiredNote')}{' '}
                  <a href="#excluir-conta" className="link">
                    {t('consents.deleteInstead')}
                  </a>
                </p>
              ) : null}
              <div className="mt-3 flex flex-wrap gap-3">
                {row.offers.map((offer) =>
                  offer === 'cookie-settings' ? (
                    <Link key={offer} to="?cookie-settings=1" className="btn-secondary" preventScrollReset>
                      {t('consents.cookiesSettings')}
                    </Link>
                  ) : (
                    <Form key={offer} method="post">
                      <input type="hidden" name="intent" value="consent" />
                      <input type="hidden" name="document" value={row.document} />
                      <input type="hidden" name="granted" value={offer === 'withdraw' ? 'false' : 'true'} />
                      <SubmitButton className={offer === 'withdraw' ? 'btn-secondary' : 'btn-primary'} pendingText={t('consents.working')}>
                        {offer === 'accept'
                          ? t('consents.accept', { version: row.version })
                          : offer === 'grant'
                            ? t('consents.marketingGrant')
                            : row.document === 'cookies'
                              ? t('consents.cookiesWithdraw')
                              : t('consents.marketingWithdraw')}
                      </SubmitButton>
                    </Form>
                  ),
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {history !== null ? (
        <>
          <h3 className="mt-6 font-semibold">{t('consents.historyTitle')}</h3>
          {history.length === 0 ? (
            <p className="mt-2 text-muted">{t('consents.historyEmpty')}</p>
          ) : (
            <ul className="mt-2 list-disc space-y-1 pl-6 text-sm">
              {history.map((line, index) => (
                <li key={index}>{line}</li>
              ))}
            </ul>
          )}
        </>
      ) : null}
    </section>
  )
}

function SharingSection({ sharing, revoking, error }: { sharing: PrivacyView['sharing']; revoking: number | null; error: string | null }) {
  const { t } = useTranslation('privacy')
  return (
    <section aria-labelledby="sharing-title" className="rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="sharing-title" className="text-xl font-semibold">
        {t('sharing.title')}
      </h2>
      <p className="mt-2 max-w-3xl text-muted">{t('sharing.lead')}</p>
      {error ? (
        <p role="alert" className="mt-4 font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {sharing === null ? (
        <p className="mt-4">{t('common:errors.network')}</p>
      ) : sharing.length === 0 ? (
        <p className="mt-4">{t('sharing.none')}</p>
      ) : (
        <ul className="mt-4 divide-y divide-gray-200">
          {sharing.map((viewer) => (
            <li key={viewer.id} className="flex flex-wrap items-start justify-between gap-4 py-4">
              <div>
                <p className="font-semibold">{viewer.name}</p>
                {viewer.profession ? <p className="text-sm text-muted">{viewer.profession}</p> : null}
                {viewer.results ? <p className="mt-1">{viewer.results}</p> : null}
                {viewer.careLink ? <p className="mt-1">{viewer.careLink}</p> : null}
              </div>
              {viewer.id === revoking ? (
                <ConfirmStep
                  className="w-full"
                  title={t('sharing.confirm.title', { name: viewer.name })}
                  intent="revoke-share"
                  fields={{ professional_id: String(viewer.id) }}
                  confirmLabel={t('sharing.confirm.yes')}
                  pendingText={t('consents.working')}
                  keepLabel={t('sharing.confirm.no')}
                  keepTo={PRIVACY_PATH}
                >
                  <p>{t('sharing.confirm.loses', { name: viewer.name })}</p>
                  <ul className="list-disc pl-6">
                    {viewer.results ? <li>{viewer.results}</li> : null}
                    {viewer.careLink ? <li>{viewer.careLink}</li> : null}
                  </ul>
                  <p className="text-sm text-muted">{t('sharing.revokeHint')}</p>
                </ConfirmStep>
              ) : (
                <Link to={stepUrl(PRIVACY_PATH, REVOKE_STEP, { [REVOKE_PARAM]: String(viewer.id) })} preventScrollReset className="btn-secondary" aria-label={t('sharing.revokeLabel', { name: viewer.name })} aria-describedby="revoke-hint">
                  {t('sharing.revoke')}
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
      {sharing && sharing.length > 0 ? (
        <p id="revoke-hint" className="mt-2 text-sm text-muted">
          {t('sharing.revokeHint')}
        </p>
      ) : null}
    </section>
  )
}

function DeleteSection({ deletion }: { deletion: PrivacyView['deletion'] }) {
  const { t } = useTranslation('privacy')
  const answer = useActionData<typeof action>()
  const lastResult = answer && 'result' in answer ? answer.result : undefined
  // Validated in the browser: without onValidate, conform would send each blurred field to the
  // server to validate, and the reply (the password never echoed) would empty the password field.
  const validation = useDeferredValidation('deleteAccount')
  const [form, fields] = useForm<FormInput<'deleteAccount'>, FormOutput<'deleteAccount'>>({
    id: 'delete-form',
    lastResult,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const secretKey = useSecretFieldKey(lastResult)
  return (
    <section id="excluir-conta" aria-labelledby="delete-title" className="rounded-2xl border border-red-200 bg-white p-6 shadow-sm">
      <h2 id="delete-title" className="text-xl font-semibold">
        {t('delete.title')}
      </h2>
      <p className="mt-2 max-w-3xl font-medium">{t('delete.lead')}</p>
      {deletion === null ? (
        <p className="mt-4">{t('common:errors.network')}</p>
      ) : (
        <>
          <div className="mt-4 grid gap-6 lg:grid-cols-3">
            <div>
              <h3 className="font-semibold">{t('delete.removedTitle')}</h3>
              <ul className="mt-2 list-disc space-y-1 pl-6 text-sm">
                {deletion.removed.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </div>
            <div>
              <h3 className="font-semibold">{t('delete.cancelledTitle')}</h3>
              {deletion.appointments === 0 ? (
                <p className="mt-2 text-sm">{t('delete.noAppointments')}</p>
              ) : (
                <>
                  <p className="mt-2 text-sm">{t('delete.appointments', { count: deletion.appointments })}</p>
                  <ul className="mt-1 list-disc space-y-1 pl-6 text-sm">
                    {deletion.upcoming.map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                </>
              )}
              {deletion.subscriptions > 0 ? <p className="mt-2 text-sm">{t('delete.subscriptions', { count: deletion.subscriptions })}</p> : null}
            </div>
            <div>
              <h3 className="font-semibold">{t('delete.keptTitle')}</h3>
              <ul className="mt-2 list-disc space-y-1 pl-6 text-sm">
                {deletion.kept.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </div>
          </div>
          <p className="mt-4 max-w-3xl text-sm text-muted">{t('delete.retentionNote')}</p>
          <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-6 max-w-xl space-y-5">
            <input type="hidden" name="intent" value="delete" />
            <FormError id={form.errorId} errors={form.errors} />
            {deletion.requiresPassword ? (
              <Field
                key={`${secretKey}-delete.password`}
                labelProps={{ children: t('delete.password') }}
                inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'current-password' }}
                errors={fields.password.errors}
              />
            ) : null}
            <CheckboxField labelProps={{ children: t('delete.confirm') }} inputProps={getInputProps(fields.confirm, { type: 'checkbox' })} errors={fields.confirm.errors} />
            <SubmitButton className="btn-primary bg-red-700 hover:bg-red-800" pendingText={t('delete.working')}>
              {t('delete.submit')}
            </SubmitButton>
          </Form>
        </>
      )}
    </section>
  )
}
