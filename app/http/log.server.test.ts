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
  test('hides the token of a calendar feed: the app’s URL and the provider’s, under any API prefix', () => {
    expect(redactPath('/calendario/q3Vx8Jm2-Lr5Tn7Wc1Yz4Ab6Ed9Gh0Kp_Sv2Xf5Hj8N.ics')).toBe('/calendario/:token.ics')
    expect(redactPath('//Calendario//tok.ics?x=1')).toBe('/calendario/:token.ics')
    expect(redactPath('/appointments/calendar-feed/q3Vx8Jm2-Lr5Tn7Wc1Yz4Ab6Ed9Gh0Kp_Sv2Xf5Hj8N/')).toBe('/appointments/calendar-feed/:token/')
    expect(redactPath('/api/v1/appointments/calendar-feed/tok/')).toBe('/api/v1/appointments/calendar-feed/:token/')
    expect(redactPath('/appointments/calendar-feed/')).toBe('/appointments/calendar-feed/')
  })
  test('keeps ordinary paths', () => {
    expect(redactPath('/dashboard')).toBe('/dashboard')
  })
})
