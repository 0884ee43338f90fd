import { describe, expect, it } from 'vitest'
import { FakeStripeError } from '#server/fakes/stripe/errors.ts'
import { parseStripeForm } from '#server/fakes/stripe/form.ts'

describe('parseStripeForm', () => {
  it('reads the SDK’s bracket encoding into objects and arrays', () => {
    const body =
      'amount=18000&currency=brl&allowed_payment_method_types[0]=pix&allowed_payment_method_types[1]=card&metadata[purchase_id]=42' +
      '&payment_method_options[pix][expires_after_seconds]=600&expand[]=latest_charge&expand[]=customer&line_items[0][price_data][unit_amount]=100&confirm=true'
    expect(parseStripeForm(body)).toEqual({
      amount: '18000',
      currency: 'brl',
      allowed_payment_method_types: ['pix', 'card'],
      metadata: { purchase_id: '42' },
      payment_method_options: { pix: { expires_after_seconds: '600' } },
      expand: ['latest_charge', 'customer'],
      line_items: [{ price_data: { unit_amount: '100' } }],
      confirm: 'true',
    })
  })

  it('decodes percent-escapes in names and values, and keeps empty values (which unset)', () => {
    expect(parseStripeForm('metadata%5Bnote%5D=a%20b%26c&description=&email=paciente%40innera.local')).toEqual({
      metadata: { note: 'a b&c' },
      description: '',
      email: 'paciente@innera.local',
    })
  })

  it('keeps objects with numeric keys out of order as objects, and top-level digits as names', () => {
    expect(parseStripeForm('metadata[1]=a&metadata[3]=b&0=x')).toEqual({ metadata: { 1: 'a', 3: 'b' }, 0: 'x' })
  })

  it('refuses conflicting, malformed, deep and oversized input with Stripe’s 400', () => {
    for (const body of ['a=1&a[b]=2', 'a[b]=2&a=1', 'a[b=1', 'a[b]c=1', 'a[b][c][d][e][f][g]=1', 'a=%00', Array.from({ length: 1001 }, (_, index) => `k${index}=1`).join('&')]) {
      expect(() => parseStripeForm(body), body.slice(0, 30)).toThrow(FakeStripeError)
    }
  })
})
