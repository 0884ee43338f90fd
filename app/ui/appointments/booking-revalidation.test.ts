import { describe, expect, it } from 'vitest'
import { keepDataAfterBookingStep } from './booking-revalidation.ts'

const args = (actionResult: unknown, defaultShouldRevalidate = true) =>
  ({ actionResult, defaultShouldRevalidate, formMethod: 'POST', currentUrl: new URL('http://app.test/'), nextUrl: new URL('http://app.test/'), currentParams: {}, nextParams: {} }) as Parameters<typeof keepDataAfterBookingStep>[0]

describe('keepDataAfterBookingStep', () => {
  it('keeps the data behind a review or a kept picker', () => {
    expect(keepDataAfterBookingStep(args({ step: 'review', result: {} }))).toBe(false)
    expect(keepDataAfterBookingStep(args({ step: 'pick', result: {} }))).toBe(false)
  })

  it('leaves every other case to Remix', () => {
    expect(keepDataAfterBookingStep(args(undefined))).toBe(true)
    expect(keepDataAfterBookingStep(args(null, false))).toBe(false)
    expect(keepDataAfterBookingStep(args({ other: 1 }))).toBe(true)
  })
})
