import QRCode from 'qrcode'
import type Stripe from 'stripe'
import { beforeAll, describe, expect, it } from 'vitest'
import { withFakeStripe, type FakeStripeServer } from '#server/testing/stripe.ts'
import { PUBLIC_URL } from '#server/testing/harness.ts'
import { pngQuietZone, svgQuietZone } from '#server/testing/qr.ts'
import { formProblem } from '#server/fakes/stripe/page-routes.ts'

const NOW = Date.parse('2026-03-02T12:00:00Z')
let fake: FakeStripeServer
let stripe: Stripe

const setup = withFakeStripe(NOW)
beforeAll(() => {
  ;({ fake, stripe } = setup)
})

/** A hosted page, as the browser asks for it (the pages are at the provider's public URL). */
async function browse(url: string, form?: Record<string, string>) {
  const response = await fake.app.request(url, form ? { method: 'POST', body: new URLSearchParams(form), headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {})
  await fake.app.services.background.idle()
  return { status: response.status, headers: response.headers, html: await response.text() }
}

const SUCCESS_URL = 'http://app.test/compras/sucesso?session_id={CHECKOUT_SESSION_ID}'

const session = (extra: Partial<Stripe.Checkout.SessionCreateParams> = {}) =>
  stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [
      { price_data: { currency: 'brl', unit_amount: 15_000, product_data: { name: 'Consulta <script>alert(1)</script> & "Paula"' } }, quantity: 1 },
      { price_data: { currency: 'brl', unit_amount: 1500, product_data: { name: 'Guia de sono' } }, quantity: 2 },
    ],
    success_url: SUCCESS_URL,
    cancel_url: 'http://app.test/carrinho',
    customer_email: 'paciente@innera.local',
    client_reference_id: 'purchase-42',
    metadata: { purchase_id: '42' },
    payment_intent_data: { metadata: { purchase_id: '42' }, description: 'Compra 42' },
    ...extra,
  })

const card = (number: string, extra: Record<string, string> = {}) => ({ card_number: number, expiry: '12/30', cvc: '123', name: 'Pedro Santos', ...extra })

describe('Checkout Sessions', () => {
  it('are created open and unpaid, with a hosted URL and their line items', async () => {
    const created = await session()
    expect(created).toMatchObject({
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 18_000,
      currency: 'brl',
      payment_intent: null,
      customer_email: 'paciente@innera.local',
      client_reference_id: 'purchase-42',
      metadata: { purchase_id: '42' },
      expires_at: NOW / 1000 + 86_400,
      success_url: SUCCESS_URL,
      payment_method_types: ['card'],
    })
    expect(created.id).toMatch(/^cs_test_[A-Za-z0-9]{58}$/)
    expect(created.url).toBe(`${PUBLIC_URL}/fake-stripe/checkout/${created.id}`)
    expect(created).not.toHaveProperty('payment_intent_data')
    const items = await stripe.checkout.sessions.listLineItems(created.id)
    expect(items.data.map((item) => [item.description, item.quantity, item.amount_total])).toEqual([
      ['Consulta <script>alert(1)</script> & "Paula"', 1, 15_000],
      ['Guia de sono', 2, 3000],
    ])
    expect(await stripe.checkout.sessions.retrieve(created.id)).toEqual(created)
  })

  it('take stored prices, and refuse what the fake does not do', async () => {
    const product = await stripe.products.create({ name: 'Programa 8 semanas' })
    const price = await stripe.prices.create({ product: product.id, currency: 'brl', unit_amount: 49_000, lookup_key: 'programa-8' })
    expect(price).toMatchObject({ object: 'price', type: 'one_time', unit_amount: 49_000, active: true, recurring: null })
    expect((await stripe.prices.list({ lookup_keys: ['programa-8'] })).data.map((entry) => entry.id)).toEqual([price.id])
    expect((await session({ line_items: [{ price: price.id, quantity: 1 }] })).amount_total).toBe(49_000)

    const monthly = await stripe.prices.create({ product: product.id, currency: 'brl', unit_amount: 9900, recurring: { interval: 'month' } })
    const refusals: [Partial<Stripe.Checkout.SessionCreateParams>, RegExp][] = [
      [{ line_items: [{ price: monthly.id, quantity: 1 }] }, /recurring price/],
      [{ mode: 'setup' }, /in `setup` mode/],
      [{ allowed_payment_method_types: ['pix'] }, /cards only/],
      [{ success_url: undefined }, /Missing required param: success_url/],
      [{ expires_at: NOW / 1000 + 60 }, /between 30 minutes and 24 hours/],
      [{ line_items: [{ price: 'price_missing', quantity: 1 }] }, /No such price/],
    ]
    for (const [extra, message] of refusals) {
      await expect(session(extra)).rejects.toMatchObject({ type: 'StripeInvalidRequestError', message: expect.stringMatching(message) })
    }
  })
})

