import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useRevalidator } from '@remix-run/react'
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field } from '#app/ui/field.tsx'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { CheckboxField } from '#app/ui/special-fields.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { loader, action } from './notification-settings.server.ts'

export { loader, action }

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['notifications'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

/**
 * Notifications (issue 44, decisions 0085 and 0087): a form for the channels and quiet hours that
 * works without JavaScript, and this browser's push, which needs it (a service worker).
 */
export default function NotificationSettingsPage() {
  const { t } = useTranslation('notifications')
  const { settings, timeZone, devices } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const validation = useDeferredValidation('notificationSettings')
  const [form, fields] = useForm<FormInput<'notificationSettings'>, FormOutput<'notificationSettings'>>({
    id: 'notification-settings',
    lastResult: answer?.result,
    defaultValue: settings ? { email: settings.email ? 'on' : undefined, push: settings.push ? 'on' : undefined, quiet_start: settings.quiet_start ?? '', quiet_end: settings.quiet_end ?? '' } : { email: 'on' },
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link to="/configuracoes" className="link">
          {t('back')}
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold">{t('title')}</h1>
      <p className="mt-2 text-muted">{t('lead')}</p>
      <div className="mt-8 grid gap-8 lg:grid-cols-2">
        <section aria-labelledby="channels-title" className="rounded-2xl bg-white p-6 shadow-sm">
          <h2 id="channels-title" className="text-xl font-semibold">
            {t('formTitle')}
          </h2>
          {settings === null ? (
            <p role="alert" className="mt-4 font-medium text-red-700">
              {t('loadFailed')}
            </p>
          ) : null}
          <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-4 space-y-6">
            <FormError id={form.errorId} errors={form.errors} />
            <fieldset className="space-y-4">
              <legend className="font-medium">{t('channels')}</legend>
              <div>
                <CheckboxField labelProps={{ children: t('email') }} inputProps={{ ...getInputProps(fields.email, { type: 'checkbox' }), 'aria-describedby': 'email-hint' }} errors={fields.email.errors} />
                <p id="email-hint" className="mt-1 pl-8 text-sm text-muted">
                  {t('emailHint')}
                </p>
              </div>
              <div>
                <CheckboxField labelProps={{ children: t('push') }} inputProps={{ ...getInputProps(fields.push, { type: 'checkbox' }), 'aria-describedby': 'push-hint' }} errors={fields.push.errors} />
                <p id="push-hint" className="mt-1 pl-8 text-sm text-muted">
                  {devices === null ? t('pushHint') : devices === 0 ? t('noDevices') : t('devices', { count: devices })}
                </p>
              </div>
            </fieldset>
            <fieldset>
              <legend className="font-medium">{t('quietTitle')}</legend>
              <p id="quiet-hint" className="text-sm text-muted">
                {t('quietHint', { zone: timeZone })}
              </p>
              <div className="mt-2 grid gap-4 sm:grid-cols-2">
                <Field labelProps={{ children: t('quietStart') }} inputProps={{ ...getInputProps(fields.quiet_start, { type: 'time' }) }} errors={fields.quiet_start.errors} />
                <Field labelProps={{ children: t('quietEnd') }} inputProps={{ ...getInputProps(fields.quiet_end, { type: 'time' }) }} errors={fields.quiet_end.errors} />
              </div>
            </fieldset>
            <SubmitButton className="btn-primary" pendingText={t('saving')}>
              {t('save')}
            </SubmitButton>
          </Form>
        </section>
        <ThisBrowser />
      </div>
    </main>
  )
}

type PushState = 'checking' | 'unsupported' | 'off' | 'on' | 'denied' | 'working' | 'failed'

/** The VAPID key (base64url) as the bytes PushManager.subscribe takes. */
function keyBytes(base64Url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64Url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64Url.length % 4)) % 4)
  const raw = atob(base64)
  const bytes = new Uint8Array(new ArrayBuffer(raw.length))
  for (let index = 0; index < raw.length; index += 1) bytes[index] = raw.charCodeAt(index)
  return bytes
}

const postSubscription = (body: unknown) =>
  fetch('/resources/push-subscription', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) })

/**
 * This browser's push (decision 0087). Drawn on the server as "not here" (true without JavaScript);
 * once the page runs, a browser with service workers and PushManager gets the button that
 * registers /sw.js, asks permission, subscribes with the VAPID key and hands the subscription to
 * the app's resource route; and the one that takes it back.
 */
function ThisBrowser() {
  const { t } = useTranslation('notifications')
  const { vapidKey } = useLoaderData<typeof loader>()
  const revalidator = useRevalidator()
  const [state, setState] = useState<PushState>('checking')

  useEffect(() => {
    if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window) || !vapidKey) {
      setState('unsupported')
      return
    }
    if (Notification.permission === 'denied') {
      setState('denied')
      return
    }
    navigator.serviceWorker
      .getRegistration('/')
      .then((registration) => registration?.pushManager.getSubscription())
      .then(
        (subscription) => setState(subscription ? 'on' : 'off'),
        () => setState('off'),
      )
  }, [vapidKey])

  const enable = useCallback(async () => {
    if (!vapidKey) return
    setState('working')
    try {
      const permission = await Notification.requestPermission()
      if (permission !== 'granted') {
        setState(permission === 'denied' ? 'denied' : 'off')
        return
      }
      const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' })
      await navigator.serviceWorker.ready
      const subscription = (await registration.pushManager.getSubscription()) ?? (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(vapidKey) }))
      const { endpoint, keys } = subscription.toJSON()
      const response = await postSubscription({ intent: 'subscribe', endpoint, keys })
      if (!response.ok) {
        await subscription.unsubscribe()
        setState('failed')
        return
      }
      setState('on')
      // The push channel is on now: the form shows it.
      revalidator.revalidate()
    } catch {
      setState('failed')
    }
  }, [vapidKey, revalidator])

  const disable = useCallback(async () => {
    setState('working')
    try {
      const registration = await navigator.serviceWorker.getRegistration('/')
      const subscription = await registration?.pushManager.getSubscription()
      if (subscription) {
        const response = await postSubscription({ intent: 'unsubscribe', endpoint: subscription.endpoint })
        if (!response.ok) {
          setState('failed')
          return
        }
        await subscription.unsubscribe()
      }
      setState('off')
      revalidator.revalidate()
    } catch {
      setState('failed')
    }
  }, [revalidator])

  const unsupported = state === 'checking' || state === 'unsupported'
  return (
    <section aria-labelledby="browser-title" className="rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="browser-title" className="text-xl font-semibold">
        {t('browser.title')}
      </h2>
      <p className="mt-2 text-muted">{t('browser.lead')}</p>
      <div aria-live="polite" className="mt-4 space-y-4">
        {unsupported ? <p data-push-state="unsupported">{t('browser.unsupported')}</p> : null}
        {state === 'denied' ? <p data-push-state="denied">{t('browser.denied')}</p> : null}
        {state === 'failed' ? (
          <p role="alert" className="font-medium text-red-700">
            {t('browser.failed')}
          </p>
        ) : null}
        {state === 'on' ? <p data-push-state="on">{t('browser.on')}</p> : null}
        {state === 'off' || state === 'failed' ? (
          <button type="button" className="btn-primary" onClick={enable}>
            {t('browser.enable')}
          </button>
        ) : null}
        {state === 'on' ? (
          <button type="button" className="btn-secondary" onClick={disable}>
            {t('browser.disable')}
          </button>
        ) : null}
        {state === 'working' ? <p>{t('browser.working')}</p> : null}
      </div>
    </section>
  )
}
