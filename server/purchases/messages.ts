import type { LocalizedText } from '#server/db/schema.ts'
import { greeting, render, type MailMessage } from '#server/mail/messages.ts'
import { dateTimeIn, zoneNamed, zoneOr } from '#server/zones.ts'

/**
 * The buyer's e-mails about a purchase (decision 0054), in the house style (Portuguese, an English
 * line beneath): the receipt once it is paid, and each refund once it is made. Pure: what they say
 * comes from the rows the caller read. Amounts, names and dates only; the link is the purchase's page.
 * Times are the buyer's, in their own time zone and named (decision 0077).
 */

type ReceiptFacts = {
  to: string
  firstName: string
  purchaseId: number
  method: 'card' | 'pix'
  totalCents: number
  paidAt: Date
  /** The lines, a consultation's composed in the buyer's zone (consultation-lines.ts). */
  items: { name: LocalizedText; quantity: number }[]
  /** The buyer's IANA time zone (users.time_zone). */
  timeZone: string
  appUrl: string
}

export type RefundFacts = {
  to: string
  firstName: string
  purchaseId: number
  method: 'card' | 'pix'
  amountCents: number
  reason: 'cancel' | 'late_payment' | 'double_payment' | 'superseded' | 'wrong_amount'
  /** Who cancelled, for a cancellation's refund: the buyer (the default), the consultation's professional, or the Innera team (an admin). */
  cancelledBy?: 'buyer' | 'professional' | 'team'
  appUrl: string
}

const money = (cents: number) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(cents / 100)
/** "7 de dezembro de 2026, 10:50 (Horário Padrão de Brasília, Sao Paulo, GMT-3)", in the buyer's zone. */
const dateTime = (instant: Date, timeZone: string) => {
  const zone = zoneOr(timeZone)
  return `${dateTimeIn(instant, zone, 'pt')} (${zoneNamed(zone, 'pt', instant)})`
}
const methodName = { card: 'cartão de crédito', pix: 'PIX' } as const
const link = (appUrl: string, purchaseId: number) => `${appUrl}/compras/${purchaseId}`

export function receiptMail(facts: ReceiptFacts): MailMessage {
  const items = facts.items.map((item) => (item.quantity > 1 ? `${item.name.pt} (${item.quantity})` : item.name.pt)).join('; ')
  return render(
    facts.to,
    `Recibo da sua compra nº ${facts.purchaseId} na Innera`,
    [
      greeting(facts.firstName),
      `Recebemos ${money(facts.totalCents)} por ${methodName[facts.method]} em ${dateTime(facts.paidAt, facts.timeZone)}, por: ${items}. O recibo para imprimir está na página da compra:`,
      'Você pode desistir em até 7 dias corridos com reembolso integral, na mesma página.',
    ],
    link(facts.appUrl, facts.purchaseId),
    `We received ${money(facts.totalCents)} for your purchase no. ${facts.purchaseId}. Its printable receipt is on the purchase's page.`,
  )
}

const refundWhy = {
  cancel: 'do cancelamento que você pediu',
  cancel_professional: 'porque o(a) profissional cancelou a consulta',
  cancel_team: 'do cancelamento feito pela equipe da Innera',
  late_payment: 'de um pagamento que chegou depois que a compra já tinha expirado ou sido cancelada',
  double_payment: 'de um pagamento feito em dobro',
  superseded: 'de um pagamento que chegou para uma compra substituída por outra com o mesmo produto (você não paga duas vezes)',
  wrong_amount: 'de um pagamento cujo valor não era o da compra (ela não foi paga por ele)',
} as const

const refundWhen = { card: 'No cartão, ele aparece em até 2 faturas.', pix: 'Por PIX, ele chega em até 3 dias úteis.' } as const

const whyKey = ({ reason, cancelledBy = 'buyer' }: RefundFacts): keyof typeof refundWhy =>
  reason === 'cancel' && cancelledBy !== 'buyer' ? `cancel_${cancelledBy}` : reason

export function refundMail(facts: RefundFacts): MailMessage {
  return render(
    facts.to,
    `Reembolso de ${money(facts.amountCents)} da compra nº ${facts.purchaseId}`,
    [greeting(facts.firstName), `Fizemos o reembolso de ${money(facts.amountCents)} ${refundWhy[whyKey(facts)]}. ${refundWhen[facts.method]} Veja a compra:`],
    link(facts.appUrl, facts.purchaseId),
    `We refunded ${money(facts.amountCents)} of your purchase no. ${facts.purchaseId}. ${facts.method === 'pix' ? 'By PIX it arrives within 3 business days.' : 'On your card it shows within 2 statements.'}`,
  )
}
