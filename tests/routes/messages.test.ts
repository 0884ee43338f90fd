import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { loader as rootLoader } from '#app/root.tsx'
import { loader as listLoader } from '#app/routes/mensagens._index.tsx'
import { action as threadAction, loader as threadLoader } from '#app/routes/mensagens.$id/route.tsx'
import { getToast } from '#app/utils/toast.server.ts'
import { conversation, conversationItem, message, messagesProvider } from '#tests/mocks/messages.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, run } from '#tests/mocks/route.ts'
import { demoAdmin, demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'

/**
 * The messages pages (issue 44) over msw as the provider: the conversations, the thread and its
 * send, read and delete, and the links that open a conversation with someone.
 */

const get = async (url: string, user = demoPatient, params: Record<string, string> = {}) => run(listLoader, new Request(`http://app.test${url}`, { headers: { Cookie: await signedIn(user) } }), params)

type Listed = {
  count: number
  page: number
  conversations: { id: number; name: string; photo: string | null; unread: number; closed: boolean; last: { text: string | null; mine: boolean; when: string } | null }[]
}

describe('/mensagens', () => {
  test("lists the member's conversations with the other's name, the last message's first words, its time in the viewer's zone and the unread count", async () => {
    const long = 'um dois três quatro cinco seis sete oito nove dez onze doze treze catorze'
    const asked = messagesProvider({
      list: () =>
        HttpResponse.json({
          count: 3,
          next: null,
          previous: null,
          results: [
            conversationItem(),
            conversationItem({ id: 6, other: { id: 9, first_name: '', last_name: '', photo: null }, unread_count: 0, last_message: { id: 20, preview: '', deleted: true, mine: true, sent_at: '2026-11-29T02:30:00.000Z' } }),
            conversationItem({ id: 7, unread_count: 0, closed: true, last_message: null }),
          ],
        }),
    })
    const loaded = await get('/mensagens', { ...demoPatient, time_zone: 'Europe/Lisbon' })
    expect(loaded.status).toBe(200)
    expect(loaded.headers.get('Cache-Control')).toBe('private, no-store')
    expect(Object.fromEntries(asked.list[0]!)).toEqual({ page: '1', page_size: '20' })
    const data = loaded.data as Listed
    expect(data.count).toBe(3)
    // 12:00 UTC is 12:00 in Lisbon; 02:30 UTC on the 29th is 02:30 there.
    expect(data.conversations).toEqual([
      { id: 5, name: 'Paula Ribeiro', photo: null, closed: false, unread: 2, last: { text: 'Bom dia, Pedro! Como foi a semana?', files: 0, mine: false, when: 'seg., 30 de nov. de 2026, 12:00', at: '2026-11-30T12:00:00.000Z' } },
      { id: 6, name: '', photo: null, closed: false, unread: 0, last: { text: null, files: 0, mine: true, when: 'dom., 29 de nov. de 2026, 02:30', at: '2026-11-29T02:30:00.000Z' } },
      { id: 7, name: 'Paula Ribeiro', photo: null, closed: true, unread: 0, last: null },
    ])
    messagesProvider({ list: () => HttpResponse.json({ count: 1, next: null, previous: null, results: [conversationItem({ last_message: { id: 1, preview: long, deleted: false, mine: false, sent_at: '2026-11-30T12:00:00.000Z' } })] }) })
    expect(((await get('/mensagens')).data as Listed).conversations[0]!.last!.text).toBe('um dois três quatro cinco seis sete oito nove dez onze doze…')
  })

  test('a page past the end shows the last one; an empty list is a page too', async () => {
    const asked = messagesProvider({
      list: (request) => (new URL(request.url).searchParams.get('page') === '4' ? HttpResponse.json({ detail: 'Invalid page.' }, { status: 404 }) : HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
    })
    const loaded = await get('/mensagens?page=4', demoProfessional)
    expect(loaded.status).toBe(200)
    expect(asked.list.map((query) => query.get('page'))).toEqual(['4', 'last'])
    expect(loaded.data).toMatchObject({ count: 0, page: 1, conversations: [] })
  })

  test('an admin is refused without asking the provider; a signed-out visitor signs in first', async () => {
    const asked = messagesProvider()
    expect((await get('/mensagens', demoAdmin)).status).toBe(403)
    expect(asked.list).toEqual([])
    const anonymous = await run(listLoader, new Request('http://app.test/mensagens'))
    expect(anonymous.location).toBe('/auth?mode=login&redirectTo=%2Fmensagens')
  })

  test('the provider down is the network page, its refusal its status', async () => {
    messagesProvider({ list: () => HttpResponse.error() })
    expect((await get('/mensagens')).status).toBe(503)
    messagesProvider({ list: () => HttpResponse.json({ detail: 'Forbidden.' }, { status: 403 }) })
    expect((await get('/mensagens')).status).toBe(403)
  })

  test('?com= opens the conversation with that person, made now or the existing one; no care link is the not-found page', async () => {
    const asked = messagesProvider()
    const started = await get(`/mensagens?com=${demoProfessional.id}`)
    expect(started.status).toBe(302)
    expect(started.location).toBe('/mensagens/5')
    expect(asked.start).toEqual([{ with: demoProfessional.id }])
    expect(asked.list).toEqual([])
    messagesProvider({ start: () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 }) })
    expect((await get('/mensagens?com=99')).status).toBe(404)
    const none = messagesProvider()
    expect((await get('/mensagens?com=abc')).status).toBe(404)
    expect(none.start).toEqual([])
  })
})

