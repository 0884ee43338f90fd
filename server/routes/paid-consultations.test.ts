import { and, asc, eq, sql } from 'drizzle-orm'
import type Stripe from 'stripe'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import { HOLD_RELEASED_REASON } from '#server/appointments/holds.ts'
import type { Database } from '#server/db/client.ts'
import { appointments, consultationCredits, fakeStripeObjects, outbox, products, purchaseRefunds, purchases, scheduledMessages } from '#server/db/schema.ts'
import { signatureHeader } from '#server/fakes/stripe/webhooks.ts'
import { purchaseNoticesTick } from '#server/purchases/notices.ts'
import { CONSULTATION_HOLD_MS, purchasesTick } from '#server/purchases/payments.ts'
import { withFakeStripe } from '#server/testing/stripe.ts'
import { client, PUBLIC_URL } from '#server/testing/harness.ts'

/**
 * Paid consultations at the provider (issue 24, decision 0051): a booking paid with a package's
 * credit, or by PIX or card with its time held until the payment ends; cancelling under the
 * consultation rules (the credit back, or the money through Stripe's Refunds).
 */

// Tuesday 2026-03-10, 12:00 in São Paulo. Paula (R$ 180,00) sees patients on Wednesdays from 08:00.
const NOW = Date.parse('2026-03-10T15:00:00Z')
const PRICE = 18_000
const setup = withFakeStripe(NOW)
const sp = (date: string, time: string) => new Date(`${date}T${time}:00-03:00`).toISOString()
const WED = '2026-03-11'
const NEXT_WED = '2026-03-18'

let app: ProviderApp
let db: Database
let api: ReturnType<typeof client>
let stripe: Stripe
let secret: string
let paula: number
const tokens: Record<'patient' | 'patient2' | 'professional' | 'admin', string> = { patient: '', patient2: '', professional: '', admin: '' }

async function signIn() {
  tokens.patient = (await api.login('paciente@innera.local')).access
  tokens.patient2 = (await api.login('paciente2@innera.local')).access
  tokens.professional = (await api.login('profissional@innera.local')).access
  tokens.admin = (await api.login('admin@innera.local')).access
}

beforeAll(async () => {
  app = setup.fake.app
  db = setup.database.db
  stripe = setup.stripe
  api = client(app)
  secret = app.services.config.stripe.webhookSecret!
  await signIn()
  paula = (await api.get('/users/me/', { token: tokens.professional })).json.id
})

/** Moves the clock on; tokens last 5 minutes, so everyone signs in again. */
async function later(ms: number) {
  setup.time.advance(ms / 1000)
  await signIn()
}

let keys = 0
const newKey = () => `paid-key-${String(++keys).padStart(8, '0')}`
const URLS = { success_url: 'http://app.test/compras/{PURCHASE_ID}', cancel_url: 'http://app.test/consultas/nova' }

function book(start: string, payment?: 'credit' | 'pix' | 'card', { token = tokens.patient, key = newKey() } = {}) {
  return api.post('/appointments/create/', { professional_id: paula, start_time: start, idempotency_key: key, ...(payment && { payment }), ...(payment === 'card' && URLS) }, { token })
}

const row = async (id: number) => (await db.select().from(appointments).where(eq(appointments.id, id)))[0]!
const purchaseRow = async (id: number) => (await db.select().from(purchases).where(eq(purchases.id, id)))[0]!
const messagesOf = (id: number) => db.select().from(scheduledMessages).where(eq(scheduledMessages.appointmentId, id))

async function event(type: string, objectId: string): Promise<Stripe.Event> {
  const rows = await db
    .select({ data: fakeStripeObjects.data })
    .from(fakeStripeObjects)
    .where(and(eq(fakeStripeObjects.type, 'event'), sql`${fakeStripeObjects.data}->>'type' = ${type}`, sql`${fakeStripeObjects.data}->'data'->'object'->>'id' = ${objectId}`))
    .orderBy(asc(fakeStripeObjects.createdAt), asc(fakeStripeObjects.id))
  expect(rows).toHaveLength(1)
  return rows[0]!.data as unknown as Stripe.Event
}

function deliver(stripeEvent: Stripe.Event) {
  const payload = JSON.stringify(stripeEvent)
  return api.call('POST', '/purchases/webhook/', { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signatureHeader(payload, secret, Math.floor(setup.time.clock() / 1000)) } })
}