describe('the hosted Checkout page', () => {
  it('shows the total and the items escaped, a labelled form and the test cards', async () => {
    const created = await session()
    const page = await browse(created.url!)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(page.html).toMatch(/Total: <strong>R\$\s180,00<\/strong>/)
    expect(page.html).toContain('Consulta &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Paula&quot;')
    expect(page.html).not.toContain('<script>')
    for (const id of ['email', 'card-number', 'expiry', 'cvc', 'name']) expect(page.html).toContain(`<label for="${id}">`)
    expect(page.html).toContain('value="paciente@innera.local" readonly')
    expect(page.html).toContain('<code>4242 4242 4242 4242</code>: Approved')
    expect(page.html).toContain('<a href="http://app.test/carrinho">')
  })

  it('declines with Stripe’s reasons, keeps the session open and never shows the card number back', async () => {
    const created = await session()
    const declined = await browse(created.url!, card('4000 0000 0000 0002'))
    expect(declined.status).toBe(402)
    expect(declined.html).toContain('<p role="alert" id="payment-error">Your card was declined.</p>')
    // The number typed is not put back in the form (the list of test cards shows it, of course).
    expect(declined.html).toContain('<input id="card-number" name="card_number" type="text" inputmode="numeric" autocomplete="cc-number" required aria-describedby="test-cards">')
    const poor = await browse(created.url!, card('4000000000009995'))
    expect(poor.html).toContain('Your card has insufficient funds.')

    const open = await stripe.checkout.sessions.retrieve(created.id)
    expect(open).toMatchObject({ status: 'open', payment_status: 'unpaid' })
    const intent = await stripe.paymentIntents.retrieve(open.payment_intent as string)
    expect(intent).toMatchObject({ status: 'requires_payment_method', amount: 18_000, metadata: { purchase_id: '42' }, description: 'Compra 42', last_payment_error: { decline_code: 'insufficient_funds' } })
    expect((await stripe.events.list({ type: 'payment_intent.payment_failed' })).data).toHaveLength(2)
  })

  it('refuses other cards and incomplete fields', async () => {
    const created = await session()
    const real = await browse(created.url!, card('4111 1111 1111 1111'))
    expect(real.status).toBe(400)
    expect(real.html).toContain('used a non test card')
    expect((await browse(created.url!, card('4242424242424242', { expiry: '01/26' }))).html).toContain('Your card&#39;s expiration year is in the past.')
    expect((await browse(created.url!, card('4242424242424242', { cvc: '1' }))).html).toContain('Your card&#39;s security code is incomplete.')
    expect((await stripe.checkout.sessions.retrieve(created.id)).payment_intent).toBeNull()
  })

  it('pays with 4242 4242 4242 4242, completes the session and goes to success_url', async () => {
    const created = await session()
    await browse(created.url!, card('4000000000000002'))
    const paid = await browse(created.url!, card('4242 4242 4242 4242'))
    expect(paid.status).toBe(303)
    expect(paid.headers.get('location')).toBe(`http://app.test/compras/sucesso?session_id=${created.id}`)

    const complete = await stripe.checkout.sessions.retrieve(created.id)
    expect(complete).toMatchObject({ status: 'complete', payment_status: 'paid', url: null, customer_details: { email: 'paciente@innera.local', name: 'Pedro Santos' } })
    const intent = await stripe.paymentIntents.retrieve(complete.payment_intent as string)
    expect(intent).toMatchObject({ status: 'succeeded', amount_received: 18_000 })
    const [completed] = (await stripe.events.list({ type: 'checkout.session.completed' })).data
    expect(completed!.data.object).toMatchObject({ id: created.id, payment_status: 'paid', payment_intent: intent.id })

    expect((await browse(created.url!)).html).toContain('<h1>Payment complete</h1>')
    expect((await browse(created.url!, card('4242424242424242'))).status).toBe(409)
  })

  it('pays the review card, placed in review', async () => {
    const created = await session()
    expect((await browse(created.url!, card('4000000000009235'))).status).toBe(303)
    const intent = await stripe.paymentIntents.retrieve((await stripe.checkout.sessions.retrieve(created.id)).payment_intent as string)
    expect(intent.review).toMatch(/^prv_/)
  })

  it('expires at expires_at, or when told to, and cancels its payment intent', async () => {
    const created = await session({ expires_at: NOW / 1000 + 1800 })
    await browse(created.url!, card('4000000000000002'))
    setup.time.advance(1800)
    const page = await browse(created.url!)
    expect(page.html).toContain('<h1>This payment page has expired</h1>')
    const expired = await stripe.checkout.sessions.retrieve(created.id)
    expect(expired).toMatchObject({ status: 'expired', url: null })
    expect(await stripe.paymentIntents.retrieve(expired.payment_intent as string)).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' })
    expect((await stripe.events.list({ type: 'checkout.session.expired' })).data).toHaveLength(1)

    const other = await session()
    expect(await stripe.checkout.sessions.expire(other.id)).toMatchObject({ status: 'expired' })
    await expect(stripe.checkout.sessions.expire(other.id)).rejects.toMatchObject({ statusCode: 400 })
  })

  it('answers 404 for an unknown session', async () => {
    expect((await browse(`${PUBLIC_URL}/fake-stripe/checkout/cs_test_${'a'.repeat(58)}`)).status).toBe(404)
    expect((await browse(`${PUBLIC_URL}/fake-stripe/checkout/nothing`)).status).toBe(404)
  })
})