type ThreadData = {
  id: number
  idempotencyKey: string
  thread: {
    name: string
    closed: boolean
    live: boolean
    older: string | null
    messages: { id: number; mine: boolean; text: string; deleted: boolean; removed: boolean; read: boolean; canDelete: boolean; when: string }[]
  } | null
}

const openThread = async (url = '/mensagens/5', user = demoPatient) => run(threadLoader, new Request(`http://app.test${url}`, { headers: { Cookie: await signedIn(user) } }), { id: url.split('/')[2]!.split('?')[0]! })

const post = async (fields: Record<string, string>, user = demoPatient) => run(threadAction, formRequest('http://app.test/mensagens/5', fields, { Cookie: await signedIn(user) }), { id: '5' })

/** The toast a response flashes, read back as the next page would. */
async function toastOf(response: { headers: Headers }) {
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('innera_toast='))
  return (await getToast(new Request('http://app.test/', { headers: { Cookie: cookie?.split(';')[0] ?? '' } }))).toast
}

const KEY = '0b6f6f3e-1d3a-4c55-9a43-6a1c1e9e2f10'

describe('/mensagens/{id}', () => {
  test('reads the newest page, oldest first, and marks the newest message read in the same call; the older page is a link', async () => {
    const asked = messagesProvider()
    const loaded = await openThread()
    expect(loaded.status).toBe(200)
    expect(loaded.headers.get('Cache-Control')).toBe('private, no-store')
    // One provider call, not a read mark after the read (decision 0088).
    expect(Object.fromEntries(asked.thread[0]!)).toEqual({ mark_read: '1' })
    expect(asked.read).toEqual([])
    const data = loaded.data as ThreadData
    expect(data.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
    expect(data.thread).toMatchObject({ name: 'Paula Ribeiro', closed: false, live: true, older: '/mensagens/5?antes=3' })
    expect(data.thread!.messages).toEqual([
      { id: 11, mine: true, text: 'Oi, Paula.\nDormi melhor: https://example.org/sono.', attachments: [], deleted: false, removed: false, read: true, canDelete: true, when: 'seg., 30 de nov. de 2026, 08:00', at: '2026-11-30T11:00:00.000Z' },
      { id: 12, mine: false, text: 'Bom dia, Pedro! Como foi a semana?', attachments: [], deleted: false, removed: false, read: false, canDelete: false, when: 'seg., 30 de nov. de 2026, 09:00', at: '2026-11-30T12:00:00.000Z' },
    ])
    // Each render its own key.
    expect(((await openThread()).data as ThreadData).idempotencyKey).not.toBe(data.idempotencyKey)
  })

  test('an older page is read with its cursor and marks nothing; a deleted one shows as such', async () => {
    const asked = messagesProvider({ thread: () => HttpResponse.json({ conversation: conversation({ other: { id: null, first_name: '', last_name: '', photo: null } }), messages: [message({ id: 2, text: '', deleted: true })], older: null }) })
    const loaded = await openThread('/mensagens/5?antes=3')
    expect(Object.fromEntries(asked.thread[0]!)).toEqual({ before: '3' })
    expect(asked.read).toEqual([])
    const data = loaded.data as ThreadData
    // An older page is not kept live: new messages belong to the newest.
    expect(data.thread).toMatchObject({ name: '', live: false, older: null, messages: [{ id: 2, deleted: true }] })
  })

  test("someone else's or no conversation is the not-found page; an admin is refused; the provider down is the network page", async () => {
    messagesProvider({ thread: () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 }) })
    expect((await openThread()).status).toBe(404)
    expect((await openThread('/mensagens/abc')).status).toBe(404)
    expect((await openThread('/mensagens/5', demoAdmin)).status).toBe(403)
    messagesProvider({ thread: () => HttpResponse.error() })
    expect((await openThread()).status).toBe(503)
  })

  test('sending posts the text and its key and comes back to the thread, at the message, with no toast', async () => {
    const asked = messagesProvider()
    const sent = await post({ intent: 'send', text: '  Obrigado!\nAté quinta.  ', idempotency_key: KEY })
    expect(sent.status).toBe(302)
    expect(sent.location).toBe('/mensagens/5#mensagem-13')
    expect(asked.sent).toEqual([{ text: 'Obrigado!\nAté quinta.', idempotency_key: KEY }])
    expect(await toastOf(sent)).toBeNull()
  })

  test('sent by the page\'s script (via=fetcher): answered with the message as the page draws it, no redirect; refusals as without', async () => {
    const asked = messagesProvider()
    const sent = await post({ intent: 'send', text: 'Até quinta.', idempotency_key: KEY, via: 'fetcher' })
    expect(sent.status).toBe(201)
    expect(sent.location).toBeNull()
    expect(sent.data).toEqual({ sent: { id: 13, mine: true, text: 'Até quinta.', attachments: [], deleted: false, removed: false, read: false, canDelete: true, when: 'seg., 30 de nov. de 2026, 08:00', at: '2026-11-30T11:00:00.000Z' } })
    expect(asked.sent).toEqual([{ text: 'Até quinta.', idempotency_key: KEY }])
    messagesProvider({ send: () => HttpResponse.json({ detail: 'Request was throttled.' }, { status: 429, headers: { 'Retry-After': '120' } }) })
    const throttled = await post({ intent: 'send', text: 'Oi', idempotency_key: KEY, via: 'fetcher' })
    expect(throttled.status).toBe(429)
    expect((throttled.data as { result: { error: Record<string, string[]> } }).result.error['']![0]).toMatch(/2 minutos/)
  })

  test('the page\'s script marks what it showed read (intent=read), never answered by a redirect', async () => {
    const asked = messagesProvider()
    const read = await post({ intent: 'read', up_to: '14' })
    expect([read.status, read.data]).toEqual([200, { readUpTo: 14 }])
    expect(asked.read).toEqual([{ up_to: 14 }])
    expect((await post({ intent: 'read', up_to: 'x' })).status).toBe(400)
    messagesProvider({ read: () => HttpResponse.error() })
    expect(await post({ intent: 'read', up_to: '14' })).toMatchObject({ status: 503, data: { readFailed: true } })
    messagesProvider({ read: () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 }) })
    expect((await post({ intent: 'read', up_to: '14' })).status).toBe(404)
  })

  test('a blank or too long text is refused before the provider, with what was typed', async () => {
    const asked = messagesProvider()
    const blank = await post({ intent: 'send', text: '   ', idempotency_key: KEY })
    expect(blank.status).toBe(400)
    expect(blank.data).toMatchObject({ result: { error: { text: ['messages:thread.required'] } } })
    const long = 'a'.repeat(4001)
    const tooLong = await post({ intent: 'send', text: long, idempotency_key: KEY })
    expect(tooLong.status).toBe(400)
    expect(tooLong.data).toMatchObject({ result: { initialValue: { text: long, idempotency_key: KEY }, error: { text: ['messages:thread.tooLong'] } } })
    expect(asked.sent).toEqual([])
  })

  test('throttled: a 429 with its wait told, and the text and key kept for the same message', async () => {
    messagesProvider({ send: () => HttpResponse.json({ detail: 'Request was throttled.' }, { status: 429, headers: { 'Retry-After': '120' } }) })
    const throttled = await post({ intent: 'send', text: 'Oi', idempotency_key: KEY })
    expect(throttled.status).toBe(429)
    expect(throttled.headers.get('Retry-After')).toBe('120')
    const result = (throttled.data as { result: { initialValue: Record<string, string>; error: Record<string, string[]> } }).result
    expect(result.initialValue).toMatchObject({ text: 'Oi', idempotency_key: KEY })
    expect(result.error['']![0]).toMatch(/2 minutos/)
  })

  test('a closed conversation, the provider down or a refused text say so, the text kept', async () => {
    messagesProvider({ send: () => HttpResponse.json({ detail: 'This conversation is closed.', code: 'conversation_closed' }, { status: 400 }) })
    const closed = await post({ intent: 'send', text: 'Oi', idempotency_key: KEY })
    expect(closed.status).toBe(400)
    expect(closed.data).toMatchObject({ result: { initialValue: { text: 'Oi' }, error: { '': ['Esta conversa foi encerrada e não recebe novas mensagens.'] } } })
    messagesProvider({ send: () => HttpResponse.error() })
    const down = await post({ intent: 'send', text: 'Oi', idempotency_key: KEY })
    expect(down.status).toBe(400)
    expect(down.data).toMatchObject({ result: { initialValue: { text: 'Oi', idempotency_key: KEY } } })
    messagesProvider({ send: () => HttpResponse.json({ text: ['Ensure this field has no more than 4000 characters.'] }, { status: 400 }) })
    expect((await post({ intent: 'send', text: 'Oi', idempotency_key: KEY })).data).toMatchObject({ result: { error: { text: ['messages:thread.tooLong'] } } })
  })

  test('with the provider down, the page drawn again after a refused send has the form without the thread, never the error page', async () => {
    messagesProvider({ send: () => HttpResponse.error(), thread: () => HttpResponse.error() })
    const request = formRequest('http://app.test/mensagens/5', { intent: 'send', text: 'Oi', idempotency_key: KEY }, { Cookie: await signedIn() })
    const refused = await run(threadAction, request, { id: '5' })
    expect(refused.status).toBe(400)
    // The same request's page: Remix runs the loader after the action.
    const page = await run(threadLoader, request, { id: '5' })
    expect(page.status).toBe(200)
    expect(page.data).toMatchObject({ id: 5, thread: null })
  })

  test('deleting one\'s own message comes back with a toast; too late says why', async () => {
    const asked = messagesProvider()
    const deleted = await post({ intent: 'delete', message: '11' })
    expect(deleted.location).toBe('/mensagens/5')
    expect(asked.deleted).toEqual(['11'])
    expect(await toastOf(deleted)).toMatchObject({ type: 'success', message: { key: 'message-replies:thread.deleted' } })
    messagesProvider({ delete: () => HttpResponse.json({ detail: 'Too late.' }, { status: 400 }) })
    const late = await post({ intent: 'delete', message: '11' })
    expect(await toastOf(late)).toMatchObject({ type: 'error', message: { text: expect.stringContaining('15 minutos') } })
    expect((await post({ intent: 'delete', message: 'x' })).status).toBe(400)
  })
})

