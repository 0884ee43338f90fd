import { describe, expect, it } from 'vitest'
import { ApiError } from '#server/http/errors.ts'
import { parseCreateInput, returnUrl } from '#server/purchases/input.ts'

const KEY = 'k'.repeat(16)
const problems = (body: Record<string, unknown>) => {
  try {
    parseCreateInput(body)
  } catch (error) {
    if (error instanceof ApiError) return error.body
    throw error
  }
  throw new Error('accepted')
}

describe('parseCreateInput', () => {
  it('reads a PIX and a card purchase', () => {
    expect(parseCreateInput({ items: [{ product_id: 1, quantity: 1 }], method: 'pix', idempotency_key: KEY })).toEqual({
      items: [{ productId: 1, quantity: 1 }],
      method: 'pix',
      idempotencyKey: KEY,
      successUrl: null,
      cancelUrl: null,
    })
    expect(parseCreateInput({ items: [{ product_id: '2', quantity: '1' }], method: 'card', idempotency_key: KEY, success_url: 'https://app.test/ok', cancel_url: 'http://app.test/no' })).toMatchObject({
      items: [{ productId: 2, quantity: 1 }],
      successUrl: 'https://app.test/ok',
    })
  })

  it('bounds the items and tells every problem at once', () => {
    expect(problems({})).toEqual({ items: ['This field is required.'], method: ['This field is required.'], idempotency_key: ['This field is required.'] })
    expect(problems({ items: [], method: 'pix', idempotency_key: KEY })).toEqual({ items: ['This list may not be empty.'] })
    expect(problems({ items: Array.from({ length: 21 }, (_, index) => ({ product_id: index + 1, quantity: 1 })), method: 'pix', idempotency_key: KEY })).toEqual({
      items: ['Ensure this field has no more than 20 elements.'],
    })
    expect(problems({ items: [{ product_id: 1, quantity: 1 }, { product_id: 2147483648, quantity: 11 }, 'x'], method: 'boleto', idempotency_key: 'short' })).toEqual({
      items: [
        {},
        { product_id: ['Ensure this value is less than or equal to 2147483647.'], quantity: ['Ensure this value is less than or equal to 10.'] },
        { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] },
      ],
      method: ['"boleto" is not a valid choice.'],
      idempotency_key: ['Enter a valid idempotency key: 16 to 64 letters, digits, "-" or "_".'],
    })
    expect(problems({ items: [{ product_id: 1, quantity: 0 }], method: 'pix', idempotency_key: KEY })).toEqual({ items: [{ quantity: ['Ensure this value is greater than or equal to 1.'] }] })
    expect(problems({ items: [{ product_id: 1, quantity: 1 }, { product_id: 1, quantity: 2 }], method: 'pix', idempotency_key: KEY })).toEqual({
      items: ['Each product may appear only once; change its quantity instead.'],
    })
  })

  it('a card needs both return URLs, absolute http(s) and bounded', () => {
    const card = { items: [{ product_id: 1, quantity: 1 }], method: 'card', idempotency_key: KEY }
    expect(problems(card)).toEqual({ success_url: ['This field is required for a card payment.'], cancel_url: ['This field is required for a card payment.'] })
    expect(problems({ ...card, success_url: 'javascript:alert(1)', cancel_url: '/relative' })).toEqual({ success_url: ['Enter a valid URL.'], cancel_url: ['Enter a valid URL.'] })
    expect(problems({ ...card, success_url: `https://app.test/${'a'.repeat(2000)}`, cancel_url: 'https://app.test/' })).toEqual({ success_url: ['Ensure this field has no more than 2000 characters.'] })
  })
})

describe('returnUrl', () => {
  it('names the purchase and asks Stripe for the session id', () => {
    expect(returnUrl('https://app.test/compras/{PURCHASE_ID}', 7, { withSession: true })).toBe('https://app.test/compras/7?session_id={CHECKOUT_SESSION_ID}')
    expect(returnUrl('https://app.test/c?x=1#top', 7, { withSession: true })).toBe('https://app.test/c?x=1&session_id={CHECKOUT_SESSION_ID}#top')
    expect(returnUrl('https://app.test/c?s={CHECKOUT_SESSION_ID}', 7, { withSession: true })).toBe('https://app.test/c?s={CHECKOUT_SESSION_ID}')
    expect(returnUrl('https://app.test/carrinho', 7, { withSession: false })).toBe('https://app.test/carrinho')
  })
})
