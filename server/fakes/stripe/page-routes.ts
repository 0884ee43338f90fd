import QRCode from 'qrcode'
import { pathParam, type AppContext, type Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { escapeHtml, HTML_PAGE_HEADERS, htmlDocument } from '#server/http/html.ts'
import { lineItemsOf, payCheckoutSession, retrieveCheckoutSession } from '#server/fakes/stripe/checkout.ts'
import { FakeStripeError } from '#server/fakes/stripe/errors.ts'
import { retrievePaymentIntent, settlePixCharge, TEST_CARDS, testCardByNumber, type FakeStripeContext } from '#server/fakes/stripe/payments.ts'
import { findObject, type StripeObject } from '#server/fakes/stripe/store.ts'
import type { Services } from '#server/services.ts'
import type { WebhookSender } from '#server/fakes/stripe/webhooks.ts'

/**
 * The fake Stripe's hosted pages (decision 0046), under /fake-stripe/ with FAKE_STRIPE: the
 * Checkout page of a session (`session.url`), which takes Stripe's documented test cards and
 * nothing else, and the development page of a PIX charge (`hosted_instructions_url`), which shows
 * the QR code and its "copia e cola" text and pays or fails the charge as the payer's bank would.
 * No scripts; every value is escaped. Card numbers are read, matched to a test card and dropped:
 * never stored, logged or shown back.
 */

const PAYMENT_INTENT_ID = /^pi_[A-Za-z0-9]{24}$/
const SESSION_ID = /^cs_test_[A-Za-z0-9]{58}$/
const ZONE = 'America/Sao_Paulo'
/**
 * How a PIX QR code is drawn, SVG and PNG alike: error correction M, and the quiet zone of 4
 * modules that ISO/IEC 18004 asks for (some bank apps read nothing narrower; issue 41).
 */
const PIX_QR = { errorCorrectionLevel: 'M', margin: 4 } as const

const money = (cents: number, currency: string) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100)
const when = (seconds: number) => `${new Intl.DateTimeFormat('pt-BR', { timeZone: ZONE, dateStyle: 'short', timeStyle: 'medium' }).format(new Date(seconds * 1000))} (${ZONE})`

const STYLES = `
  main { max-width: 32rem; }
  .notice { font-size: 0.9rem; border-left: 4px solid GrayText; padding-left: 0.75rem; }
  [role=alert] { border-left: 4px solid #b3261e; padding-left: 0.75rem; }
  form { display: grid; gap: 0.5rem; margin: 1.5rem 0; }
  input, textarea { font: inherit; padding: 0.5rem; }
  textarea { width: 100%; box-sizing: border-box; font-family: ui-monospace, monospace; font-size: 0.85rem; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 0.25rem 0.5rem 0.25rem 0; }
  td.amount, th.amount { text-align: right; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
  dd { margin: 0; }
  .actions { display: flex; gap: 0.75rem; flex-wrap: wrap; }`

const NOTICE = `<p class="notice">This is the provider's built-in stand-in for Stripe, for development and tests. No real money moves; only Stripe's test cards work.</p>`

function page(title: string, body: string): string {
  return htmlDocument({ title: `${title} (fake Stripe)`, body: `<main>\n${NOTICE}\n${body}\n</main>`, styles: STYLES })
}

function notFoundPage(c: AppContext, what: string) {
  return c.body(page('Not found', `<h1>Not found</h1><p>There is no ${escapeHtml(what)} with this id.</p>`), 404, HTML_PAGE_HEADERS)
}

type CheckoutForm = { email: string; name: string; expiry: string; error?: string }