describe('the navigation’s unread count', () => {
  // The root loader fetches the signed-in user first (docs/product.md §4).
  const me = (user: typeof demoPatient) => providerMock.use(http.get(providerUrl('/users/me/'), () => HttpResponse.json(user)))
  const root = async (user = demoPatient) => {
    me(user)
    return (await run(rootLoader, new Request('http://app.test/dashboard', { headers: { Cookie: await signedIn(user) } }))).data as { user: { unread: number | null } | null }
  }

  test('patients and professionals get it from the provider; admins are not asked', async () => {
    const asked = messagesProvider({ unread: () => HttpResponse.json({ unread: 3 }) })
    expect((await root()).user?.unread).toBe(3)
    expect((await root(demoProfessional)).user?.unread).toBe(3)
    expect(asked.unread).toBe(2)
    expect((await root(demoAdmin)).user?.unread).toBeNull()
    expect(asked.unread).toBe(2)
  })

  test('a failed count only leaves the badge out', async () => {
    messagesProvider({ unread: () => HttpResponse.error() })
    me(demoPatient)
    const failed = await run(rootLoader, new Request('http://app.test/dashboard', { headers: { Cookie: await signedIn() } }))
    expect(failed.status).toBe(200)
    expect((failed.data as { user: { unread: number | null } }).user.unread).toBeNull()
    messagesProvider({ unread: () => HttpResponse.json({ detail: 'boom' }, { status: 500 }) })
    expect((await root()).user?.unread).toBeNull()
  })
})
