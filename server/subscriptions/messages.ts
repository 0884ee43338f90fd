import { eq } from 'drizzle-orm'
import type { Writer } from '#server/db/client.ts'
import { products, users } from '#server/db/schema.ts'
import { greeting, render, type MailMessage } from '#server/mail/messages.ts'
import type { SubscriptionRow } from './repository'

/**
 * The e-mails about a subscription (decision 0052), in the house style (Portuguese, an English
 * line beneath): the PIX reminder 7 days before a period ends, a PIX subscription that lapsed, a
 * card renewal that failed and the subscription it then ended. Nothing but the plan's name, the
 * dates and the amount, and the link to the subscription's page.
 */
export type SubscriptionMailKind = 'pix_reminder' | 'lapsed' | 'renewal_failed' | 'ended_unpaid'

const date = (instant: Date) => new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', day: 'numeric', month: 'long', year: 'numeric' }).format(instant)
const money = (cents: number) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(cents / 100)

/** The message for this subscription's subscriber, or undefined when they can no longer be written to. */
export async function subscriptionMail(tx: Writer, { kind, subscription, appUrl }: { kind: SubscriptionMailKind; subscription: SubscriptionRow; appUrl: string }): Promise<MailMessage | undefined> {
  const [row] = await tx
    .select({ email: users.email, firstName: users.firstName, isActive: users.isActive, plan: products.name })
    .from(users)
    .innerJoin(products, eq(products.id, subscription.productId))
    .where(eq(users.id, subscription.userId))
  if (!row || !row.isActive) return undefined
  const plan = row.plan.pt
  const link = `${appUrl}/assinaturas/${subscription.id}`
  const end = subscription.currentPeriodEnd ? date(subscription.currentPeriodEnd) : ''
  const next = subscription.nextPriceCents !== null && subscription.nextPriceFrom !== null && subscription.currentPeriodEnd && subscription.nextPriceFrom <= subscription.currentPeriodEnd ? subscription.nextPriceCents : subscription.priceCents
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
        [greeting(row.firstName), `O cartão recusou a renovação do ${plan} (${money(next)}). Seu acesso continua por 7 dias enquanto tentamos de novo; veja a assinatura:`, 'Se o pagamento não for feito nesse prazo, a assinatura será encerrada.'],
        link,
        `The card declined the renewal of your ${plan}. Access continues for 7 days while we try again.`,
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
