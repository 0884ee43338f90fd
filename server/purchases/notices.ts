import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm'
import { outbox, purchaseRefunds, purchases, users } from '#server/db/schema.ts'
import type { Writer } from '#server/db/client.ts'
import type { MailMessage } from '#server/mail/messages.ts'
import type { Services } from '#server/services.ts'
import { adminRefundEntries, consultationCancelledBy } from '#server/purchases/admin-queries.ts'
import { readItems } from '#server/purchases/consultation-lines.ts'
import { receiptMail, refundMail, type RefundFacts } from '#server/purchases/messages.ts'
import { itemsOf, lockPurchase } from '#server/purchases/repository.ts'

/**
 * The buyer's e-mails about purchases (decision 0054): a receipt for each paid purchase (a renewal
 * by card too) and a message for each refund once Stripe made it. A periodic job, not the webhook:
 * a payment is recorded in as few statements as it can be, and the e-mail may follow seconds later.
 * Each is queued exactly once: the row is locked, looked at again, and marked in the transaction
 * that queues the message, whichever provider process gets there first.
 */

const BATCH = 50

type NoticesReport = { receipts: number; refunds: number }

async function queue(tx: Writer, message: MailMessage | undefined) {
  if (message) await tx.insert(outbox).values({ to: message.to, subject: message.subject, textBody: message.text, htmlBody: message.html })
}

/** The buyer, when they can still be written to (an account deactivated is not). */
async function buyerOf(tx: Writer, userId: number) {
  const [row] = await tx.select({ email: users.email, firstName: users.firstName, timeZone: users.timeZone, isActive: users.isActive }).from(users).where(eq(users.id, userId))
  return row?.isActive ? row : undefined
}

/**
 * Who cancelled a purchase that is refunded for its cancellation, as the e-mail tells it: the
 * consultation's professional or an admin (who cancelled the consultation it pays, or refunded the
 * purchase: the audit log has it, decision 0061), else the buyer.
 */
async function cancellationAuthor(tx: Writer, purchaseId: number): Promise<RefundFacts['cancelledBy']> {
  const [consultation, adminEntries] = await Promise.all([consultationCancelledBy(tx, purchaseId), adminRefundEntries(tx, purchaseId)])
  if (consultation === 'professional') return 'professional'
  return consultation === 'admin' || adminEntries.length > 0 ? 'team' : 'buyer'
}

export async function purchaseNoticesTick(services: Services): Promise<NoticesReport> {
  const { db, clock, config } = services
  const report: NoticesReport = { receipts: 0, refunds: 0 }
  const paid = await db
    .select({ id: purchases.id })
    .from(purchases)
    .where(and(isNotNull(purchases.paidAt), isNull(purchases.receiptSentAt)))
    .orderBy(asc(purchases.paidAt), asc(purchases.id))
    .limit(BATCH)
  for (const { id } of paid) {
    const sent = await db.transaction(async (tx) => {
      const purchase = await lockPurchase(tx, id)
      if (!purchase?.paidAt || purchase.receiptSentAt) return false
      const buyer = await buyerOf(tx, purchase.userId)
      // A consultation's line in the buyer's zone, as the purchase's page says it (decision 0077).
      const items = buyer ? await readItems(tx, await itemsOf(tx, [id]), buyer.timeZone) : []
      await queue(
        tx,
        buyer &&
          receiptMail({ to: buyer.email, firstName: buyer.firstName, purchaseId: id, method: purchase.method, totalCents: purchase.totalCents, paidAt: purchase.paidAt, items, timeZone: buyer.timeZone, appUrl: config.appPublicUrl }),
      )
      await tx.update(purchases).set({ receiptSentAt: new Date(clock()) }).where(eq(purchases.id, id))
      return true
    })
    if (sent) report.receipts += 1
  }
  const made = await db
    .select({ id: purchaseRefunds.id })
    .from(purchaseRefunds)
    .where(and(eq(purchaseRefunds.status, 'succeeded'), isNull(purchaseRefunds.notifiedAt)))
    .orderBy(asc(purchaseRefunds.id))
    .limit(BATCH)
  for (const { id } of made) {
    const sent = await db.transaction(async (tx) => {
      const [refund] = await tx.select().from(purchaseRefunds).where(eq(purchaseRefunds.id, id)).for('update')
      if (!refund || refund.status !== 'succeeded' || refund.notifiedAt) return false
      const [purchase] = await tx.select({ userId: purchases.userId, method: purchases.method }).from(purchases).where(eq(purchases.id, refund.purchaseId))
      const buyer = purchase && (await buyerOf(tx, purchase.userId))
      const cancelledBy = refund.reason === 'cancel' ? await cancellationAuthor(tx, refund.purchaseId) : undefined
      await queue(
        tx,
        buyer &&
          refundMail({ to: buyer.email, firstName: buyer.firstName, purchaseId: refund.purchaseId, method: purchase.method, amountCents: refund.amountCents, reason: refund.reason, cancelledBy, appUrl: config.appPublicUrl }),
      )
      await tx.update(purchaseRefunds).set({ notifiedAt: new Date(clock()) }).where(eq(purchaseRefunds.id, id))
      return true
    })
    if (sent) report.refunds += 1
  }
  return report
}
