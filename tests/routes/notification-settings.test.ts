import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { action as settingsAction, loader as settingsLoader } from '#app/routes/configuracoes_.notificacoes/route.tsx'
import { action as subscriptionAction } from '#app/routes/resources.push-subscription.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, run, toastOf } from '#tests/mocks/route.ts'
import { demoAdmin, demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'

/**
 * The notification settings page and this browser's push subscription (decision 0087) over msw as
 * the provider: the settings read and saved (e-mail, push, quiet hours), and the subscription the
 * page's script posts, forwarded with the session's token.
 */

type Answer = (request: Request) => Response | Promise<Response>
type Asked = { saved: unknown[]; subscribed: unknown[]; unsubscribed: unknown[]; authorization: (string | null)[] }
const VAPID = `B${'A'.repeat(86)}`
const saved = { email: true, push: false, quiet_start: '22:00', quiet_end: '07:00' }

function notificationsProvider(answers: Partial<Record<'settings' | 'save' | 'devices' | 'key' | 'subscribe' | 'unsubscribe', Answer>> = {}) {
  const asked: Asked = { saved: [], subscribed: [], unsubscribed: [], authorization: [] }
  providerMock.use(
    http.get(providerUrl('/users/me/notification-settings/'), ({ request }) => (answers.settings ? answers.settings(request) : HttpResponse.json(saved))),
    http.put(providerUrl('/users/me/notification-settings/'), async ({ request }) => {
      const body = await request.clone().json()
      asked.saved.push(body)
      return answers.save ? answers.save(request) : HttpResponse.json(body)
    }),
    http.get(providerUrl('/users/me/push-subscriptions/'), ({ request }) => (answers.devices ? answers.devices(request) : HttpResponse.json({ count: 2, results: [] }))),
    http.get(providerUrl('/push/vapid-public-key/'), ({ request }) => (answers.key ? answers.key(request) : HttpResponse.json({ public_key: VAPID }))),
    http.post(providerUrl('/users/me/push-subscriptions/'), async ({ request }) => {
      asked.subscribed.push(await request.clone().json())
      asked.authorization.push(request.headers.get('Authorization'))
      return answers.subscribe ? answers.subscribe(request) : HttpResponse.json({ id: 1, service: 'fcm.googleapis.com', created_at: '2026-12-07T12:00:00Z' }, { status: 201 })
    }),
    http.post(providerUrl('/users/me/push-subscriptions/delete/'), async ({ request }) => {
      asked.unsubscribed.push(await request.clone().json())
      return answers.unsubscribe ? answers.unsubscribe(request) : HttpResponse.json({ deleted: true })
    }),
  )
  return asked
}

const load = async (user = demoPatient) => run(settingsLoader, new Request('http://app.test/configuracoes/notificacoes', { headers: { Cookie: await signedIn(user) } }))
const post = async (fields: Record<string, string>, user = demoPatient) => run(settingsAction, formRequest('http://app.test/configuracoes/notificacoes', fields, { Cookie: await signedIn(user) }))
type Result = { result: { initialValue: Record<string, unknown>; error: Record<string, string[]> } }

describe('/configuracoes/notificacoes', () => {
  test("reads the channels, the quiet hours, the user's zone, the browsers counted and the VAPID key", async () => {
    notificationsProvider()
    const loaded = await load({ ...demoPatient, time_zone: 'America/Manaus' })
    expect(loaded.status).toBe(200)
    expect(loaded.headers.get('Cache-Control')).toBe('private, no-store')
    expect(loaded.data).toMatchObject({ settings: saved, timeZone: 'America/Manaus', devices: 2, vapidKey: VAPID })
  })

  test('works without the count and the key; an admin is refused; a visitor signs in first', async () => {
    notificationsProvider({ devices: () => HttpResponse.error(), key: () => HttpResponse.json({ detail: 'down' }, { status: 500 }) })
    expect((await load(demoProfessional)).data).toMatchObject({ settings: saved, devices: null, vapidKey: null })
    expect((await load(demoAdmin)).status).toBe(403)
    const anonymous = await run(settingsLoader, new Request('http://app.test/configuracoes/notificacoes'))
    expect(anonymous.location).toBe('/auth?mode=login&redirectTo=%2Fconfiguracoes%2Fnotificacoes')
  })

  test('saves what the form says: an unticked box is that channel off, blank quiet hours none; then a toast', async () => {
    const asked = notificationsProvider()
    const done = await post({ push: 'on', quiet_start: '', quiet_end: '' })
    expect(done.location).toBe('/configuracoes/notificacoes')
    expect(await toastOf(done)).toMatchObject({ type: 'success', message: { key: 'notifications:saved' } })
    expect(asked.saved).toEqual([{ email: false, push: true, quiet_start: null, quiet_end: null }])
    await post({ email: 'on', quiet_start: '22:30', quiet_end: '06:45:00' })
    expect(asked.saved[1]).toEqual({ email: true, push: false, quiet_start: '22:30', quiet_end: '06:45' })
  })

  test('refuses quiet hours with one end, the same ends or no time, keeping what was typed, without asking the provider', async () => {
    const asked = notificationsProvider()
    const oneEnd = await post({ email: 'on', quiet_start: '22:00', quiet_end: '' })
    expect(oneEnd.status).toBe(400)
    expect(oneEnd.data).toMatchObject({ result: { initialValue: { email: 'on', quiet_start: '22:00' }, error: { quiet_end: ['notifications:errors.bothEnds'] } } })
    expect(((await post({ quiet_start: '22:00', quiet_end: '22:00' })).data as Result).result.error.quiet_end).toEqual(['notifications:errors.same'])
    expect(((await post({ quiet_start: '25:00', quiet_end: '07:00' })).data as Result).result.error.quiet_start).toEqual(['notifications:errors.time'])
    expect(asked.saved).toEqual([])
  })

  test("the provider's refusal, or the provider down, draws the form again with what was typed", async () => {
    notificationsProvider({ save: () => HttpResponse.json({ quiet_end: ['Enter a time as HH:MM.'] }, { status: 400 }) })
    const refused = await post({ email: 'on', quiet_start: '22:00', quiet_end: '07:00' })
    expect(refused.status).toBe(400)
    expect(refused.data).toMatchObject({ result: { initialValue: { email: 'on', quiet_start: '22:00', quiet_end: '07:00' }, error: { quiet_end: ['Informe um horário como 22:00.'] } } })
    notificationsProvider({ save: () => HttpResponse.error(), settings: () => HttpResponse.error() })
    const request = formRequest('http://app.test/configuracoes/notificacoes', { push: 'on', quiet_start: '23:00', quiet_end: '06:00' }, { Cookie: await signedIn() })
    const down = await run(settingsAction, request)
    expect(down.status).toBeGreaterThanOrEqual(400)
    expect((down.data as Result).result.initialValue).toMatchObject({ push: 'on', quiet_start: '23:00', quiet_end: '06:00' })
    expect((down.data as Result).result.error['']).toHaveLength(1)
    // The page drawn around it has the form, never the error page.
    const page = await run(settingsLoader, request)
    expect(page.status).toBe(200)
    expect(page.data).toMatchObject({ settings: null })
  })
})

const subscription = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc:def', keys: { p256dh: `B${'x'.repeat(86)}`, auth: 'y'.repeat(22) } }
const postJson = async (body: unknown, { user = demoPatient, contentType = 'application/json' }: { user?: typeof demoPatient; contentType?: string } = {}) =>
  run(subscriptionAction, new Request('http://app.test/resources/push-subscription', { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'Content-Type': contentType, Cookie: await signedIn(user) } }))

