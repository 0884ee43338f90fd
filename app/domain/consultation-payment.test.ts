import { describe, expect, it } from 'vitest'
import { defaultPayment, paymentOptions } from './consultation-payment.ts'

describe('paying for a consultation', () => {
  it('offers nothing for a free consultation, a credit only while one is left, PIX and card always', () => {
    expect(paymentOptions({ priceCents: 0, credits: 3 })).toEqual([])
    expect(paymentOptions({ priceCents: 18_000, credits: 0 })).toEqual(['pix', 'card'])
    expect(paymentOptions({ priceCents: 18_000, credits: 1 })).toEqual(['credit', 'pix', 'card'])
  })

  it('checks what was chosen before while it is on offer, else a credit, else PIX', () => {
    expect(defaultPayment(['credit', 'pix', 'card'], undefined)).toBe('credit')
    expect(defaultPayment(['pix', 'card'], undefined)).toBe('pix')
    expect(defaultPayment(['credit', 'pix', 'card'], 'card')).toBe('card')
    // The last credit went meanwhile: the choice falls back to what is left.
    expect(defaultPayment(['pix', 'card'], 'credit')).toBe('pix')
    expect(defaultPayment(['pix', 'card'], 'boleto')).toBe('pix')
    expect(defaultPayment([], 'pix')).toBeUndefined()
  })
})
