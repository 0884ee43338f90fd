import { eq } from 'drizzle-orm'
import type { Writer } from '#server/db/client.ts'
import { outbox, products, users } from '#server/db/schema.ts'
import { greeting, render, type MailMessage } from '#server/mail/messages.ts'
import { dateIn as dateInZone, zoneOr } from '#server/zones.ts'
import type { SubscriptionRow } from '#server/subscriptions/repository.ts'
import { nextPeriodCents } from '#server/subscriptions/terms.ts'

/**
 * The e-mails about a subscription (decision 0052), in the house style (Portuguese, an English
 * line beneath): the PIX reminder 7 days before a period ends, a PIX subscription that lapsed, a
 * card renewal that failed and the subscription it then ended, a new price told ahead (decision
 * 0053) and a told price withdrawn. Nothing but the plan's name, the
 * dates and the amount, and the link to the subscription's page. The dates are the days the
 * instants fall on in the subscriber's own time zone (decision 0077).
 */
export type SubscriptionMailKind = 'pix_reminder' | 'lapsed' | 'renewal_failed' | 'ended_unpaid' | 'price_change' | 'price_change_withdrawn'

const dateIn = (timeZone: string) => (instant: Date) => dateInZone(instant, timeZone, 'pt')
const money = (cents: number) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(cents / 100)

/** The message for this subscription's subscriber, or undefined when they can no longer be written to. */
export async function subscriptionMail(tx: Writer, { kind, subscription, appUrl }: { kind: SubscriptionMailKind; subscription: SubscriptionRow; appUrl: string }): Promise<MailMessage | undefined> {
  const [row] = await tx
    .select({ email: users.email, firstName: users.firstName, isActive: users.isActive, timeZone: users.timeZone, plan: products.name })
    .from(users)
    .innerJoin(products, eq(products.id, subscription.productId))
    .where(eq(users.id, subscription.userId))
  if (!row || !row.isActive) return undefined
  const date = dateIn(zoneOr(row.timeZone))
  const plan = row.plan.pt
  const link = `${appUrl}/assinaturas/${subscription.id}`
  const end = subscription.currentPeriodEnd ? date(subscription.currentPeriodEnd) : ''
  const next = subscription.currentPeriodEnd
    ? nextPeriodCents({ ...subscription, nextPriceFrom: subscription.nextPriceFrom?.getTime() ?? null, currentPeriodEnd: subscription.currentPeriodEnd.getTime() })
    : subscription.priceCents
  switch (kind) {
    case 'pix_reminder':
      return render(
        row.email,
        `Sua assinatura ${plan} vence em ${end}`,
        [greeting(row.firstName), `Seu período do ${plan} vai até ${end}. Para continuar com acesso, pague o próximo período (${money(next)}) com PIX pela página da sua assinatura:`, 'Se preferir encerrar, não é preciso fazer nada: o acesso continua até o fim do período.'],
        link,
        `Your ${plan} period ends on ${end}. Pay the next one by PIX on your subscription's page to keep your access.`,
      )
    case 'lapsed':
      return render(
        row.email,
        `Sua assinatura ${plan} terminou`,
        [greeting(row.firstName), `O período do ${plan} terminou em ${end} sem o pagamento do próximo, e a assinatura foi encerrada. Para voltar, assine de novo quando quiser:`, 'Nada foi cobrado.'],
        link,
        `Your ${plan} subscription ended on ${end}: the next period was not paid. Nothing was charged.`,
      )
    case 'renewal_failed':
      return render(
        row.email,
        `Não conseguimos renovar sua assinatura ${plan}`,
        [greeting(row.firstName), `O cartão recusou a renovação do ${plan} (${money(next)}). Seu acesso continua por 7 dias enquanto tentamos de novo. Para pagar agora com outro cartão, troque-o na página da assinatura:`, 'Se o pagamento não for feito nesse prazo, a assinatura será encerrada.'],
        link,
        `The card declined the renewal of your ${plan}. Access continues for 7 days while we try again; to pay now with another card, change it on the subscription's page.`,
      )
    case 'price_change': {
      const from = subscription.nextPriceFrom ? date(subscription.nextPriceFrom) : ''
      const higher = (subscription.nextPriceCents ?? 0) > subscription.priceCents
      return render(
        row.email,
        `O preço do ${plan} muda em ${from}`,
        [
          greeting(row.firstName),
          `O ${plan} passa de ${money(subscription.priceCents)} para ${money(subscription.nextPriceCents ?? subscription.priceCents)} por período a partir da renovação de ${from}. Até lá, nada muda. Veja a sua assinatura:`,
          ...(higher ? ['Se não quiser continuar com o novo preço, cancele antes dessa data na mesma página; o acesso continua até o fim do período pago.'] : []),
        ],
        link,
        `The price of your ${plan} changes from ${money(subscription.priceCents)} to ${money(subscription.nextPriceCents ?? subscription.priceCents)} from the renewal on ${from}. Nothing changes until then.`,
      )
    }
    case 'price_change_withdrawn':
      return render(
        row.email,
        `O preço do ${plan} não vai mudar`,
        [greeting(row.firstName), `A mudança de preço que anunciamos para o ${plan} foi cancelada: você continua pagando ${money(subscription.priceCents)} por período.`],
        link,
        `The price change we announced for your ${plan} is off: you keep paying ${money(subscription.priceCents)} per period.`,
      )
    case 'ended_unpaid':
      return render(
        row.email,
        `Sua assinatura ${plan} foi encerrada`,
        [greeting(row.firstName), `Não conseguimos cobrar a renovação do ${plan} em 7 dias, e a assinatura foi encerrada. Para voltar, assine de novo quando quiser:`, 'Nada mais será cobrado.'],
        link,
        `We could not charge the renewal of your ${plan} within 7 days, so the subscription ended. Nothing more will be charged.`,
      )
  }
}

/** A message about a subscription to its subscriber, queued in the caller's transaction (exactly once with what it tells). */
export async function queueSubscriptionMail(tx: Writer, subscription: SubscriptionRow, kind: SubscriptionMailKind, appUrl: string): Promise<void> {
  const message = await subscriptionMail(tx, { kind, subscription, appUrl })
  if (message) await tx.insert(outbox).values({ to: message.to, subject: message.subject, textBody: message.text, htmlBody: message.html })
}