describe('the PIX development page', () => {
  const pix = () =>
    stripe.paymentIntents.create({
      amount: 18_000,
      currency: 'brl',
      allowed_payment_method_types: ['pix'],
      payment_method_data: { type: 'pix' },
      confirm: true,
      description: 'Consulta <b>Paula</b>',
    })

  it('shows the charge, its QR code and code, and pays it', async () => {
    const intent = await pix()
    const url = intent.next_action!.pix_display_qr_code!.hosted_instructions_url!
    const page = await browse(url)
    expect(page.status).toBe(200)
    expect(page.html).toMatch(/<dt>Amount<\/dt><dd>R\$\s180,00<\/dd>/)
    expect(page.html).toContain('<dd id="status">Waiting for payment</dd>')
    expect(page.html).toContain('Consulta &lt;b&gt;Paula&lt;/b&gt;')
    expect(page.html).toContain('<dd>03/03/2026, 09:00:00 (America/Sao_Paulo)</dd>')
    expect(page.html).toContain(`<textarea id="code" readonly rows="4">${intent.next_action!.pix_display_qr_code!.data}</textarea>`)
    expect(page.html).toContain(`<img src="${intent.id}/qr.svg" alt="QR code of this PIX charge"`)

    const svg = await fake.app.request(intent.next_action!.pix_display_qr_code!.image_url_svg!)
    expect(svg.headers.get('content-type')).toBe('image/svg+xml')
    expect(await svg.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    const png = await fake.app.request(intent.next_action!.pix_display_qr_code!.image_url_png!)
    expect([...new Uint8Array(await png.arrayBuffer()).slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47])

    const paid = await browse(url, { decision: 'succeed' })
    expect(paid.status).toBe(303)
    expect(paid.headers.get('location')).toBe(url)
    expect((await browse(url)).html).toContain('<dd id="status">Paid</dd>')
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe('succeeded')
    expect((await fake.app.request(intent.next_action!.pix_display_qr_code!.image_url_svg!)).status).toBe(404)
    // Paying again changes nothing.
    expect((await browse(url, { decision: 'succeed' })).status).toBe(303)
    expect((await stripe.events.list({ type: 'payment_intent.succeeded' })).data).toHaveLength(1)
  })

  // Issue 41: ISO/IEC 18004 asks for a quiet zone of 4 modules, and some bank apps will not read less.
  it('draws the QR code, SVG and PNG, with a quiet zone of 4 modules on every side', async () => {
    const qr = (await pix()).next_action!.pix_display_qr_code!
    const modules = QRCode.create(qr.data!, { errorCorrectionLevel: 'M' }).modules.size
    const svg = svgQuietZone(await (await fake.app.request(qr.image_url_svg!)).text())
    expect(svg).toEqual({ size: modules + 8, top: 4, left: 4, bottom: 4, right: 4 })
    // 320 pixels for the symbol and its margin: a module is not a whole number of pixels, so each side is 4 give or take a pixel.
    const png = pngQuietZone(new Uint8Array(await (await fake.app.request(qr.image_url_png!)).arrayBuffer()))
    expect(Object.values(png).map(Math.round)).toEqual([4, 4, 4, 4])
  })

  it('fails it as the bank would', async () => {
    const intent = await pix()
    const url = intent.next_action!.pix_display_qr_code!.hosted_instructions_url!
    await browse(url, { decision: 'fail' })
    const page = await browse(url)
    expect(page.html).toContain('<dd id="status">Not paid (failed or expired)</dd>')
    expect(page.html).toContain("<p role=\"alert\">The payer&#39;s bank refused the PIX payment.</p>")
    expect((await browse(url, { decision: 'maybe' })).status).toBe(400)
  })

  it('answers 404 for a card payment, an unknown id or a malformed one', async () => {
    const card = await stripe.paymentIntents.create({ amount: 5000, currency: 'brl', payment_method: 'pm_card_visa', confirm: true })
    for (const id of [card.id, `pi_${'a'.repeat(24)}`, 'pi_<script>']) expect((await browse(`${PUBLIC_URL}/fake-stripe/pix/${encodeURIComponent(id)}`)).status).toBe(404)
  })
})

describe('formProblem', () => {
  it('checks e-mail, number shape, expiry and CVC', () => {
    expect(formProblem('a@b.co', '4242 4242 4242 4242', '03/26', '123', NOW)).toBeUndefined()
    expect(formProblem('a@b.co', '4242424242424242', '12/2030', '1234', NOW)).toBeUndefined()
    expect(formProblem('nope', '4242424242424242', '12/30', '123', NOW)).toBe('Your email address is invalid.')
    expect(formProblem('a@b.co', '4242', '12/30', '123', NOW)).toBe('Your card number is incomplete.')
    expect(formProblem('a@b.co', '4242424242424242', '13/30', '123', NOW)).toBe("Your card's expiration date is incomplete.")
    expect(formProblem('a@b.co', '4242424242424242', '02/26', '123', NOW)).toBe("Your card's expiration year is in the past.")
    expect(formProblem('a@b.co', '4242424242424242', '12/30', '12a', NOW)).toBe("Your card's security code is incomplete.")
  })
})
