import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { requestContextStorage } from '#app/http/request-context.server.ts'
import { commitSession } from '#app/http/session-commit.server.ts'
import { loader as eventsLoader } from '#app/routes/mensagens.$id_.eventos.ts'
import { message, mine } from '#tests/mocks/messages.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { demoAdmin, demoPatient, fakeJwt, sessionCookie, sessionFrom, signedIn } from '#tests/mocks/session.ts'

/**
 * `/mensagens/{id}/eventos` (issue 44, decision 0088) over msw as the provider: the live thread
 * for the page with JavaScript, the provider's stream narrowed to one conversation, in the page's
 * shape, taken up where the browser's Last-Event-ID says.
 */

const encoder = new TextEncoder()
const messageEvent = (data: Record<string, unknown>) => `event: message\nid: ${String(data.id)}\ndata: ${JSON.stringify(data)}\n\n`

/** The provider's stream: these texts, then the end (or, `open`, nothing more until cancelled). */
function providerStream(texts: string[], { open = false, asked = [] as URLSearchParams[], cancelled = { value: false } } = {}) {
  providerMock.use(
    http.get(providerUrl('/messages/stream/'), ({ request }) => {
      asked.push(new URL(request.url).searchParams)
      request.signal.addEventListener('abort', () => (cancelled.value = true))
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const text of texts) controller.enqueue(encoder.encode(text))
          if (!open) controller.close()
        },
        cancel() {
          cancelled.value = true
        },
      })
      return new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'private, no-store' } })
    }),
  )
  return { asked, cancelled }
}

/** The loader as the HTTP layer runs it, its session written into the answer. */
async function open(url: string, { cookie, headers = {}, signal }: { cookie?: string; headers?: Record<string, string>; signal?: AbortSignal } = {}) {
  const request = new Request(`http://app.test${url}`, { headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers }, signal })
  const context = { requestId: 'test', method: 'GET', providerTimings: [] }
  const id = /\/mensagens\/([^/]+)\/eventos/.exec(url)![1]!
  const response = await requestContextStorage.run(context, () => eventsLoader({ request, params: { id }, context: {} }))
  const headersOut = new Headers(response.headers)
  await commitSession(context, headersOut)
  return { response, headers: headersOut }
}

