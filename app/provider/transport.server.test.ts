import { http, HttpResponse, delay } from 'msw'
import { describe, expect, test } from 'vitest'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { ExchangeTimeout, exchange } from './transport.server.ts'

describe('the provider exchange', () => {
  test('sends the method, headers and a JSON body, and answers status, headers and text', async () => {
    providerMock.use(
      http.patch(providerUrl('/echo/'), async ({ request }) =>
        HttpResponse.json({ body: await request.json(), auth: request.headers.get('authorization'), type: request.headers.get('content-type') }, { status: 201, headers: { 'Retry-After': '7' } }),
      ),
    )
    const answer = await exchange(new URL(providerUrl('/echo/')), {
      method: 'PATCH',
      headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
      body: JSON.stringify({ nome: 'Ação' }),
      timeoutMs: 1_000,
    })
    expect(answer.status).toBe(201)
    expect(answer.headers['retry-after']).toBe('7')
    expect(JSON.parse(answer.text)).toEqual({ body: { nome: 'Ação' }, auth: 'Bearer t', type: 'application/json' })
  })

  test('sends a form with a file as multipart, boundary and all', async () => {
    providerMock.use(
      http.patch(providerUrl('/upload/'), async ({ request }) => {
        const form = await request.formData()
        const photo = form.get('photo') as File
        return HttpResponse.json({ name: form.get('first_name'), file: photo.name, size: photo.size, type: photo.type })
      }),
    )
    const form = new FormData()
    form.set('first_name', 'Paula')
    form.set('photo', new File([new Uint8Array(2048).fill(7)], 'me.png', { type: 'image/png' }))
    const answer = await exchange(new URL(providerUrl('/upload/')), { method: 'PATCH', headers: {}, body: form, timeoutMs: 1_000 })
    expect(JSON.parse(answer.text)).toEqual({ name: 'Paula', file: 'me.png', size: 2048, type: 'image/png' })
  })

  test('gives up after its timeout, and at once when the caller aborts', async () => {
    providerMock.use(
      http.get(providerUrl('/slow/'), async () => {
        await delay(1_000)
        return HttpResponse.json({})
      }),
    )
    await expect(exchange(new URL(providerUrl('/slow/')), { method: 'GET', headers: {}, timeoutMs: 50 })).rejects.toBeInstanceOf(ExchangeTimeout)
    const controller = new AbortController()
    const pending = exchange(new URL(providerUrl('/slow/')), { method: 'GET', headers: {}, signal: controller.signal, timeoutMs: 5_000 })
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
    await expect(exchange(new URL(providerUrl('/slow/')), { method: 'GET', headers: {}, signal: controller.signal, timeoutMs: 5_000 })).rejects.toMatchObject({ name: 'AbortError' })
  })
})
