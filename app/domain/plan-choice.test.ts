import { describe, expect, test } from 'vitest'
import { planChoice } from './plan-choice.ts'

const monthly = { productId: 5, status: 'active', renews: true, cancelAtPeriodEnd: false }

describe('what a plan’s page offers', () => {
  test('no plan, or only ended ones: the form', () => {
    expect(planChoice(6, [])).toEqual({ kind: 'open' })
    expect(planChoice(6, [{ ...monthly, status: 'ended' }])).toEqual({ kind: 'open' })
  })

  test('this plan live, or its first payment open: no second one', () => {
    expect(planChoice(5, [monthly])).toEqual({ kind: 'same' })
    expect(planChoice(5, [{ ...monthly, status: 'incomplete' }])).toEqual({ kind: 'same' })
  })

  test('another plan live gives nothing more; a renewing one is switched from at its period’s end', () => {
    expect(planChoice(6, [{ ...monthly, status: 'ended', productId: 6 }, monthly])).toEqual({ kind: 'nothing_more', switchAt: 'period_end', awaitingPayment: false })
    expect(planChoice(6, [{ ...monthly, cancelAtPeriodEnd: true }])).toEqual({ kind: 'nothing_more', switchAt: 'ends', awaitingPayment: false })
    // A trial or a program's plan ends on its own.
    expect(planChoice(6, [{ ...monthly, status: 'trialing', renews: false }])).toEqual({ kind: 'nothing_more', switchAt: 'ends', awaitingPayment: false })
    expect(planChoice(6, [{ ...monthly, status: 'past_due' }])).toEqual({ kind: 'nothing_more', switchAt: 'period_end', awaitingPayment: false })
    expect(planChoice(6, [{ ...monthly, status: 'incomplete' }])).toEqual({ kind: 'nothing_more', switchAt: 'period_end', awaitingPayment: true })
  })
})
