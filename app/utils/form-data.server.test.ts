import { describe, expect, it } from 'vitest'
import { MAX_FORM_ENTRIES, MAX_TEXT_VALUE_LENGTH, readFormData } from './form-data.server.ts'

const post = (body: BodyInit | null, type?: string) =>
  new Request('http://localhost/x', { method: 'POST', body, headers: type ? { 'Content-Type': type } : {} })

async function statusOf(promise: Promise<unknown>) {
  try {
    await promise
    return 'resolved'
  } catch (error) {
    return (error as { init?: { status?: number } }).init?.status
  }
}

describe('readFormData', () => {
  it('reads urlencoded and multipart forms', async () => {
    expect((await readFormData(post('a=1&b=2', 'application/x-www-form-urlencoded'))).get('b')).toBe('2')
    const form = new FormData()
    form.set('name', 'Ana')
    expect((await readFormData(new Request('http://localhost/x', { method: 'POST', body: form }))).get('name')).toBe('Ana')
  })

  it('refuses what is not a form with 400', async () => {
    expect(await statusOf(readFormData(post(null)))).toBe(400)
    expect(await statusOf(readFormData(post('{"a":1}', 'application/json')))).toBe(400)
    expect(await statusOf(readFormData(post('<script>', 'text/plain')))).toBe(400)
    expect(await statusOf(readFormData(post('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nopen', 'multipart/form-data; boundary=x')))).toBe(400)
  })
})

describe('readFormData refuses a form too big to handle with 413', () => {
  const baseContext = { requestId: 'r-1', providerTimings: [] }

  it('reads nothing when the HTTP layer already found the body over the limit', async () => {
    const { requestContextStorage } = await import('#app/http/request-context.server.ts')
    const request = post('a=1', 'application/x-www-form-urlencoded')
    const status = await requestContextStorage.run({ ...baseContext, bodyTooLarge: true }, () => statusOf(readFormData(request)))
    expect(status).toBe(413)
    expect(request.bodyUsed).toBe(false)
  })

  it('a chunked body that went over the limit while read is a 413, not a 400', async () => {
    const { requestContextStorage } = await import('#app/http/request-context.server.ts')
    const context = { ...baseContext, bodyTooLarge: false }
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('a=1&b='))
        // What limitedBody does past the limit.
        context.bodyTooLarge = true
        controller.error(new Error('over the limit'))
      },
    })
    const request = new Request('http://localhost/x', { method: 'POST', body, duplex: 'half', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } } as RequestInit)
    expect(await requestContextStorage.run(context, () => statusOf(readFormData(request)))).toBe(413)
  })

  it(`more than ${MAX_FORM_ENTRIES} fields`, async () => {
    const fields = (count: number) => Array.from({ length: count }, (_, index) => `f${index}=x`).join('&')
    expect(await statusOf(readFormData(post(fields(MAX_FORM_ENTRIES), 'application/x-www-form-urlencoded')))).toBe('resolved')
    expect(await statusOf(readFormData(post(fields(MAX_FORM_ENTRIES + 1), 'application/x-www-form-urlencoded')))).toBe(413)
  })

  it('a form with more inputs names its own limit', async () => {
    const fields = (count: number) => Array.from({ length: count }, (_, index) => `f${index}=x`).join('&')
    expect((await readFormData(post(fields(MAX_FORM_ENTRIES + 500), 'application/x-www-form-urlencoded'), { maxEntries: MAX_FORM_ENTRIES + 500 })).get('f0')).toBe('x')
    expect(await statusOf(readFormData(post(fields(MAX_FORM_ENTRIES + 501), 'application/x-www-form-urlencoded'), { maxEntries: MAX_FORM_ENTRIES + 500 }))).toBe(413)
    expect(await statusOf(readFormData(post(`${fields(10)}&long=${'x'.repeat(MAX_TEXT_VALUE_LENGTH + 1)}`, 'application/x-www-form-urlencoded'), { maxEntries: 1000 }))).toBe(413)
  })

  it(`a text value longer than ${MAX_TEXT_VALUE_LENGTH} characters, so that no page echoes it back`, async () => {
    const value = (length: number) => `message=${'x'.repeat(length)}`
    expect(await statusOf(readFormData(post(value(MAX_TEXT_VALUE_LENGTH), 'application/x-www-form-urlencoded')))).toBe('resolved')
    expect(await statusOf(readFormData(post(value(MAX_TEXT_VALUE_LENGTH + 1), 'application/x-www-form-urlencoded')))).toBe(413)
  })

  it('a file is not a text value: a photo larger than that passes', async () => {
    const form = new FormData()
    form.set('photo', new File(['x'.repeat(MAX_TEXT_VALUE_LENGTH * 2)], 'photo.jpg', { type: 'image/jpeg' }))
    expect(await statusOf(readFormData(new Request('http://localhost/x', { method: 'POST', body: form })))).toBe('resolved')
  })
})
