import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { products, subscriptions, users } from '#server/db/schema.ts'
import { consultationLineName } from '#server/purchases/consultation-lines.ts'
import { receiptMail } from '#server/purchases/messages.ts'
import { subscriptionMail } from '#server/subscriptions/messages.ts'
import { createMemoryDatabase } from '#server/testing/harness.ts'
import { appointmentMessage } from '#server/mail/appointment-messages.ts'

/**
 * Decision 0077: every e-mail tells its times in its recipient's own zone. A patient in São Paulo
 * and a professional in Lisbon, in December and on both sides of Lisbon's change to summer time
 * (2026-03-29, 01:00 UTC; São Paulo keeps GMT-3).
 */

const SAO_PAULO = 'America/Sao_Paulo'
const LISBON = 'Europe/Lisbon'
const ines = { professional: 'Inês Marques', timeZone: LISBON }

describe('the receipt', () => {
  const facts = (timeZone: string) => {
    const startsAt = new Date('2026-12-07T13:50:00Z')
    return {
      to: 'mariana@example.com',
      firstName: 'Mariana',
      purchaseId: 7,
      method: 'pix' as const,
      totalCents: 20_000,
      paidAt: new Date('2026-12-01T15:00:00Z'),
      // The line as notices.ts reads it for this buyer (consultation-lines.ts).
      items: [{ name: consultationLineName({ ...ines, startsAt }, timeZone), quantity: 1 }],
      timeZone,
      appUrl: 'http://app.test',
    }
  }

  it('says when it was paid and the consultation’s time in the buyer’s zone, named', () => {
    expect(receiptMail(facts(SAO_PAULO)).text).toContain(
      'Recebemos R$\u00a0200,00 por PIX em 1 de dezembro de 2026, 12:00 (Horário Padrão de Brasília, Sao Paulo, GMT-3), por: Consulta com Inês Marques, 7 de dezembro de 2026, 10:50 (Horário Padrão de Brasília, Sao Paulo, GMT-3).',
    )
    // A buyer who lives in Lisbon reads Lisbon's clock, and Inês's zone is then theirs: nothing more to name on the line.
    expect(receiptMail(facts(LISBON)).text).toContain(
      'por PIX em 1 de dezembro de 2026, 15:00 (Horário da Europa Ocidental, Lisbon, GMT+0), por: Consulta com Inês Marques, 7 de dezembro de 2026, 13:50.',
    )
  })
})

describe('a consultation’s e-mails', () => {
  const message = (start: string, to: { firstName: string; timeZone: string }, other: string) =>
    appointmentMessage({ kind: 'confirmation', to: { email: `${to.firstName}@example.com`, ...to }, otherFirstName: other, start: new Date(start), link: 'http://app.test/consultas/1' })

  it('the patient reads São Paulo’s clock, the professional Lisbon’s, each zone named', () => {
    const patient = message('2026-12-07T13:50:00Z', { firstName: 'Mariana', timeZone: SAO_PAULO }, 'Inês')
    const professional = message('2026-12-07T13:50:00Z', { firstName: 'Inês', timeZone: LISBON }, 'Mariana')
    expect(patient.subject).toBe('Consulta Innera com Inês agendada para 7/12 às 10:50')
    expect(patient.text).toContain('segunda-feira, 7 de dezembro de 2026 às 10:50 (Horário Padrão de Brasília)')
    expect(professional.subject).toBe('Consulta Innera com Mariana agendada para 7/12 às 13:50')
    expect(professional.text).toContain('segunda-feira, 7 de dezembro de 2026 às 13:50 (Horário Padrão da Europa Ocidental)')
  })

  it('around Lisbon’s change to summer time, the same São Paulo hour is 13:50 and then 14:50 in Lisbon', () => {
    const before = message('2026-03-28T13:50:00Z', { firstName: 'Inês', timeZone: LISBON }, 'Mariana')
    const after = message('2026-03-30T13:50:00Z', { firstName: 'Inês', timeZone: LISBON }, 'Mariana')
    expect(before.text).toContain('sábado, 28 de março de 2026 às 13:50 (Horário Padrão da Europa Ocidental)')
    expect(after.text).toContain('segunda-feira, 30 de março de 2026 às 14:50 (Horário de Verão da Europa Ocidental)')
    expect(message('2026-03-30T13:50:00Z', { firstName: 'Mariana', timeZone: SAO_PAULO }, 'Inês').text).toContain('segunda-feira, 30 de março de 2026 às 10:50 (Horário Padrão de Brasília)')
  })
})

describe('the subscription e-mails (read from the database)', () => {
  let database: DatabaseHandle
  beforeAll(async () => {
    database = await createMemoryDatabase()
  })
  afterAll(async () => {
    await database.close()
  })

  it('date the period’s end on the day it falls on in the subscriber’s zone', async () => {
    const db = database.db
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'paciente@innera.local'))
    const [product] = await db.select({ id: products.id }).from(products).limit(1)
    // 02:00 UTC on 10 December: still the 9th in São Paulo, already the 10th in Lisbon.
    const end = new Date('2026-12-10T02:00:00Z')
    const [subscription] = await db
      .insert(subscriptions)
      .values({ userId: user!.id, productId: product!.id, method: 'pix', status: 'active', priceCents: 4990, idempotencyKey: 'recipient-zones', currentPeriodStart: new Date('2026-11-10T02:00:00Z'), currentPeriodEnd: end })
      .returning()
    const reminder = async () => (await subscriptionMail(db, { kind: 'pix_reminder', subscription: subscription!, appUrl: 'http://app.test' }))!
    expect((await reminder()).subject).toMatch(/vence em 9 de dezembro de 2026$/)
    await db.update(users).set({ timeZone: LISBON }).where(eq(users.id, user!.id))
    expect((await reminder()).subject).toMatch(/vence em 10 de dezembro de 2026$/)
  })
})
