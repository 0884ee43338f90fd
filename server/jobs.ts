import { dispatchDueMessages, type DispatchReport } from './appointments/reminders'
import { deliverOutbox, type DeliveryReport } from './mail/delivery'
import type { Services } from './services'

/**
 * The provider's periodic work (issue 12), each run safe to repeat and to run in several
 * processes at once: due confirmations and reminders become outbox messages
 * (appointments/reminders.ts), and with SMTP_URL the outbox is delivered (mail/delivery.ts).
 * main.ts starts them; tests call the ticks directly with a fake clock.
 */

/** Due scheduled messages into the outbox, as of now. */
export function reminderTick({ db, clock, config }: Services): Promise<DispatchReport> {
  return dispatchDueMessages(db, { now: clock(), appPublicUrl: config.appPublicUrl })
}

/** The outbox through SMTP; nothing without SMTP_URL (the development mailbox shows the table). */
export async function mailTick({ db, clock, log, mailSender }: Services): Promise<DeliveryReport | undefined> {
  if (!mailSender) return undefined
  return deliverOutbox(db, { sender: mailSender, clock, log })
}

/** Starts the ticks on the background tasks; `background.stop()` ends them on shutdown. */
export function startPeriodicJobs(services: Services): void {
  const { background, config } = services
  background.every('reminders', config.reminderTickMs, () => reminderTick(services))
  if (services.mailSender) background.every('mail delivery', config.mailTickMs, () => mailTick(services))
}
