import { describe, expect, it } from 'vitest'
import { csvRow, refundAuthor, refundRefusalOf } from '#server/purchases/admin-serializers.ts'
import type { PurchaseQuote } from '#server/purchases/purchase-refund.ts'
import type { PurchaseItemRow, PurchaseRow, RefundRow } from '#server/purchases/repository.ts'

const at = new Date('2026-03-10T15:00:00Z')
const purchase = (changes: Partial<PurchaseRow> = {}) => ({ id: 7, status: 'paid', subscriptionId: null, method: 'pix', totalCents: 1990, refundedCents: 0, createdAt: at, paidAt: at, ...changes }) as PurchaseRow
const quote = (refundCents: number) => ({ refundCents, reason: null, deadline: null, withdrawalEndsAt: 0, items: [] }) as PurchaseQuote
const buyer = { id: 4, firstName: 'Pedro', lastName: 'Santos', email: 'paciente@innera.local' }

describe('refundRefusalOf', () => {
  it('says why an admin cannot refund now, or null when the terms give something back', () => {
    expect(refundRefusalOf(purchase(), quote(1990))).toBeNull()
    expect(refundRefusalOf(purchase(), quote(0))).toBe('nothing_to_refund')
    expect(refundRefusalOf(purchase(), null)).toBe('cancel_the_consultation')
    expect(refundRefusalOf(purchase({ subscriptionId: 3 }), null)).toBe('cancel_the_subscription')
    expect(refundRefusalOf(purchase({ status: 'refunded' }), null)).toBe('already_refunded')
    for (const status of ['pending', 'failed', 'expired', 'cancelled'] as const) expect(refundRefusalOf(purchase({ status }), null)).toBe('not_paid')
  })
})

describe('refundAuthor', () => {
  const refund = (reason: RefundRow['reason']) => ({ id: 1, reason }) as RefundRow
  const names = new Map([[1, 'Alice Admin']])
  const none = { buyer, adminEntries: [], consultationCancelledBy: null, names }
  it("names the admin (with their reason), the professional, the buyer, or the provider's own", () => {
    expect(refundAuthor(refund('cancel'), { ...none, adminEntries: [{ action: 'purchase.refund', actorId: 1, at, reason: 'Pedido' }] })).toEqual({ role: 'admin', user: { id: 1, name: 'Alice Admin' }, note: 'Pedido' })
    expect(refundAuthor(refund('cancel'), { ...none, consultationCancelledBy: 'professional' })).toEqual({ role: 'professional', user: null, note: null })
    expect(refundAuthor(refund('cancel'), none)).toEqual({ role: 'buyer', user: { id: 4, name: 'Pedro Santos' }, note: null })
    expect(refundAuthor(refund('late_payment'), none)).toEqual({ role: 'system', user: null, note: null })
    expect(refundAuthor(refund('double_payment'), none)).toEqual({ role: 'system', user: null, note: null })
  })
})

describe('csvRow', () => {
  it('one row per purchase, the items in one cell; a buyer without a name by their e-mail', () => {
    const items = [
      { name: { pt: 'Curso', en: 'Course', es: 'Curso' }, quantity: 1 },
      { name: { pt: 'Pacote', en: 'Package', es: 'Paquete' }, quantity: 2 },
    ] as PurchaseItemRow[]
    expect(csvRow({ purchase: purchase(), buyer: { ...buyer, firstName: '', lastName: '' } }, items)).toEqual([
      7,
      '2026-03-10T15:00:00.000Z',
      '2026-03-10T15:00:00.000Z',
      'paid',
      'pix',
      1990,
      0,
      'BRL',
      4,
      'paciente@innera.local',
      'paciente@innera.local',
      'Curso × 1; Pacote × 2',
    ])
  })
})