/** The buyer's bank pays (or refuses) the PIX code on the fake's development page, and Stripe's event arrives. */
async function settlePix(paymentIntentId: string, decision: 'succeed' | 'fail') {
  const response = await app.request(`${PUBLIC_URL}/fake-stripe/pix/${paymentIntentId}`, { method: 'POST', body: new URLSearchParams({ decision }), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  await app.services.background.idle()
  expect(response.status).toBe(303)
  const type = decision === 'succeed' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed'
  expect((await deliver(await event(type, paymentIntentId))).json.outcome).toBe('applied')
}

/** A package of credits the patient bought and paid (by PIX). */
async function ownPackage(slug: string, token = tokens.patient) {
  const [product] = await db.select({ id: products.id }).from(products).where(eq(products.slug, slug))
  const created = await api.post('/purchases/create/', { items: [{ product_id: product!.id, quantity: 1 }], method: 'pix', idempotency_key: newKey() }, { token })
  expect(created.status).toBe(201)
  await settlePix((await purchaseRow(created.json.id)).stripePaymentIntentId!, 'succeed')
  return (await db.select().from(consultationCredits).where(eq(consultationCredits.purchaseId, created.json.id)))[0]!
}

describe('booking a consultation with a price', () => {
  it('says the price and the credits left; a payment is required, one of credit, pix, card (with its return addresses)', async () => {
    const availability = await api.get(`/appointments/calendar/availability/?professional_id=${paula}`, { token: tokens.patient })
    expect(availability.json).toMatchObject({ professional: { price_cents: PRICE, currency: 'BRL' }, credits_available: 0 })
    // Professionals and admins read the times, not anyone's credits.
    expect((await api.get(`/appointments/calendar/availability/?professional_id=${paula}`, { token: tokens.admin })).json.credits_available).toBeUndefined()
    // Never booked unpaid, whoever calls the API.
    const unpaid = await book(sp(WED, '08:00'))
    expect(unpaid).toMatchObject({ status: 400, json: { payment: ['This consultation has a price: say how it is paid (credit, pix or card).'] } })
    const wrong = await book(sp(WED, '08:00'), 'boleto' as 'pix')
    expect(wrong).toMatchObject({ status: 400, json: { payment: ['"boleto" is not a valid choice.'] } })
    const card = await api.post('/appointments/create/', { professional_id: paula, start_time: sp(WED, '08:00'), payment: 'card' }, { token: tokens.patient })
    expect(card).toMatchObject({ status: 400, json: { success_url: ['This field is required for a card payment.'], cancel_url: ['This field is required for a card payment.'] } })
    expect(await db.select().from(appointments)).toHaveLength(0)
  })

  it('with a credit: booked at once, the credit spent in the same transaction; no credit left is a 409 and nothing is booked', async () => {
    expect((await book(sp(WED, '08:00'), 'credit')).json).toMatchObject({ code: 'no_credit', detail: 'You have no consultation credit left for this professional.' })
    const credit = await ownPackage('pacote-4-consultas-paula-ribeiro')
    expect((await api.get(`/appointments/calendar/availability/?professional_id=${paula}`, { token: tokens.patient })).json.credits_available).toBe(4)
    const booked = await book(sp(WED, '08:00'), 'credit')
    expect(booked.status).toBe(201)
    expect(booked.json).toMatchObject({ status: 'scheduled', price_cents: PRICE, payment_reference: `credit:${credit.id}`, payment: { kind: 'credit', purchase_id: null, hold_expires_at: null } })
    // Less than 24 hours ahead, but its package was paid within 7 days: cancelling now gives the credit back.
    expect(booked.json.cancellation).toMatchObject({ refund_cents: 0, credit_returned: true, reason: 'refunds.reason.withdrawal', deadline: null })
    expect((await db.select().from(consultationCredits).where(eq(consultationCredits.id, credit.id)))[0]!.used).toBe(1)
    expect(await messagesOf(booked.json.id)).not.toHaveLength(0)

    const cancelled = await api.post(`/appointments/${booked.json.id}/cancel/`, {}, { token: tokens.patient })
    expect(cancelled.json).toMatchObject({ status: 'cancelled', refund: 'full' })
    expect((await db.select().from(consultationCredits).where(eq(consultationCredits.id, credit.id)))[0]!.used).toBe(0)
  })

  it('two bookings racing for the last credit: one books it, the other is told there is none (the database decides)', async () => {
    const credit = await ownPackage('pacote-4-consultas')
    await db.update(consultationCredits).set({ used: credit.total - 1 }).where(eq(consultationCredits.id, credit.id))
    const [first, second] = await Promise.all([book(sp(WED, '09:40'), 'credit'), book(sp(WED, '13:00'), 'credit')])
    expect([first.status, second.status].sort()).toEqual([201, 409])
    expect((await db.select().from(consultationCredits).where(eq(consultationCredits.id, credit.id)))[0]!.used).toBe(credit.total)
    expect((first.status === 409 ? first : second).json.code).toBe('no_credit')
  })
})

describe('paying a consultation by PIX', () => {
  it('holds the time until the code is paid: nobody else can book it, no message goes out; the payment books it', async () => {
    const start = sp(WED, '14:40')
    const held = await book(start, 'pix')
    expect(held.status).toBe(201)
    expect(held.json).toMatchObject({ status: 'awaiting_payment', price_cents: PRICE, payment: { kind: 'purchase', method: 'pix', status: 'pending', hold_expires_at: new Date(NOW + CONSULTATION_HOLD_MS).toISOString() } })
    expect(held.json.cancellation).toBeNull()
    const purchase = await purchaseRow(held.json.payment.purchase_id)
    expect(purchase).toMatchObject({ holdsTime: true, totalCents: PRICE, method: 'pix', status: 'pending' })
    expect(held.json.payment_reference).toBe(`purchase:${purchase.id}`)
    const detail = await api.get(`/purchases/${purchase.id}/`, { token: tokens.patient })
    // Paula and Pedro are both in São Paulo: the line names no zone (decision 0077).
    expect(detail.json).toMatchObject({
      appointment_id: held.json.id,
      can_renew_pix: false,
      items: [
        {
          product_id: null,
          product_type: 'consultation',
          line_cents: PRICE,
          name: { pt: 'Consulta com Paula Ribeiro, 11 de março de 2026, 14:40', es: 'Consulta con Paula Ribeiro, 11 de marzo de 2026, 14:40' },
          consultation: { appointment_id: held.json.id, starts_at: start, professional_id: paula, time_zone: 'America/Sao_Paulo' },
        },
      ],
    })
    expect(detail.json.pix.data).toMatch(/^000201/)
    expect(await messagesOf(held.json.id)).toHaveLength(0)

    // Someone else: the time is taken. The holder cannot move or confirm it before paying.
    expect((await book(start, 'pix', { token: tokens.patient2 })).json).toMatchObject({ code: 'slot_taken' })
    expect((await api.patch(`/appointments/${held.json.id}/update/`, { start_time: sp(WED, '16:20') }, { token: tokens.patient })).status).toBe(400)
    expect((await api.patch(`/appointments/${held.json.id}/status/`, { status: 'confirmed' }, { token: tokens.professional })).status).toBe(400)

    await settlePix(purchase.stripePaymentIntentId!, 'succeed')
    const paid = await api.get(`/appointments/${held.json.id}/`, { token: tokens.patient })
    expect(paid.json).toMatchObject({ status: 'scheduled', payment: { status: 'paid', hold_expires_at: null } })
    expect(paid.json.cancellation).toMatchObject({ refund_cents: PRICE, reason: 'refunds.reason.consultationNotice', deadline: { method: 'pix', business_days: 3 } })
    expect(await messagesOf(held.json.id)).not.toHaveLength(0)
    // A second delivery of the same news books nothing twice.
    expect((await deliver(await event('payment_intent.succeeded', purchase.stripePaymentIntentId!))).json.outcome).toBe('duplicate')
  })

  it('releases the time when the code is refused, expires unpaid, or the patient cancels (a payment after that is refunded: statuses.test.ts)', async () => {
    const refused = await book(sp(WED, '16:20'), 'pix')
    await settlePix((await purchaseRow(refused.json.payment.purchase_id)).stripePaymentIntentId!, 'fail')
    expect(await row(refused.json.id)).toMatchObject({ status: 'cancelled', cancellationReason: HOLD_RELEASED_REASON, holdExpiresAt: null })
    // No new code for a released time: book it again.
    expect((await api.post(`/purchases/${refused.json.payment.purchase_id}/renew-pix/`, {}, { token: tokens.patient })).json).toMatchObject({ code: 'book_again' })
    // The time is free again, for anyone.
    const again = await book(sp(WED, '16:20'), 'pix', { token: tokens.patient2 })
    expect(again.status).toBe(201)

    const cancelled = await api.post(`/appointments/${again.json.id}/cancel/`, {}, { token: tokens.patient2 })
    expect(cancelled.json).toMatchObject({ status: 'cancelled', payment: { status: 'cancelled' } })
    const cancelledPurchase = await purchaseRow(again.json.payment.purchase_id)
    const paymentIntent = await stripe.paymentIntents.retrieve(cancelledPurchase.stripePaymentIntentId!)
    expect(paymentIntent.status).toBe('canceled')

    const expiring = await book(sp(NEXT_WED, '08:00'), 'pix')
    const expiringPurchase = await purchaseRow(expiring.json.payment.purchase_id)
    await later(31 * 60_000)
    await purchasesTick(app.services)
    expect(await purchaseRow(expiringPurchase.id)).toMatchObject({ status: 'expired' })
    expect(await row(expiring.json.id)).toMatchObject({ status: 'cancelled', cancellationReason: HOLD_RELEASED_REASON })
  })
})

describe('paying a consultation by card', () => {
  it("sends the patient to Stripe's page, which expires with the hold; paid there, the consultation is booked", async () => {
    const held = await book(sp(NEXT_WED, '09:40'), 'card')
    expect(held.status).toBe(201)
    expect(held.json).toMatchObject({ status: 'awaiting_payment', payment: { method: 'card', status: 'pending' } })
    const url: string = held.json.payment.checkout_url
    expect(url).toMatch(/^http/)
    const purchase = await purchaseRow(held.json.payment.purchase_id)
    const session = await stripe.checkout.sessions.retrieve(purchase.stripeCheckoutSessionId!)
    expect(session.expires_at).toBe(Math.floor((setup.time.clock() + CONSULTATION_HOLD_MS) / 1000))
    expect(session.line_items ?? session.amount_total).toBeTruthy()
    const response = await app.request(url, {
      method: 'POST',
      body: new URLSearchParams({ card_number: '4242424242424242', expiry: '12/30', cvc: '123', name: 'Pedro Santos' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    await app.services.background.idle()
    expect(response.status).toBe(303)
    // The buyer's return asks Stripe (refresh-status), as the purchase's page does.
    await api.post(`/purchases/${purchase.id}/refresh-status/`, {}, { token: tokens.patient })
    expect((await api.get(`/appointments/${held.json.id}/`, { token: tokens.patient })).json).toMatchObject({ status: 'scheduled', payment: { status: 'paid', checkout_url: null } })
    // A paid consultation's purchase is cancelled through the consultation.
    expect((await api.post(`/purchases/${purchase.id}/cancel/`, {}, { token: tokens.patient })).json).toMatchObject({ code: 'cancel_the_consultation' })

    const cancelled = await api.post(`/appointments/${held.json.id}/cancel/`, {}, { token: tokens.patient })
    expect(cancelled.json).toMatchObject({ status: 'cancelled', refund: 'full', payment: { status: 'refunded' } })
    const refunds = await db.select().from(purchaseRefunds).where(eq(purchaseRefunds.purchaseId, purchase.id))
    expect(refunds).toMatchObject([{ amountCents: PRICE, reason: 'cancel', status: 'succeeded' }])
  })
})

describe('cancelling a paid consultation late', () => {
  it('gives nothing back once its payment is past its 7 days and the consultation is less than 24 hours away; a professional cancelling refunds in full', async () => {
    // Paid now (Tuesday 10), for Thursday 19 at 08:00; cancelled on Wednesday 18 at 12:00: 20 hours ahead, withdrawal over.
    const late = await book(sp('2026-03-19', '08:00'), 'pix')
    await settlePix((await purchaseRow(late.json.payment.purchase_id)).stripePaymentIntentId!, 'succeed')
    const byProfessional = await book(sp('2026-03-19', '09:40'), 'pix')
    await settlePix((await purchaseRow(byProfessional.json.payment.purchase_id)).stripePaymentIntentId!, 'succeed')
    await later(Date.parse(sp('2026-03-18', '12:00')) - setup.time.clock())

    const quoted = await api.get(`/appointments/${late.json.id}/`, { token: tokens.patient })
    expect(quoted.json.cancellation).toEqual({ refund_cents: 0, reason: 'refunds.reason.consultationLate', credit_returned: false, deadline: null })
    const cancelled = await api.post(`/appointments/${late.json.id}/cancel/`, {}, { token: tokens.patient })
    expect(cancelled.json).toMatchObject({ status: 'cancelled', refund: 'none', payment: { status: 'paid' } })

    const byThem = await api.post(`/appointments/${byProfessional.json.id}/cancel/`, {}, { token: tokens.professional })
    expect(byThem.json).toMatchObject({ status: 'cancelled', refund: 'full', payment: { status: 'refunded' } })
    expect(await db.select().from(purchaseRefunds).where(eq(purchaseRefunds.purchaseId, byProfessional.json.payment.purchase_id))).toMatchObject([{ amountCents: PRICE, reason: 'cancel' }])
    // The refund's e-mail says the professional cancelled, not the patient.
    await purchaseNoticesTick(app.services)
    const [refundMail] = await db.select().from(outbox).where(and(eq(outbox.to, 'paciente@innera.local'), sql`${outbox.subject} like 'Reembolso%'`))
    expect(refundMail?.textBody).toContain('porque o(a) profissional cancelou a consulta.')
  })
})