async function renderCheckout(context: FakeStripeContext, session: StripeObject, form: CheckoutForm): Promise<string> {
  const setup = session.mode === 'setup'
  const total = setup ? '' : money(session.amount_total as number, session.currency as string)
  const items = setup ? [] : await lineItemsOf(context, session.id)
  const rows = items
    .map((item) => `<tr><td>${escapeHtml(item.description)}</td><td>${item.quantity}</td><td class="amount">${escapeHtml(money(item.amount_total, item.currency))}</td></tr>`)
    .join('\n')
  const cancel = session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url as string)}">Back to Innera without paying</a></p>` : ''
  const lockedEmail = Boolean(session.customer_email)
  const cards = TEST_CARDS.map((card) => `<li><code>${card.number.replace(/(\d{4})(?=\d)/g, '$1 ')}</code>: ${escapeHtml(card.label)}</li>`).join('\n')
  return page(
    'Checkout',
    `${
      setup
        ? `<h1>Save a card for Innera</h1>
<p>Innera will charge this card for your subscription from now on. Nothing is charged on this page.</p>`
        : `<h1>Pay Innera</h1>
<p>Total: <strong>${escapeHtml(total)}</strong></p>
<table>
<caption class="visually-hidden">What you are paying for</caption>
<thead><tr><th scope="col">Item</th><th scope="col">Quantity</th><th scope="col" class="amount">Amount</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    }
${form.error ? `<p role="alert" id="payment-error">${escapeHtml(form.error)}</p>` : ''}
<form method="post" action="${escapeHtml(session.id)}"${form.error ? ' aria-describedby="payment-error"' : ''}>
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(form.email)}"${lockedEmail ? ' readonly' : ''}>
  <label for="card-number">Card number</label>
  <input id="card-number" name="card_number" type="text" inputmode="numeric" autocomplete="cc-number" required aria-describedby="test-cards">
  <label for="expiry">Expiry (MM/YY)</label>
  <input id="expiry" name="expiry" type="text" inputmode="numeric" autocomplete="cc-exp" required placeholder="12/34" value="${escapeHtml(form.expiry)}">
  <label for="cvc">CVC</label>
  <input id="cvc" name="cvc" type="text" inputmode="numeric" autocomplete="cc-csc" required>
  <label for="name">Name on card</label>
  <input id="name" name="name" type="text" autocomplete="cc-name" value="${escapeHtml(form.name)}">
  <button type="submit">${setup ? 'Save card' : `Pay ${escapeHtml(total)}`}</button>
</form>
<section id="test-cards" aria-labelledby="test-cards-title">
<h2 id="test-cards-title">Test cards</h2>
<p>Any future expiry date and any 3 digits for the CVC.</p>
<ul>
${cards}
</ul>
</section>
${cancel}`,
  )
}

function renderClosedCheckout(session: StripeObject): string {
  if (session.status === 'complete') {
    return session.mode === 'setup'
      ? page('Checkout', `<h1>Card saved</h1><p>This card is saved. You can close this page.</p>`)
      : page('Checkout', `<h1>Payment complete</h1><p>This payment is done. You can close this page.</p>`)
  }
  const back = session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url as string)}">Back to Innera</a></p>` : ''
  return page('Checkout', `<h1>This payment page has expired</h1><p>Start the purchase again from Innera.</p>${back}`)
}

const PIX_STATUS: Record<string, string> = {
  requires_action: 'Waiting for payment',
  requires_payment_method: 'Not paid (failed or expired)',
  succeeded: 'Paid',
  canceled: 'Canceled',
  processing: 'Processing',
}

