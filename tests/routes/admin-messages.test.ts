import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { action, loader } from '#app/routes/admin.messages.tsx'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run, toastOf } from '#tests/mocks/route.ts'
import { demoAdmin, demoPatient, signedIn } from '#tests/mocks/session.ts'

/** The toast a response flashes, read back as the next page would. */
const adminCookie = () => signedIn(demoAdmin)

const message: Record<string, unknown> & { handled: boolean; handled_at: string | null } = {
  id: 7,
  name: 'Ana Souza',
  email: 'ana@example.com',
  phone: '+55 11 91234-5678',
  subject: 'partnership',
  message: 'Primeira linha\nSegunda linha',
  handled: false,
  handled_at: null,
  created_at: '2025-03-18T12:00:00.000Z',
}

function listAnswers(results = [message], count = results.length) {
  const queries: URLSearchParams[] = []
  providerMock.use(
    http.get(providerUrl('/contact/'), ({ request }) => {
      const url = new URL(request.url)
      queries.push(url.searchParams)
      if (url.searchParams.get('page') === '9') return HttpResponse.json({ detail: 'Invalid page.' }, { status: 404 })
      return HttpResponse.json({ count, next: null, previous: null, results })
    }),
  )
  return queries
}

type Loaded = { count: number; messages: (typeof message & { receivedAt: string; handledAt: string | null })[]; query: Record<string, unknown> }

describe('/admin/messages loader', () => {
  test('lists the messages with dates in São Paulo time', async () => {
    const queries = listAnswers([message, { ...message, id: 6, handled: true, handled_at: '2025-03-19T01:30:00.000Z' }])
    const result = await run(loader, getRequest('http://app.test/admin/messages', await adminCookie()))
    expect(result.status).toBe(200)
    const loaded = result.data as Loaded
    expect(loaded.count).toBe(2)
    // 12:00 UTC is 09:00 in São Paulo; 01:30 UTC on the 19th is still the 18th there.
    expect(loaded.messages[0]).toMatchObject({ name: 'Ana Souza', receivedAt: '18 mar 2025, 09:00', handledAt: null })
    expect(loaded.messages[1]?.handledAt).toBe('18 mar 2025, 22:30')
    expect(Object.fromEntries(queries[0]!)).toEqual({ page: '1', page_size: '20' })
  })

  test('formats dates in the user language', async () => {
    listAnswers()
    const result = await run(loader, getRequest('http://app.test/admin/messages?lng=en', await adminCookie()))
    expect((result.data as Loaded).messages[0]?.receivedAt).toBe('Mar 18, 2025, 9:00 AM')
  })

  test('passes search, subject, handled and page on; ignores values it does not know', async () => {
    const queries = listAnswers()
    const cookie = await adminCookie()
    await run(loader, getRequest('http://app.test/admin/messages?search=%20parceria%20&subject=partnership&handled=false&page=2', cookie))
    expect(Object.fromEntries(queries[0]!)).toEqual({ search: 'parceria', subject: 'partnership', handled: 'false', page: '2', page_size: '20' })
    await run(loader, getRequest('http://app.test/admin/messages?subject=doctor&handled=maybe&page=-1', cookie))
    expect(Object.fromEntries(queries[1]!)).toEqual({ page: '1', page_size: '20' })
  })

  test('a page past the end goes back to the first page with the same filters', async () => {
    listAnswers()
    const result = await run(loader, getRequest('http://app.test/admin/messages?handled=false&page=9', await adminCookie()))
    expect(result.status).toBe(302)
    expect(result.location).toBe('/admin/messages?handled=false')
  })

  test('a patient gets 403 and a visitor the sign-in page', async () => {
    const patient = await signedIn(demoPatient)
    expect((await run(loader, getRequest('http://app.test/admin/messages', patient))).status).toBe(403)
    const visitor = await run(loader, new Request('http://app.test/admin/messages'))
    expect(visitor.location).toBe('/auth?mode=login&redirectTo=%2Fadmin%2Fmessages')
  })

  test('the provider being down is the network error page', async () => {
    providerMock.use(http.get(providerUrl('/contact/'), () => HttpResponse.error()))
    const result = await run(loader, getRequest('http://app.test/admin/messages', await adminCookie()))
    expect(result.status).toBe(503)
  })
})

describe('/admin/messages action', () => {
  function patchAnswers(answer?: () => Response) {
    const patches: { id: string; body: unknown }[] = []
    providerMock.use(
      http.patch(providerUrl('/contact/:id/'), async ({ request, params }) => {
        const body = (await request.json()) as { handled: boolean }
        patches.push({ id: String(params.id), body })
        return answer ? answer() : HttpResponse.json({ ...message, handled: body.handled })
      }),
    )
    return patches
  }

  test('marks a message handled, then open, and comes back to the same filtered list', async () => {
    const patches = patchAnswers()
    const cookie = await adminCookie()
    const handled = await run(action, formRequest('http://app.test/admin/messages?subject=partnership&page=2', { intent: 'mark-handled', id: '7' }, { Cookie: cookie }))
    expect(handled.status).toBe(303)
    expect(handled.location).toBe('/admin/messages?subject=partnership&page=2')
    expect(await toastOf(handled)).toMatchObject({ type: 'success', message: { key: 'admin:messages.markedHandled' } })
    const reopened = await run(action, formRequest('http://app.test/admin/messages', { intent: 'mark-open', id: '7' }, { Cookie: cookie }))
    expect(reopened.location).toBe('/admin/messages')
    expect(patches).toEqual([
      { id: '7', body: { handled: true } },
      { id: '7', body: { handled: false } },
    ])
  })

  test('an unknown intent or id is a bad request', async () => {
    const patches = patchAnswers()
    const cookie = await adminCookie()
    expect((await run(action, formRequest('http://app.test/admin/messages', { intent: 'delete', id: '7' }, { Cookie: cookie }))).status).toBe(400)
    expect((await run(action, formRequest('http://app.test/admin/messages', { intent: 'mark-open', id: 'x' }, { Cookie: cookie }))).status).toBe(400)
    expect(patches).toEqual([])
  })

  test('a provider failure comes back as an error toast', async () => {
    patchAnswers(() => HttpResponse.json({ detail: 'Not found.' }, { status: 404 }))
    const result = await run(action, formRequest('http://app.test/admin/messages', { intent: 'mark-handled', id: '99' }, { Cookie: await adminCookie() }))
    expect(result.status).toBe(303)
    expect(result.location).toBe('/admin/messages')
    expect(await toastOf(result)).toMatchObject({ type: 'error', message: { text: 'Recurso não encontrado' } })
  })

  test('only admins may change a message', async () => {
    const patches = patchAnswers()
    const patient = await signedIn(demoPatient)
    const result = await run(action, formRequest('http://app.test/admin/messages', { intent: 'mark-handled', id: '7' }, { Cookie: patient }))
    expect(result.status).toBe(403)
    expect(patches).toEqual([])
  })
})
