import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { loader as layoutLoader } from '#app/routes/admin.tsx'
import { loader as listLoader } from '#app/routes/admin.users.tsx'
import { action, loader } from '#app/routes/admin.users_.$id/route.tsx'
import { adminHandlers, adminUserAnswer, page } from '#tests/mocks/admin.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { getRequest, run, toastOf } from '#tests/mocks/route.ts'
import { demoAdmin, demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'

/** The admin console's users in the app (issue 26, decision 0059), against msw's provider. */

const NBSP = '\u00a0'
const cookieOf = (user = demoAdmin) => signedIn(user, { checked: true })
const get = async (url: string, user = demoAdmin) => getRequest(url, await cookieOf(user))
/** A form post; a field given a list is sent once per value (checkboxes). */
async function post(url: string, fields: Record<string, string | string[]>, user = demoAdmin) {
  const body = new URLSearchParams()
  for (const [name, value] of Object.entries(fields)) for (const one of Array.isArray(value) ? value : [value]) body.append(name, one)
  return new Request(url, { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: await cookieOf(user) } })
}
const USER_URL = 'http://app.test/admin/users/3'
const params = { id: '3' }

const ACCREDITATION = { intent: 'accredit', profession: 'Nutricionista', registration_number: 'CRN-3 12345', pillars: ['sono', 'alimento'], languages: ['pt'], price: '150,00' }

describe('who sees the admin users', () => {
  test('patients and professionals get 403 from every loader and the action (a `.data` request runs only these); nobody asks the provider', async () => {
    const sent = adminHandlers()
    for (const user of [demoPatient, demoProfessional]) {
      const data = await get('http://app.test/admin/users/3.data', user)
      expect((await run(layoutLoader, data)).status).toBe(403)
      expect((await run(loader, data, params)).status).toBe(403)
      expect((await run(listLoader, await get('http://app.test/admin/users.data', user))).status).toBe(403)
      expect((await run(action, await post(USER_URL, { intent: 'groups', groups: 'admin' }, user), params)).status).toBe(403)
    }
    expect(sent).toEqual([])
  })

  test('a visitor is sent to sign in and comes back', async () => {
    const result = await run(loader, new Request(USER_URL), params)
    expect(result.status).toBe(302)
    expect(result.location).toBe('/auth?mode=login&redirectTo=%2Fadmin%2Fusers%2F3')
  })
})

describe('/admin/users', () => {
  test('filters by state as well, and is never cached', async () => {
    const asked: Record<string, string>[] = []
    providerMock.use(
      http.get(providerUrl('/users/'), ({ request }) => {
        asked.push(Object.fromEntries(new URL(request.url).searchParams))
        return HttpResponse.json(page([{ ...adminUserAnswer(), is_active: false }]))
      }),
    )
    const result = await run(listLoader, await get('http://app.test/admin/users?state=inactive&group=profissional'))
    expect(result.headers.get('Cache-Control')).toBe('private, no-store')
    expect(result.data).toMatchObject({ query: { state: 'inactive', group: 'profissional' }, users: [{ id: 3, name: 'Rafael Costa', role: 'profissional', active: false }] })
    await run(listLoader, await get('http://app.test/admin/users?state=deleted'))
    expect(asked).toEqual([
      { group: 'profissional', state: 'inactive', page: '1', page_size: '20' },
      { page: '1', page_size: '20' },
    ])
  })
})

