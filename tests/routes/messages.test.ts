import { HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { loader as listLoader } from '#app/routes/mensagens._index.tsx'
import { signedIn } from '#tests/mocks/appointments.ts'
import { conversationItem, messagesProvider } from '#tests/mocks/messages.ts'
import { run } from '#tests/mocks/route.ts'
import { demoAdmin, demoPatient, demoProfessional } from '#tests/mocks/session.ts'

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
      { id: 5, name: 'Paula Ribeiro', photo: null, closed: false, unread: 2, last: { text: 'Bom dia, Pedro! Como foi a semana?', mine: false, when: 'seg., 30 de nov. de 2026, 12:00', at: '2026-11-30T12:00:00.000Z' } },
      { id: 6, name: '', photo: null, closed: false, unread: 0, last: { text: null, mine: true, when: 'dom., 29 de nov. de 2026, 02:30', at: '2026-11-29T02:30:00.000Z' } },
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
