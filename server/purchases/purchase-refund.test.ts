import { describe, expect, it } from 'vitest'
import { quotePurchaseRefund } from '#server/purchases/purchase-refund.ts'

// Tuesday 2026-03-10, 14:00 in São Paulo (UTC-3).
const PAID = Date.parse('2026-03-10T17:00:00Z')
const DAY = 24 * 3600 * 1000

describe('quotePurchaseRefund', () => {
  it('refunds everything within the 7 days, by the method, with the withdrawal end', () => {
    const quote = quotePurchaseRefund(
      {
        method: 'pix',
        paidAt: PAID,
        items: [
          { productId: 8, productType: 'course', lineCents: 16_700 },
          { productId: 2, productType: 'consultation_package', lineCents: 64_800, credits: { total: 4, used: 0 } },
        ],
      },
      PAID + DAY,
    )
    expect(quote).toMatchObject({ refundCents: 81_500, reason: 'refunds.reason.withdrawal', deadline: { method: 'pix', businessDays: 3, date: '2026-03-16' } })
    // The end of Tuesday 17 in São Paulo.
    expect(new Date(quote.withdrawalEndsAt).toISOString()).toBe('2026-03-18T03:00:00.000Z')
    expect(quote.items.map((item) => [item.productId, item.refundCents, item.accessEndsAt !== null])).toEqual([
      [8, 16_700, true],
      [2, 64_800, true],
    ])
  })

  it('after the 7 days: nothing for a course, the unused credits of a package pro rata (rounded down)', () => {
    const quote = quotePurchaseRefund(
      {
        method: 'card',
        paidAt: PAID,
        items: [
          { productId: 8, productType: 'course', lineCents: 16_700 },
          { productId: 3, productType: 'consultation_package', lineCents: 122_401, credits: { total: 8, used: 3 } },
        ],
      },
      PAID + 10 * DAY,
    )
    // floor(122401 × 5 / 8) = 76500
    expect(quote).toMatchObject({ refundCents: 76_500, reason: null, deadline: { method: 'card', billingCycles: 2 } })
    expect(quote.items.map((item) => [item.refundCents, item.reason, item.accessEndsAt !== null])).toEqual([
      [0, 'refunds.reason.withdrawalExpired', false],
      [76_500, 'refunds.reason.unusedCredits', true],
    ])
  })

  it('a package partly used within the 7 days refunds only the unused credits', () => {
    const quote = quotePurchaseRefund({ method: 'pix', paidAt: PAID, items: [{ productId: 2, productType: 'consultation_package', lineCents: 64_800, credits: { total: 4, used: 1 } }] }, PAID + DAY)
    expect(quote).toMatchObject({ refundCents: 48_600, reason: 'refunds.reason.unusedCredits' })
  })

  it('nothing to refund: no deadline', () => {
    const quote = quotePurchaseRefund({ method: 'pix', paidAt: PAID, items: [{ productId: 11, productType: 'digital_material', lineCents: 1990 }] }, PAID + 30 * DAY)
    expect(quote).toMatchObject({ refundCents: 0, deadline: null, reason: 'refunds.reason.withdrawalExpired' })
  })
})