function renderPix(paymentIntent: StripeObject): string {
  const qr = (paymentIntent.next_action as { pix_display_qr_code?: { data: string; expires_at: number; image_url_svg: string } } | null)?.pix_display_qr_code
  const status = PIX_STATUS[paymentIntent.status as string] ?? String(paymentIntent.status)
  const error = (paymentIntent.last_payment_error as { message?: string } | null)?.message
  const waiting = paymentIntent.status === 'requires_action' && qr
  return page(
    'PIX charge',
    `<h1>PIX charge</h1>
<dl>
  <dt>Amount</dt><dd>${escapeHtml(money(paymentIntent.amount as number, paymentIntent.currency as string))}</dd>
  <dt>Status</dt><dd id="status">${escapeHtml(status)}</dd>
  ${paymentIntent.description ? `<dt>Description</dt><dd>${escapeHtml(paymentIntent.description as string)}</dd>` : ''}
  ${qr ? `<dt>Expires</dt><dd>${escapeHtml(when(qr.expires_at))}</dd>` : ''}
  <dt>Payment</dt><dd><code>${escapeHtml(paymentIntent.id)}</code></dd>
</dl>
${error && paymentIntent.status === 'requires_payment_method' ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
${
  waiting
    ? `<img src="${escapeHtml(paymentIntent.id)}/qr.svg" alt="QR code of this PIX charge" width="240" height="240">
<label for="code">PIX copia e cola</label>
<textarea id="code" readonly rows="4">${escapeHtml(qr.data)}</textarea>
<form method="post" action="${escapeHtml(paymentIntent.id)}">
  <p>Play the payer's bank:</p>
  <div class="actions">
    <button type="submit" name="decision" value="succeed">Pay this charge</button>
    <button type="submit" name="decision" value="fail">Refuse it (the bank fails the payment)</button>
  </div>
</form>`
    : ''
}`,
  )
}

