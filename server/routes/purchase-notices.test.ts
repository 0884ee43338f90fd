import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { outbox, purchaseRefunds, users } from '#server/db/schema.ts'
import { purchaseNoticesTick } from '#server/purchases/notices.ts'
import { withFakeStripe } from '#server/testing/stripe.ts'
import { subscriptionHelpers } from '#server/testing/subscriptions.ts'

/**
 * The buyer's e-mails (decision 0054): a receipt once a purchase is paid, news of each refund once
 * made; each once, also when two provider processes tick at the same time; nothing to an account
 * that was deactivated.
 */

const NOW = Date.parse('2026-03-10T15:00:00Z')
const setup = withFakeStripe(NOW)
const h = subscriptionHelpers(setup)
const { tokens } = h
const tick = () => purchaseNoticesTick(h.state.app.services)

async function paidCourse(token: string, slug = 'curso-sono-reparador') {
  const created = await h.state.api.post('/purchases/create/', { items: [{ product_id: await h.productId(slug), quantity: 1 }], method: 'pix', idempotency_key: h.newKey() }, { token })
  expect(created.status).toBe(201)
  await h.settlePix(created.json.id, 'succeed')
  expect((await h.purchaseRow(created.json.id)).status).toBe('paid')
  return created.json.id as number
}

const mailTo = async (email: string) => h.state.db.select().from(outbox).where(eq(outbox.to, email))

describe('the buyer’s e-mails', () => {
  it('a receipt once paid and news of the refund once made, each once, whoever ticks', async () => {
    const id = await paidCourse(tokens.patient)
    const reports = await Promise.all([tick(), tick()])
    expect(reports.reduce((sum, report) => sum + report.receipts, 0)).toBe(1)
    expect(await tick()).toEqual({ receipts: 0, refunds: 0 })
    const [receipt] = (await mailTo('paciente@innera.local')).filter((mail) => mail.subject.startsWith('Recibo'))
    expect(receipt).toMatchObject({ subject: `Recibo da sua compra nº ${id} na Innera` })
    expect(receipt!.textBody).toContain('Recebemos R$')
    expect(receipt!.textBody).toContain('por PIX em 10 de março de 2026')
    expect(receipt!.textBody).toContain('Curso Sono reparador')
    expect(receipt!.textBody).toContain(`/compras/${id}`)

    // Within the 7 days: the withdrawal, refunded in full by Stripe, and the buyer told.
    expect((await h.state.api.post(`/purchases/${id}/cancel/`, {}, { token: tokens.patient })).json.status).toBe('refunded')
    expect(await h.state.db.select({ status: purchaseRefunds.status }).from(purchaseRefunds).where(eq(purchaseRefunds.purchaseId, id))).toEqual([{ status: 'succeeded' }])
    expect(await tick()).toEqual({ receipts: 0, refunds: 1 })
    expect(await tick()).toEqual({ receipts: 0, refunds: 0 })
    const refund = (await mailTo('paciente@innera.local')).find((mail) => mail.subject.startsWith('Reembolso'))
    expect(refund?.subject).toMatch(new RegExp(`^Reembolso de R\\$\\s[\\d.,]+ da compra nº ${id}$`))
    expect(refund?.textBody).toContain('do cancelamento que você pediu. Por PIX, ele chega em até 3 dias úteis.')
  })

  it('nothing to an account deactivated meanwhile, and it is not tried again', async () => {
    await paidCourse(tokens.patient2, 'curso-estresse-sob-controle')
    await h.state.db.update(users).set({ isActive: false }).where(eq(users.email, 'paciente2@innera.local'))
    expect(await tick()).toMatchObject({ receipts: 1 })
    expect(await tick()).toMatchObject({ receipts: 0 })
    expect(await mailTo('paciente2@innera.local')).toEqual([])
    await h.state.db.update(users).set({ isActive: true }).where(eq(users.email, 'paciente2@innera.local'))
  })
})