describe('/admin/users/{id}', () => {
  test('shows the account, the groups, the activity and the accreditation in the page language; never cached', async () => {
    adminHandlers()
    const result = await run(loader, await get(`${USER_URL}?lng=en`), params)
    expect(result.headers.get('Cache-Control')).toBe('private, no-store')
    expect(result.data).toMatchObject({
      self: false,
      user: {
        id: 3,
        name: 'Rafael Costa',
        role: 'profissional',
        groups: ['profissional'],
        active: true,
        upcomingAsProfessional: 3,
        professional: { accredited: true, profession: 'Nutricionista', pillars: ['alimento', 'sono'], pillarNames: ['Nutrition', 'Sleep'], languages: ['pt', 'en'], price: 'R$150.00', typedPrice: '150,00' },
      },
    })
    expect((await run(loader, await get(USER_URL), params)).data).toMatchObject({ user: { professional: { price: `R$${NBSP}150,00` } } })
  })

  test('an unknown user is the 404 page; the provider down, the 503 page', async () => {
    adminHandlers({ detail: () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 }) })
    expect((await run(loader, await get(USER_URL), params)).status).toBe(404)
    adminHandlers({ detail: () => HttpResponse.error() })
    expect((await run(loader, await get(USER_URL), params)).status).toBe(503)
    expect((await run(loader, await get('http://app.test/admin/users/abc'), { id: 'abc' })).status).toBe(404)
  })

  test('the groups: sent in order, told in a toast; none ticked, or the provider refusing, comes back as ticked', async () => {
    const sent = adminHandlers()
    const saved = await run(action, await post(USER_URL, { intent: 'groups', groups: ['paciente', 'profissional'] }), params)
    expect(saved).toMatchObject({ status: 303, location: '/admin/users/3' })
    expect(await toastOf(saved)).toMatchObject({ type: 'success', message: { key: 'admin:user.groupsSaved' } })
    expect(sent).toEqual([{ method: 'PATCH', path: '/users/3/', query: {}, body: { groups: ['profissional', 'paciente'] } }])

    const none = await run(action, await post(USER_URL, { intent: 'groups' }), params)
    expect(none).toMatchObject({ status: 400, data: { intent: 'groups', result: { error: { groups: ['admin:user.validation.groups'] } } } })
    expect(sent).toHaveLength(1)

    adminHandlers({ patch: () => HttpResponse.json({ groups: ['You cannot remove your own admin role.'] }, { status: 400 }) })
    const refused = await run(action, await post(USER_URL, { intent: 'groups', groups: 'paciente' }), params)
    expect(refused).toMatchObject({ status: 400, data: { intent: 'groups', result: { initialValue: { groups: 'paciente' }, error: { groups: ['Você não pode tirar o seu próprio grupo de administrador.'] } } } })
  })

  test('deactivating needs the confirmation ticked; then the account is deactivated and said so', async () => {
    const sent = adminHandlers()
    const unconfirmed = await run(action, await post(USER_URL, { intent: 'activity', active: 'false' }), params)
    expect(unconfirmed).toMatchObject({ status: 400, data: { intent: 'activity', result: { error: { confirm: ['admin:user.validation.confirm'] } } } })
    expect(sent).toEqual([])
    const done = await run(action, await post(USER_URL, { intent: 'activity', active: 'false', confirm: 'on' }), params)
    expect(done.status).toBe(303)
    expect(await toastOf(done)).toMatchObject({ message: { key: 'admin:user.deactivated' } })
    expect(sent).toEqual([{ method: 'PATCH', path: '/users/3/', query: {}, body: { is_active: false } }])
    const again = await run(action, await post(USER_URL, { intent: 'activity', active: 'true', confirm: 'on' }), params)
    expect(await toastOf(again)).toMatchObject({ message: { key: 'admin:user.reactivated' } })

    adminHandlers({ patch: () => HttpResponse.json({ is_active: ['You cannot deactivate your own account.'] }, { status: 400 }) })
    const self = await run(action, await post(USER_URL, { intent: 'activity', active: 'false', confirm: 'on' }, demoAdmin), params)
    expect(self.data).toMatchObject({ result: { error: { '': ['Você não pode desativar a sua própria conta.'] } } })
  })

  test('accrediting sends the price typed in reais as cents, the pillars and languages in order', async () => {
    const sent = adminHandlers()
    const done = await run(action, await post(USER_URL, ACCREDITATION), params)
    expect(done).toMatchObject({ status: 303, location: '/admin/users/3' })
    expect(await toastOf(done)).toMatchObject({ type: 'success', message: { key: 'admin:user.accredited' } })
    expect(sent).toEqual([
      { method: 'PUT', path: '/admin/users/3/accreditation/', query: {}, body: { profession: 'Nutricionista', registration_number: 'CRN-3 12345', pillars: ['alimento', 'sono'], languages: ['pt'], price_cents: 15_000 } },
    ])
    await run(action, await post(USER_URL, { ...ACCREDITATION, price: `R$${NBSP}1.234,5` }), params)
    expect((sent.at(-1)!.body as { price_cents: number }).price_cents).toBe(123_450)
  })

  test('an accreditation the form or the provider refuses comes back as typed, with why; nothing sent when the form refuses', async () => {
    const sent = adminHandlers()
    for (const price of ['', 'abc', '-1', '10.000,01', '1.2345']) {
      const refused = await run(action, await post(USER_URL, { ...ACCREDITATION, price }), params)
      expect(refused.status, price).toBe(400)
      expect(refused.data, price).toMatchObject({ intent: 'accredit', result: { initialValue: { profession: 'Nutricionista', ...(price && { price }) }, error: { price: ['admin:user.validation.price'] } } })
    }
    const empty = await run(action, await post(USER_URL, { intent: 'accredit', profession: ' ', registration_number: 'x'.repeat(51), price: '0' }), params)
    expect(empty.data).toMatchObject({
      result: { error: { profession: ['errors.required'], registration_number: ['validation.tooLong'], pillars: ['admin:user.validation.pillars'], languages: ['admin:user.validation.languages'] } },
    })
    expect(sent).toEqual([])

    adminHandlers({ accredit: () => HttpResponse.json({ registration_number: ['Ensure this field has no more than 50 characters.'] }, { status: 400 }) })
    const field = await run(action, await post(USER_URL, ACCREDITATION), params)
    expect(field.data).toMatchObject({ result: { initialValue: { registration_number: 'CRN-3 12345', pillars: ['sono', 'alimento'] }, error: { registration_number: ['Ensure this field has no more than 50 characters.'] } } })

    adminHandlers({ accredit: () => HttpResponse.json({ detail: 'An admin cannot be accredited as a professional: remove the admin group first.', code: 'is_admin' }, { status: 409 }) })
    const admin = await run(action, await post(USER_URL, ACCREDITATION), params)
    expect(admin).toMatchObject({ status: 400, data: { result: { initialValue: { price: '150,00' }, error: { '': ['Um administrador não pode ser credenciado como profissional: tire o grupo de administrador antes.'] } } } })

    adminHandlers({ accredit: () => HttpResponse.error(), detail: () => HttpResponse.error() })
    const down = await run(action, await post(USER_URL, ACCREDITATION), params)
    expect(down).toMatchObject({ status: 400, data: { result: { initialValue: { profession: 'Nutricionista', price: '150,00' }, error: { '': [expect.stringContaining('conexão')] } } } })
    // The page drawn after it: the provider still away, the form comes back around what was typed.
    const page = await run(loader, await post(USER_URL, ACCREDITATION), params)
    expect(page).toMatchObject({ status: 200, data: { user: null } })
  })

  test('revoking needs a reason; done, the toast says how many appointments were cancelled', async () => {
    const sent = adminHandlers()
    const blank = await run(action, await post(USER_URL, { intent: 'revoke', reason: '  ' }), params)
    expect(blank).toMatchObject({ status: 400, data: { intent: 'revoke', result: { error: { reason: ['admin:user.validation.reason'] } } } })
    const long = await run(action, await post(USER_URL, { intent: 'revoke', reason: 'x'.repeat(501) }), params)
    expect(long.data).toMatchObject({ result: { error: { reason: ['validation.tooLong'] } } })
    expect(sent).toEqual([])

    const done = await run(action, await post(USER_URL, { intent: 'revoke', reason: 'Registro suspenso.' }), params)
    expect(done.status).toBe(303)
    expect(await toastOf(done)).toMatchObject({ type: 'success', message: { key: 'admin:user.revoked', values: { count: 3 } } })
    expect(sent).toEqual([{ method: 'DELETE', path: '/admin/users/3/accreditation/', query: {}, body: { reason: 'Registro suspenso.' } }])

    adminHandlers({ revoke: () => HttpResponse.json({ detail: 'A server error occurred.' }, { status: 500 }) })
    const failed = await run(action, await post(USER_URL, { intent: 'revoke', reason: 'Registro suspenso.' }), params)
    expect(failed).toMatchObject({ status: 400, data: { intent: 'revoke', result: { initialValue: { reason: 'Registro suspenso.' }, error: { '': ['Erro interno do servidor'] } } } })
  })

  test('an unknown intent is a 400', async () => {
    adminHandlers()
    expect((await run(action, await post(USER_URL, { intent: 'delete' }), params)).status).toBe(400)
  })
})
