import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { action, loader } from '#app/routes/contato.tsx'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run } from '#tests/mocks/route.ts'
import { demoPatient, signedIn } from '#tests/mocks/session.ts'

type Reply = { result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> } }

const good: Record<string, string> = {
  name: 'Ana Souza',
  email: 'ana@example.com',
  phone: '+55 11 91234-5678',
  subject: 'partnership',
  message: 'Gostaríamos de conversar\nsobre uma parceria.',
}

/** Records what reaches POST /contact/ and answers like the provider. */
function contactAnswers(answer: () => Response = () => HttpResponse.json({ id: 1, detail: 'Thank you.' }, { status: 201 })) {
  const received: { body: unknown; forwardedFor: string | null }[] = []
  providerMock.use(
    http.post(providerUrl('/contact/'), async ({ request }) => {
      received.push({ body: await request.json(), forwardedFor: request.headers.get('x-forwarded-for') })
      return answer()
    }),
  )
  return received
}

const post = (fields: Record<string, string>, headers: Record<string, string> = {}) => run(action, formRequest('http://app.test/contato', fields, headers))

describe('the contact form action', () => {
  test('sends the message to the provider, then back to /contato with a success toast', async () => {
    const received = contactAnswers()
    const result = await post({ ...good, name: '  Ana Souza ', website: '' })
    expect(received.map((call) => call.body)).toEqual([{ ...good }])
    expect(result.status).toBe(303)
    expect(result.location).toBe('/contato')
    expect(result.headers.get('Set-Cookie')).toMatch(/^innera_toast=/)
  })

  test('the phone may be left out', async () => {
    const received = contactAnswers()
    await post({ ...good, phone: '' })
    expect(received[0]?.body).toMatchObject({ phone: '' })
  })

  test.each([
    ['name', 'empty', '', 'errors.required'],
    ['name', 'too long', 'x'.repeat(151), 'validation.tooLong'],
    ['email', 'empty', '', 'errors.required'],
    ['email', 'malformed', 'ana@example', 'errors.invalidEmail'],
    ['phone', 'with letters', 'call me', 'validation.phone'],
    ['phone', 'too long', '1'.repeat(31), 'validation.tooLong'],
    ['subject', 'not chosen', '', 'errors.required'],
    ['subject', 'unknown', 'doctor', 'contact:validation.subject'],
    ['message', 'empty', '', 'errors.required'],
    ['message', 'too short', 'too short', 'contact:validation.messageTooShort'],
    ['message', 'too long', 'x'.repeat(5001), 'contact:validation.messageTooLong'],
  ])('a bad %s (%s) is refused before the provider is asked, keeping the other values', async (field, _case, value, key) => {
    const received = contactAnswers()
    const result = await post({ ...good, [field]: value })
    expect(result.status).toBe(400)
    const reply = result.data as Reply
    expect(reply.result.error).toEqual({ [field]: [key] })
    const { [field]: _bad, ...others } = good
    expect(reply.result.initialValue).toMatchObject(others)
    expect(received).toEqual([])
  })

  test('a filled honeypot is refused with a generic message and never reaches the provider', async () => {
    const received = contactAnswers()
    const result = await post({ ...good, website: 'https://spam.example' })
    expect(result.status).toBe(400)
    expect((result.data as Reply).result.error?.['']).toEqual(['Não foi possível enviar o formulário'])
    expect(received).toEqual([])
  })

  test('the provider throttling stays a 429 and says, in Portuguese, how long to wait', async () => {
    contactAnswers(() =>
      HttpResponse.json({ detail: 'Request was throttled. Expected available in 1800 seconds.' }, { status: 429, headers: { 'Retry-After': '1800' } }),
    )
    const result = await post(good)
    expect(result.status).toBe(429)
    expect(result.headers.get('Retry-After')).toBe('1800')
    const reply = result.data as Reply
    expect(reply.result.error?.['']).toEqual(['Muitas tentativas. Tente novamente em 30 minutos.'])
    expect(reply.result.initialValue).toMatchObject(good)
  })

  test('the visitor address is forwarded so the provider throttles visitors, not the app', async () => {
    const received = contactAnswers()
    const { requestContextStorage } = await import('#app/http/request-context.server.ts')
    await requestContextStorage.run({ requestId: 'r-1', clientAddress: '203.0.113.9', providerTimings: [] }, () => post(good))
    expect(received[0]?.forwardedFor).toBe('203.0.113.9')
  })

  test('a network failure keeps every typed value and says what happened', async () => {
    providerMock.use(http.post(providerUrl('/contact/'), () => HttpResponse.error()))
    const result = await post(good)
    expect(result.status).toBe(400)
    const reply = result.data as Reply
    expect(reply.result.error?.['']).toEqual(['Erro de conexão. Verifique sua internet e configurações.'])
    expect(reply.result.initialValue).toEqual(good)
  })

  test('a provider failure is told in the user language', async () => {
    contactAnswers(() => HttpResponse.json({ detail: 'boom' }, { status: 500 }))
    const result = await post(good, { 'Accept-Language': 'en' })
    expect((result.data as Reply).result.error?.['']).toEqual(['Internal server error'])
  })

  test('provider field errors land on their fields, in our words', async () => {
    contactAnswers(() => HttpResponse.json({ email: ['Enter a valid email address.'], phone: ['Enter a valid phone number.'] }, { status: 400 }))
    const result = await post(good)
    const reply = result.data as Reply
    expect(reply.result.error).toEqual({ email: ['errors.invalidEmail'], phone: ['validation.phone'] })
    expect(reply.result.initialValue).toMatchObject(good)
  })
})

describe('the contact page loader', () => {
  test('has a translated title and empty defaults for visitors', async () => {
    const result = await run(loader, new Request('http://app.test/contato?lng=es'))
    expect(result.data).toMatchObject({ meta: { title: 'Contacto · Innera' }, defaults: { name: '', email: '' } })
  })

  test('fills in the name and e-mail of a signed-in user', async () => {
    const cookie = await signedIn(demoPatient)
    const result = await run(loader, getRequest('http://app.test/contato', cookie))
    expect(result.data).toMatchObject({ defaults: { name: 'Pedro Santos', email: 'paciente@innera.local' } })
  })
})
