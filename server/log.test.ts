import { DrizzleQueryError } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { errorFields, redactPath } from '#server/log.ts'

describe('redactPath', () => {
  it('hides the uid and token of e-mailed links', () => {
    expect(redactPath('/users/password-reset-confirm/MTI/cn4xyz-0123456789abcdef/')).toBe('/users/password-reset-confirm/[redacted]/[redacted]/')
    expect(redactPath('/users/confirm-email/MTI/cn4xyz-0123456789abcdef/')).toBe('/users/confirm-email/[redacted]/[redacted]/')
  })

  it('also hides them in near-misses that did not route', () => {
    expect(redactPath('/users/confirm-email/MTI/tok')).toBe('/users/confirm-email/[redacted]/[redacted]')
    expect(redactPath('/users/confirm-email/MTI/')).toBe('/users/confirm-email/[redacted]/')
    expect(redactPath('/USERS/Confirm-Email/MTI/tok/extra')).toBe('/USERS/Confirm-Email/[redacted]/[redacted]/extra')
    expect(redactPath('//users//password-reset-confirm/MTI/tok/')).toBe('/users/password-reset-confirm/[redacted]/[redacted]/')
  })

  it('hides the token of a calendar feed, but not the signed-in feed endpoint', () => {
    expect(redactPath('/appointments/calendar-feed/q3Vx8Jm2-Lr5Tn7Wc1Yz4Ab6Ed9Gh0Kp_Sv2Xf5Hj8N/')).toBe('/appointments/calendar-feed/[redacted]/')
    expect(redactPath('/Appointments/Calendar-Feed/tok')).toBe('/Appointments/Calendar-Feed/[redacted]')
    expect(redactPath('/appointments/calendar-feed/')).toBe('/appointments/calendar-feed/')
  })

  it('drops the query string and leaves other paths alone', () => {
    expect(redactPath('/users/?search=ana@example.com')).toBe('/users/')
    expect(redactPath('/users/password-reset/')).toBe('/users/password-reset/')
    expect(redactPath('/questionnaire/12/')).toBe('/questionnaire/12/')
  })
})

describe('errorFields', () => {
  it('keeps an ordinary error as it is', () => {
    const error = new Error('boom')
    expect(errorFields(error)).toEqual({ error: 'boom', stack: error.stack })
    expect(errorFields('text')).toEqual({ error: 'text' })
  })

  it("leaves a failed query's parameters out of the message and the stack", () => {
    const cause = new Error('invalid byte sequence for encoding "UTF8": 0x00')
    const error = new DrizzleQueryError('update "users" set "password" = $1 where "email" = $2', ['scrypt$secret-hash', 'ana@example.com'], cause)
    const fields = errorFields(error)
    expect(fields.error).toBe('Failed query: update "users" set "password" = $1 where "email" = $2 (parameters not logged): invalid byte sequence for encoding "UTF8": 0x00')
    expect(fields.stack).toMatch(/^\w*Error: Failed query: .*\n\s+at /)
    for (const secret of ['secret-hash', 'ana@example.com']) expect(JSON.stringify(fields)).not.toContain(secret)
  })
})