describe('/resources/push-subscription', () => {
  test("forwards this browser's subscription with the session's token, and takes it back", async () => {
    const asked = notificationsProvider()
    const subscribed = await postJson({ intent: 'subscribe', ...subscription })
    expect(subscribed.status).toBe(200)
    expect(subscribed.data).toEqual({ ok: true })
    expect(subscribed.headers.get('Cache-Control')).toBe('private, no-store')
    expect(asked.subscribed).toEqual([subscription])
    expect(asked.authorization[0]).toMatch(/^Bearer /)
    expect(JSON.stringify(subscribed.data)).not.toContain('Bearer')
    expect((await postJson({ intent: 'unsubscribe', endpoint: subscription.endpoint })).data).toEqual({ ok: true })
    expect(asked.unsubscribed).toEqual([{ endpoint: subscription.endpoint }])
  })

  test('refuses what is not a subscription, a form post and an admin, without asking the provider', async () => {
    const asked = notificationsProvider()
    expect((await postJson({ intent: 'subscribe', endpoint: 'nope', keys: subscription.keys })).status).toBe(400)
    expect((await postJson('{not json')).status).toBe(400)
    expect((await postJson({ intent: 'subscribe', ...subscription }, { contentType: 'application/x-www-form-urlencoded' })).status).toBe(415)
    expect((await postJson({ intent: 'subscribe', ...subscription, pad: 'x'.repeat(5000) })).status).toBe(413)
    expect((await postJson({ intent: 'subscribe', ...subscription }, { user: demoAdmin })).status).toBe(403)
    expect(asked.subscribed).toEqual([])
  })

  test("passes on the provider's refusal, says when it is away, and counts a browser already forgotten as done", async () => {
    notificationsProvider({ subscribe: () => HttpResponse.json({ endpoint: ["This is not a browser's push service."] }, { status: 400 }), unsubscribe: () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 }) })
    expect(await postJson({ intent: 'subscribe', ...subscription })).toMatchObject({ status: 400, data: { ok: false, error: 'refused' } })
    expect(await postJson({ intent: 'unsubscribe', endpoint: subscription.endpoint })).toMatchObject({ status: 200, data: { ok: true } })
    notificationsProvider({ subscribe: () => HttpResponse.error() })
    expect(await postJson({ intent: 'subscribe', ...subscription })).toMatchObject({ status: 503, data: { ok: false, error: 'unavailable' } })
  })
})
