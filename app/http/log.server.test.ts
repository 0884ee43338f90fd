import { describe, expect, test } from 'vitest'
import { redactPath } from './log.server'

describe('redactPath', () => {
  test('drops the query string', () => {
    expect(redactPath('/auth/google/callback?code=secret&state=x')).toBe('/auth/google/callback')
  })
  test('hides the tokens of reset and confirmation links', () => {
    expect(redactPath('/auth/reset/MQ/abc-123')).toBe('/auth/reset/:uid/:token')
    expect(redactPath('/auth/confirm/MQ/abc-123?x=1')).toBe('/auth/confirm/:uid/:token')
    expect(redactPath('/users/password-reset-confirm/MQ/tok/')).toBe('/users/password-reset-confirm/:uid/:token/')
  })
  test('keeps ordinary paths', () => {
    expect(redactPath('/dashboard')).toBe('/dashboard')
  })
})
