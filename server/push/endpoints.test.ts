import { describe, expect, it } from 'vitest'
import { base64UrlLength, endpointProblem, serviceOf } from '#server/push/endpoints.ts'

describe("a push subscription's endpoint", () => {
  it("is taken on the browsers' push services only", () => {
    expect(endpointProblem('https://fcm.googleapis.com/fcm/send/abc')).toBeNull()
    expect(endpointProblem('https://updates.push.services.mozilla.com/wpush/v2/abc')).toBeNull()
    expect(endpointProblem('https://web.push.apple.com/QGuQ')).toBeNull()
    expect(endpointProblem('https://wns2-par02p.notify.windows.com/w/?token=abc')).toBeNull()
    for (const endpoint of ['http://fcm.googleapis.com/fcm/send/abc', 'https://fcm.googleapis.com:8443/x', 'https://push.apple.com.evil.test/x', 'https://evilpush.apple.com/x', 'https://user:pw@fcm.googleapis.com/x', 'https://127.0.0.1/x', 'not a url']) {
      expect(endpointProblem(endpoint), endpoint).not.toBeNull()
    }
  })

  it("is taken under the fake's address only when the fake is on", () => {
    const fakeBase = 'http://127.0.0.1:8000/fake-push/send'
    expect(endpointProblem(`${fakeBase}/abc`, { fakeBase })).toBeNull()
    expect(endpointProblem(`${fakeBase}/abc`)).not.toBeNull()
    expect(endpointProblem('http://127.0.0.1:8000/users/me/', { fakeBase })).not.toBeNull()
  })

  it('is named by its host alone, and keys by their decoded length', () => {
    expect(serviceOf('https://fcm.googleapis.com/fcm/send/secret-part')).toBe('fcm.googleapis.com')
    expect(base64UrlLength('A'.repeat(87))).toBe(65)
    expect(base64UrlLength('A'.repeat(22))).toBe(16)
    expect(base64UrlLength('AA+/')).toBe(-1)
  })
})
