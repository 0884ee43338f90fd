import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { loader } from '#app/routes/media.$.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'

const VIDEO = new Uint8Array(Array.from({ length: 1000 }, (_, index) => index % 251))
const EXPIRES = '1773165600'
const SIGNATURE = 'ab'.repeat(32)
const SIGNED = `?expires=${EXPIRES}&signature=${SIGNATURE}`

/** What the provider saw of the last request. */
type Seen = { url: URL; method: string; headers: Headers }

/** The provider's /media/lessons/ answering with `answer`; returns what it saw. */
function provider(answer: (seen: Seen) => Response) {
  const seen: Seen[] = []
  providerMock.use(
    http.all(providerUrl('/media/lessons/:file'), ({ request }) => {
      const last = { url: new URL(request.url), method: request.method, headers: request.headers }
      seen.push(last)
      return answer(last)
    }),
  )
  return seen
}

async function load(path: string, init: RequestInit = {}) {
  const url = new URL(path, 'http://app.test')
  const request = new Request(url, init)
  const response = await loader({ params: { '*': url.pathname.replace(/^\/media\//, '') }, request, context: {} })
  return response
}

const videoHeaders = (extra: Record<string, string> = {}) => ({
  'Content-Type': 'video/mp4',
  'Accept-Ranges': 'bytes',
  ETag: '"3e8-18f"',
  'Last-Modified': 'Tue, 10 Mar 2026 12:00:00 GMT',
  'Cache-Control': 'private, max-age=10800',
  'Content-Security-Policy': "default-src 'none'",
  'X-Request-Id': 'provider-request',
  ...extra,
})

describe('/media/* from the provider', () => {
  test('a signed video: only the signature of the query, the range headers in; 206, Content-Range and the body out, streamed', async () => {
    const seen = provider(() => new HttpResponse(VIDEO.slice(100, 200), { status: 206, headers: videoHeaders({ 'Content-Range': 'bytes 100-199/1000', 'Content-Length': '100' }) }))
    const response = await load(`/media/lessons/sono-1.mp4${SIGNED}&other=1&expires=9`, {
      headers: { Range: 'bytes=100-199', 'If-Range': '"3e8-18f"', 'If-None-Match': '"old"', Cookie: '__session=secret', Authorization: 'Bearer x' },
    })
    expect(response.status).toBe(206)
    expect(response.body).toBeInstanceOf(ReadableStream)
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(VIDEO.slice(100, 200))
    expect(Object.fromEntries(response.headers)).toEqual({
      'accept-ranges': 'bytes',
      'cache-control': 'private, max-age=10800',
      'content-length': '100',
      'content-range': 'bytes 100-199/1000',
      'content-type': 'video/mp4',
      etag: '"3e8-18f"',
      'last-modified': 'Tue, 10 Mar 2026 12:00:00 GMT',
    })
    const [request] = seen
    expect(request!.method).toBe('GET')
    expect(request!.url.pathname).toBe('/media/lessons/sono-1.mp4')
    expect([...request!.url.searchParams]).toEqual([['expires', EXPIRES], ['signature', SIGNATURE]])
    expect(request!.headers.get('Range')).toBe('bytes=100-199')
    expect(request!.headers.get('If-Range')).toBe('"3e8-18f"')
    expect(request!.headers.get('If-None-Match')).toBe('"old"')
    expect(request!.headers.get('Cookie')).toBeNull()
    expect(request!.headers.get('Authorization')).toBeNull()
  })

  test('the whole video, 200', async () => {
    provider(() => new HttpResponse(VIDEO, { headers: videoHeaders({ 'Content-Length': '1000' }) }))
    const response = await load(`/media/lessons/sono-1.mp4${SIGNED}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('video/mp4')
    expect(response.headers.get('Content-Length')).toBe('1000')
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(VIDEO)
  })

  test('416 passes with its Content-Range and no body', async () => {
    provider(() => new HttpResponse(null, { status: 416, headers: { 'Content-Range': 'bytes */1000', 'Cache-Control': 'private, max-age=10800' } }))
    const response = await load(`/media/lessons/sono-1.mp4${SIGNED}`, { headers: { Range: 'bytes=5000-' } })
    expect(response.status).toBe(416)
    expect(response.headers.get('Content-Range')).toBe('bytes */1000')
    expect(response.body).toBeNull()
  })

  test("416 and 304 pass whatever type they name (the provider's Node server calls an empty answer text/plain), and nothing of their body", async () => {
    // As the provider answers over its socket: @hono/node-server types a body-less answer.
    const plain = { 'Content-Type': 'text/plain; charset=UTF-8', 'Accept-Ranges': 'bytes', ETag: '"44849-19a"', 'Cache-Control': 'private, max-age=10800', 'X-Request-Id': 'provider-request' }
    provider(() => new HttpResponse('Range Not Satisfiable <script>', { status: 416, headers: { ...plain, 'Content-Range': 'bytes */280649', 'Content-Length': '0' } }))
    const past = await load(`/media/lessons/sono-1.mp4${SIGNED}`, { headers: { Range: 'bytes=999999-1000099' } })
    expect(past.status).toBe(416)
    expect(past.body).toBeNull()
    expect(Object.fromEntries(past.headers)).toEqual({ 'accept-ranges': 'bytes', 'cache-control': 'private, max-age=10800', 'content-length': '0', 'content-range': 'bytes */280649', etag: '"44849-19a"' })
    provider(() => new HttpResponse(null, { status: 304, headers: plain }))
    const unchanged = await load(`/media/lessons/sono-1.mp4${SIGNED}`, { headers: { 'If-None-Match': '"44849-19a"' } })
    expect(unchanged.status).toBe(304)
    expect(unchanged.headers.get('Content-Type')).toBeNull()
    expect(unchanged.headers.get('ETag')).toBe('"44849-19a"')
    // A range the file has still passes as before.
    provider(() => new HttpResponse(VIDEO.slice(0, 10), { status: 206, headers: videoHeaders({ 'Content-Range': 'bytes 0-9/1000', 'Content-Length': '10' }) }))
    const part = await load(`/media/lessons/sono-1.mp4${SIGNED}`, { headers: { Range: 'bytes=0-9' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('Content-Range')).toBe('bytes 0-9/1000')
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(VIDEO.slice(0, 10))
  })

  test('304 passes with its validators and no body', async () => {
    provider(() => new HttpResponse(null, { status: 304, headers: { ETag: '"3e8-18f"', 'Cache-Control': 'private, max-age=10800' } }))
    const response = await load(`/media/lessons/sono-1.mp4${SIGNED}`, { headers: { 'If-None-Match': '"3e8-18f"' } })
    expect(response.status).toBe(304)
    expect(response.headers.get('ETag')).toBe('"3e8-18f"')
    expect(response.body).toBeNull()
  })

  test("the provider's 403 (a bad or expired signature) is a 403, its 404 a 404, anything else a 502", async () => {
    provider(() => HttpResponse.json({ detail: 'This media link is not valid or has expired.' }, { status: 403 }))
    const refused = await load('/media/lessons/sono-1.mp4?expires=1&signature=00')
    expect(refused.status).toBe(403)
    expect(await refused.text()).not.toContain('detail')
    provider(() => HttpResponse.json({ detail: 'Not found.' }, { status: 404 }))
    expect((await load(`/media/lessons/nada.mp4${SIGNED}`)).status).toBe(404)
    provider(() => HttpResponse.json({ detail: 'A server error occurred.' }, { status: 500 }))
    expect((await load(`/media/lessons/sono-1.mp4${SIGNED}`)).status).toBe(502)
  })

  test('an unexpected type is refused: 404', async () => {
    for (const type of ['text/html; charset=utf-8', 'application/json', 'video/webm', 'application/octet-stream', 'text/vtt-evil']) {
      provider(() => new HttpResponse('<script>alert(1)</script>', { headers: { 'Content-Type': type } }))
      const response = await load(`/media/lessons/sono-1.mp4${SIGNED}`)
      expect(response.status, type).toBe(404)
      expect(response.headers.get('Content-Type'), type).not.toBe(type)
    }
    provider(() => new HttpResponse(VIDEO, { headers: {} }))
    expect((await load(`/media/lessons/sono-1.mp4${SIGNED}`)).status).toBe(404)
  })

  test('captions pass as text/vtt, asked for whole (no Range: the compression would gzip a range)', async () => {
    const seen = provider(() => new HttpResponse('WEBVTT\n', { headers: { 'Content-Type': 'text/vtt; charset=utf-8', 'Cache-Control': 'private, max-age=10800' } }))
    const response = await load(`/media/lessons/sono-1.pt.vtt${SIGNED}`, { headers: { Range: 'bytes=0-3', 'If-Range': '"x"', 'If-None-Match': '"y"' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('text/vtt; charset=utf-8')
    expect(await response.text()).toBe('WEBVTT\n')
    expect(seen[0]!.headers.get('Range')).toBeNull()
    expect(seen[0]!.headers.get('If-Range')).toBeNull()
    expect(seen[0]!.headers.get('If-None-Match')).toBe('"y"')
  })

  test('a public poster and a profile photo: images pass, with a default Cache-Control', async () => {
    provider(() => new HttpResponse(new Uint8Array([0xff, 0xd8]), { headers: { 'Content-Type': 'image/jpeg', 'Cache-Control': 'public, max-age=86400' } }))
    const poster = await load('/media/lessons/sono-1.jpg')
    expect(poster.status).toBe(200)
    expect(poster.headers.get('Cache-Control')).toBe('public, max-age=86400')
    providerMock.use(http.get(providerUrl('/media/photos/:name'), () => new HttpResponse(new Uint8Array([1]), { headers: { 'Content-Type': 'image/png' } })))
    const photo = await load('/media/photos/0123456789abcdef0123456789abcdef.png')
    expect(photo.status).toBe(200)
    expect(photo.headers.get('Content-Type')).toBe('image/png')
    expect(photo.headers.get('Cache-Control')).toBe('public, max-age=3600')
  })

  test('HEAD is asked as HEAD and answered with the headers only', async () => {
    const seen = provider(() => new HttpResponse(null, { headers: videoHeaders({ 'Content-Length': '1000' }) }))
    const response = await load(`/media/lessons/sono-1.mp4${SIGNED}`, { method: 'HEAD' })
    expect(seen[0]!.method).toBe('HEAD')
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Length')).toBe('1000')
    expect(response.body).toBeNull()
  })

  test('a video whose visitor leaves ends quietly', async () => {
    // Half the video, then nothing more: the provider is slow.
    provider(
      () =>
        new HttpResponse(
          new ReadableStream({
            start(controller) {
              controller.enqueue(VIDEO.slice(0, 500))
            },
          }),
          { headers: videoHeaders({ 'Content-Length': '1000' }) },
        ),
    )
    const visitor = new AbortController()
    const response = await load(`/media/lessons/sono-1.mp4${SIGNED}`, { signal: visitor.signal })
    const reader = response.body!.getReader()
    expect((await reader.read()).value).toHaveLength(500)
    const next = reader.read()
    visitor.abort()
    expect(await next).toEqual({ done: true, value: undefined })
  })

  test('paths outside /media/ stay out, and nothing is asked of the provider', async () => {
    const seen = provider(() => new HttpResponse(VIDEO, { headers: videoHeaders() }))
    for (const path of ['lessons/../../users/me/', 'lessons/a%2f..%2fb.mp4', 'lessons/a b.mp4']) {
      const request = new Request('http://app.test/media/x')
      expect((await loader({ params: { '*': path }, request, context: {} })).status, path).toBe(404)
    }
    expect(seen).toHaveLength(0)
  })
  test("a message's attachment (decision 0086): its signature in, a PDF passed with its Content-Disposition (saved under its name) and private caching", async () => {
    const PDF = new TextEncoder().encode('%PDF-1.4\n%%EOF\n')
    const seen: URL[] = []
    providerMock.use(
      http.get(providerUrl('/media/messages/:attachment/:viewer'), ({ request }) => {
        seen.push(new URL(request.url))
        return new HttpResponse(PDF, { headers: { 'Content-Type': 'application/pdf', 'Content-Length': String(PDF.length), 'Content-Disposition': `attachment; filename="exame.pdf"; filename*=UTF-8''exame.pdf`, 'Cache-Control': 'private, max-age=1800' } })
      }),
    )
    const response = await load(`/media/messages/32/3${SIGNED}&token=nope`)
    expect(response.status).toBe(200)
    expect(seen[0]!.pathname).toBe('/media/messages/32/3')
    expect(Object.fromEntries(seen[0]!.searchParams)).toEqual({ expires: EXPIRES, signature: SIGNATURE })
    expect(response.headers.get('content-type')).toBe('application/pdf')
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="exame.pdf"; filename*=UTF-8''exame.pdf`)
    expect(response.headers.get('cache-control')).toBe('private, max-age=1800')
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PDF)
  })
})