describe('/mensagens/{id}/eventos', () => {
  test("only this conversation's messages and read marks, in the page's shape and the reader's zone, ids only forward, keep-alives kept", async () => {
    const { asked } = providerStream([
      messageEvent(message({ id: 21, text: 'Chegou agora' })),
      // Another conversation of the same person: never here.
      messageEvent(message({ id: 22, conversation_id: 6, text: 'de outra conversa' })),
      `event: read\ndata: ${JSON.stringify({ conversation_id: 6, read_up_to: 22 })}\n\n`,
      ': keep-alive\n\n',
      // A message deleted since comes again with its old id: the cursor stays where it was.
      messageEvent(mine({ id: 11, text: '', deleted: true, can_delete: false })),
      `event: read\ndata: ${JSON.stringify({ conversation_id: 5, read_up_to: 11 })}\n\n`,
      // Cut anywhere, an event is read whole.
      'event: mess',
      `age\nid: 23\ndata: ${JSON.stringify(message({ id: 23, text: 'linha 1\nlinha 2' }))}\n`,
      '\n',
      'event: message\ndata: not json\n\n',
    ])
    const { response, headers } = await open('/mensagens/5/eventos?after=12', { cookie: await signedIn({ ...demoPatient, time_zone: 'Europe/Lisbon' }), headers: { 'Last-Event-ID': '20', 'Accept-Language': 'pt-BR' } })
    expect(response.status).toBe(200)
    expect(headers.get('Content-Type')).toBe('text/event-stream; charset=utf-8')
    expect(headers.get('Cache-Control')).toBe('private, no-store')
    // The browser's reconnect (Last-Event-ID) is newer than the page's cursor: the provider takes up there.
    expect(Object.fromEntries(asked[0]!)).toEqual({ conversation: '5', after: '20' })
    const text = await response.text()
    expect(text).not.toContain('de outra conversa')
    expect(text.startsWith('retry: 2000\n\n')).toBe(true)
    const blocks = text.split('\n\n').filter(Boolean)
    expect(blocks).toEqual([
      'retry: 2000',
      `id: 21\nevent: message\ndata: ${JSON.stringify({ id: 21, mine: false, text: 'Chegou agora', attachments: [], deleted: false, removed: false, read: false, canDelete: false, when: 'seg., 30 de nov. de 2026, 12:00', at: '2026-11-30T12:00:00.000Z' })}`,
      ': keep-alive',
      `event: message\ndata: ${JSON.stringify({ id: 11, mine: true, text: '', attachments: [], deleted: true, removed: false, read: true, canDelete: false, when: 'seg., 30 de nov. de 2026, 11:00', at: '2026-11-30T11:00:00.000Z' })}`,
      `event: read\ndata: ${JSON.stringify({ readUpTo: 11 })}`,
      `id: 23\nevent: message\ndata: ${JSON.stringify({ id: 23, mine: false, text: 'linha 1\nlinha 2', attachments: [], deleted: false, removed: false, read: false, canDelete: false, when: 'seg., 30 de nov. de 2026, 12:00', at: '2026-11-30T12:00:00.000Z' })}`,
    ])
  })

  test('the first open takes up at the page\'s newest message; a cursor that is no id is none', async () => {
    const { asked } = providerStream([])
    await (await open('/mensagens/5/eventos?after=12', { cookie: await signedIn() })).response.text()
    await (await open('/mensagens/5/eventos?after=abc', { cookie: await signedIn(), headers: { 'Last-Event-ID': '-1' } })).response.text()
    expect(asked.map((query) => Object.fromEntries(query))).toEqual([{ conversation: '5', after: '12' }, { conversation: '5' }])
  })

  test('signed out 401 and an admin 403 without asking the provider; no id 404', async () => {
    const { asked } = providerStream([])
    expect((await open('/mensagens/5/eventos')).response.status).toBe(401)
    const admin = await open('/mensagens/5/eventos', { cookie: await signedIn(demoAdmin) })
    expect(admin.response.status).toBe(403)
    expect(admin.headers.get('Cache-Control')).toBe('private, no-store')
    expect((await open('/mensagens/abc/eventos', { cookie: await signedIn() })).response.status).toBe(404)
    expect(asked).toEqual([])
  })

  test("the provider's refusals keep their status (404 not theirs, 429 with its wait), down is 503, anything else 502", async () => {
    const answer = (response: () => Response) => providerMock.use(http.get(providerUrl('/messages/stream/'), response))
    answer(() => HttpResponse.json({ detail: 'Not found.' }, { status: 404 }))
    expect((await open('/mensagens/5/eventos', { cookie: await signedIn() })).response.status).toBe(404)
    answer(() => HttpResponse.json({ detail: 'Request was throttled.' }, { status: 429, headers: { 'Retry-After': '30' } }))
    const throttled = (await open('/mensagens/5/eventos', { cookie: await signedIn() })).response
    expect([throttled.status, throttled.headers.get('Retry-After')]).toEqual([429, '30'])
    answer(() => HttpResponse.error())
    expect((await open('/mensagens/5/eventos', { cookie: await signedIn() })).response.status).toBe(503)
    answer(() => HttpResponse.json({ detail: 'boom' }, { status: 500 }))
    expect((await open('/mensagens/5/eventos', { cookie: await signedIn() })).response.status).toBe(502)
  })

  test('an expired access token is refreshed first (the new one in the cookie), and a refused refresh is 401 with the session cleared', async () => {
    const access = fakeJwt(300, { user_id: 99 })
    const bearer: (string | null)[] = []
    providerMock.use(
      http.post(providerUrl('/authentication/token/refresh/'), () => HttpResponse.json({ access })),
      http.get(providerUrl('/messages/stream/'), ({ request }) => {
        bearer.push(request.headers.get('Authorization'))
        return new HttpResponse('', { headers: { 'Content-Type': 'text/event-stream' } })
      }),
    )
    const expired = await sessionCookie({ access: fakeJwt(-10), refresh: fakeJwt(3600), user: demoPatient })
    const renewed = await open('/mensagens/5/eventos', { cookie: expired })
    expect(renewed.response.status).toBe(200)
    expect(bearer).toEqual([`Bearer ${access}`])
    expect((await sessionFrom(renewed))?.access).toBe(access)

    providerMock.use(
      http.post(providerUrl('/authentication/token/refresh/'), () => HttpResponse.json({ detail: 'Token is invalid or expired' }, { status: 401 })),
      http.get(providerUrl('/messages/stream/'), () => HttpResponse.json({ detail: 'Given token not valid' }, { status: 401 })),
    )
    const ended = await open('/mensagens/5/eventos', { cookie: await signedIn() })
    expect(ended.response.status).toBe(401)
    expect((await sessionFrom(ended))?.cleared).toBe(true)
  })

  test("the browser going away closes the provider's stream", async () => {
    const { cancelled } = providerStream([messageEvent(message({ id: 21 }))], { open: true })
    const controller = new AbortController()
    const { response } = await open('/mensagens/5/eventos', { cookie: await signedIn(), signal: controller.signal })
    const reader = response.body!.getReader()
    let text = ''
    while (!text.includes('id: 21')) text += new TextDecoder().decode((await reader.read()).value)
    controller.abort()
    expect((await reader.read()).done).toBe(true)
    await expect.poll(() => cancelled.value).toBe(true)
  })
})