export function registerFakeStripePageRoutes(api: Api, services: Services, webhooks: WebhookSender | undefined): void {
  const { db, config, clock, background } = services
  const context = (): FakeStripeContext => ({ db, now: clock(), publicUrl: config.providerPublicUrl, webhookUrl: config.stripe.fakeWebhookUrl })
  const sendWebhooks = () => {
    if (webhooks) background.run('fake stripe webhooks', () => webhooks.deliverDue())
  }

  /** The e-mail the page starts with: the session's, or (a card saved for a customer) the customer's, as Stripe fills it. */
  const payerEmail = async (session: StripeObject): Promise<string> => {
    if (session.customer_email) return session.customer_email as string
    const customer = session.customer ? await findObject(db, session.customer as string, 'customer') : undefined
    return (customer?.email as string | null | undefined) ?? ''
  }

  api.endpoint('/fake-stripe/checkout/:id', {
    GET: async (c) => {
      const id = pathParam(c, 'id')
      if (!SESSION_ID.test(id) || !(await findObject(db, id, 'checkout.session'))) return notFoundPage(c, 'payment page')
      const session = await retrieveCheckoutSession(context(), id)
      sendWebhooks()
      if (session.status !== 'open') return c.body(renderClosedCheckout(session), 200, HTML_PAGE_HEADERS)
      const html = await renderCheckout(context(), session, { email: await payerEmail(session), name: '', expiry: '' })
      return c.body(html, 200, HTML_PAGE_HEADERS)
    },
    POST: async (c) => {
      const id = pathParam(c, 'id')
      if (!SESSION_ID.test(id) || !(await findObject(db, id, 'checkout.session'))) return notFoundPage(c, 'payment page')
      const fields = await readFields(c.req.raw)
      const field = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string).trim() : '')
      const session = await retrieveCheckoutSession(context(), id)
      if (session.status !== 'open') {
        sendWebhooks()
        return c.body(renderClosedCheckout(session), 409, HTML_PAGE_HEADERS)
      }
      const email = (session.customer_email as string | null) ?? field('email').slice(0, 254)
      const form: CheckoutForm = { email, name: field('name').slice(0, 100), expiry: field('expiry').slice(0, 7) }
      const problem = formProblem(email, field('card_number'), form.expiry, field('cvc'), clock())
      const card = testCardByNumber(field('card_number'))
      if (problem || !card) {
        const error =
          problem ??
          'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, see the list below or https://docs.stripe.com/testing.'
        return c.body(await renderCheckout(context(), session, { ...form, error }), 400, HTML_PAGE_HEADERS)
      }
      const attempt = await payCheckoutSession(context(), id, { card, email, name: form.name })
      sendWebhooks()
      if (attempt.outcome === 'paid') return c.redirect(attempt.redirectTo, 303)
      if (attempt.outcome === 'closed') return c.body(renderClosedCheckout(attempt.session), 409, HTML_PAGE_HEADERS)
      return c.body(await renderCheckout(context(), attempt.session, { ...form, error: attempt.message }), 402, HTML_PAGE_HEADERS)
    },
  })

  const pixCharge = async (id: string): Promise<StripeObject | undefined> => {
    if (!PAYMENT_INTENT_ID.test(id)) return undefined
    const found = await findObject(db, id, 'payment_intent')
    if (!found || !(found.payment_method_types as string[]).includes('pix')) return undefined
    const paymentIntent = await retrievePaymentIntent(context(), id)
    sendWebhooks()
    return paymentIntent
  }

  api.endpoint('/fake-stripe/pix/:id', {
    GET: async (c) => {
      const paymentIntent = await pixCharge(pathParam(c, 'id'))
      if (!paymentIntent) return notFoundPage(c, 'PIX charge')
      return c.body(renderPix(paymentIntent), 200, HTML_PAGE_HEADERS)
    },
    POST: async (c) => {
      const id = pathParam(c, 'id')
      if (!(await pixCharge(id))) return notFoundPage(c, 'PIX charge')
      const decision = (await readFields(c.req.raw)).decision
      if (decision !== 'succeed' && decision !== 'fail') return c.body(page('PIX charge', '<h1>PIX charge</h1><p role="alert">Choose to pay or to refuse the charge.</p>'), 400, HTML_PAGE_HEADERS)
      try {
        await settlePixCharge(context(), id, decision)
      } catch (error) {
        // Paid, failed or canceled meanwhile: the page says what it is now.
        if (!(error instanceof FakeStripeError)) throw error
      }
      sendWebhooks()
      return c.redirect(`${config.providerPublicUrl}/fake-stripe/pix/${id}`, 303)
    },
  })

  const qrData = async (c: AppContext) => {
    const paymentIntent = await pixCharge(pathParam(c, 'id'))
    return paymentIntent?.status === 'requires_action' ? (paymentIntent.next_action as { pix_display_qr_code: { data: string } }).pix_display_qr_code.data : undefined
  }
  const imageHeaders = (type: string) => ({ 'Content-Type': type, 'Cache-Control': 'no-store', 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'" })

  api.endpoint('/fake-stripe/pix/:id/qr.svg', {
    GET: async (c) => {
      const data = await qrData(c)
      if (!data) return notFoundPage(c, 'PIX charge waiting for payment')
      return c.body(await QRCode.toString(data, { ...PIX_QR, type: 'svg' }), 200, imageHeaders('image/svg+xml'))
    },
  })
  api.endpoint('/fake-stripe/pix/:id/qr.png', {
    GET: async (c) => {
      const data = await qrData(c)
      if (!data) return notFoundPage(c, 'PIX charge waiting for payment')
      return c.body(new Uint8Array(await QRCode.toBuffer(data, { ...PIX_QR, type: 'png', width: 320 })), 200, imageHeaders('image/png'))
    },
  })
}

/** What is wrong with the Checkout form, in Stripe's words, or undefined. The card number is checked by the caller. */
export function formProblem(email: string, cardNumber: string, expiry: string, cvc: string, now: number): string | undefined {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return 'Your email address is invalid.'
  if (!/^[\d\s-]{12,23}$/.test(cardNumber)) return 'Your card number is incomplete.'
  const match = /^(\d{2})\s*\/\s*(\d{2}|\d{4})$/.exec(expiry)
  const month = Number(match?.[1])
  if (!match || month < 1 || month > 12) return "Your card's expiration date is incomplete."
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2])
  const today = new Date(now)
  if (year < today.getUTCFullYear() || (year === today.getUTCFullYear() && month < today.getUTCMonth() + 1)) return "Your card's expiration year is in the past."
  if (!/^\d{3,4}$/.test(cvc)) return "Your card's security code is incomplete."
  return undefined
}
