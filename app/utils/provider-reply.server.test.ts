import { parseWithZod } from '@conform-to/zod/v4'
import { type TFunction } from 'i18next'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { ProviderError } from '#app/provider/errors.ts'
import { replyToFailure, sameNames } from './provider-reply.server.ts'

const schema = z.object({ email: z.string(), password: z.string(), nickname: z.string() })
const submitted = () => {
  const form = new FormData()
  form.set('email', 'ana@example.com')
  form.set('password', 'secret-typed')
  form.set('nickname', 'Ana')
  return parseWithZod(form, { schema })
}
const t = ((key: string, values?: Record<string, unknown>) => (values ? `${key} ${JSON.stringify(values)}` : key)) as unknown as TFunction
const refused = (fieldErrors: Record<string, string[]>) => new ProviderError({ kind: 'http', status: 400, fieldErrors })

describe('replyToFailure', () => {
  test("the provider's field errors land on their fields, renamed and rewritten as asked; what was typed comes back", () => {
    const error = refused({ email: ['Taken.'], new_password: ['Too common.'], unknown: ['Ignored.'] })
    const { result, init } = replyToFailure(submitted(), error, t, {
      fields: { ...sameNames(['email']), new_password: { field: 'password', messages: (messages) => messages.map((m) => `«${m}»`) } },
      hideFields: ['password'],
    })
    expect(result.error).toEqual({ email: ['Taken.'], password: ['«Too common.»'] })
    expect(result.initialValue).toEqual({ email: 'ana@example.com', nickname: 'Ana' })
    expect(init.status).toBe(400)
  })

  test("field errors the form does not show become the form's message", () => {
    const { result } = replyToFailure(submitted(), refused({ unknown: ['Ignored.'] }), t)
    expect(result.error).toEqual({ '': ['errors.badRequest'] })
  })

  test('a status can have its own message (a refused login, an expired link)', () => {
    const { result } = replyToFailure(submitted(), new ProviderError({ kind: 'http', status: 401 }), t, { statusMessages: { 401: 'errors.loginFailed' } })
    expect(result.error).toEqual({ '': ['errors.loginFailed'] })
  })

  test('the network and throttling rows of the catalogue; a throttle stays a 429 with its wait', () => {
    expect(replyToFailure(submitted(), new ProviderError({ kind: 'network' }), t).result.error).toEqual({ '': ['errors.network'] })
    const throttled = replyToFailure(submitted(), new ProviderError({ kind: 'http', status: 429, retryAfterSeconds: 30 }), t)
    expect(throttled.result.error).toEqual({ '': ['errors.tooManyRequests {"count":30}'] })
    expect(throttled.init.status).toBe(429)
    expect(new Headers(throttled.init.headers).get('Retry-After')).toBe('30')
  })

  test('anything but a provider failure is not its business', () => {
    expect(() => replyToFailure(submitted(), new TypeError('bug'), t)).toThrow('bug')
  })
})
