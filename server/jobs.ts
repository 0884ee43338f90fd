import { dispatchDueMessages, type DispatchReport } from '#server/appointments/reminders.ts'
import { connectionsDueForSync } from '#server/calendar/connections.ts'
import { syncCalendar } from '#server/calendar/sync.ts'
import { autoSyncDueAtOrBefore } from '#server/calendar/sync-freshness.ts'
import { dispatchHabitReminders, type HabitReminderReport } from '#server/habits/reminders.ts'
import { dispatchLiveClassReminders, type LiveClassReminderReport } from '#server/live-classes/reminders.ts'
import { createDueMeetings } from '#server/live-classes/repository.ts'
import { errorFields } from '#server/log.ts'
import { dispatchMessageNotices, type MessageNoticeReport } from '#server/messages/notices.ts'
import { deliverOutbox, type DeliveryReport } from '#server/mail/delivery.ts'
import { RETENTION_TICK_MS, retentionTick } from '#server/privacy/retention-job.ts'
import { PURCHASES_TICK_MS, purchasesTick } from '#server/billing/tick.ts'
import { subscriptionsTick } from '#server/billing/subscriptions.ts'
import { purchaseNoticesTick } from '#server/purchases/notices.ts'
import type { Services } from '#server/services.ts'

/**
 * The provider's periodic work (issues 12 and 13), each run safe to repeat and to run in several
 * processes at once: due confirmations and reminders become outbox messages
 * (appointments/reminders.ts), with SMTP_URL the outbox is delivered (mail/delivery.ts), and
 * connected Google calendars are synced when their last sync is stale (calendar/sync.ts).
 * main.ts starts them; tests call the ticks directly with a fake clock.
 */

/** Due scheduled messages into the outbox, as of now. */
export function reminderTick({ db, clock, config, log }: Services): Promise<DispatchReport> {
  return dispatchDueMessages(db, { now: clock(), appPublicUrl: config.appPublicUrl, mail: config.mail, log })
}

/** Habit reminders due now into the outbox (issue 14), once per habit and day. */
export function habitReminderTick({ db, clock, config }: Services): Promise<HabitReminderReport> {
  return dispatchHabitReminders(db, { now: clock(), appPublicUrl: config.appPublicUrl })
}

type LiveClassTickReport = LiveClassReminderReport & { meetings: { created: number; failed: number } }

/**
 * The live classes (decision 0058): Zoom meetings for classes starting within 48 hours that have
 * none yet (else the first join makes it), and the reminders due 24 hours and 15 minutes before,
 * into the outbox once each.
 */
export async function liveClassTick(services: Services): Promise<LiveClassTickReport> {
  const meetings = await createDueMeetings(services)
  const reminders = await dispatchLiveClassReminders(services.db, { now: services.clock(), appPublicUrl: services.config.appPublicUrl })
  return { ...reminders, meetings }
}

/** Messages waiting unread for 15 minutes told by e-mail and Web Push, without their content (decisions 0085, 0087), once each. */
export function messageNoticeTick({ db, clock, config, push }: Services): Promise<MessageNoticeReport> {
  return dispatchMessageNotices(db, { now: clock(), appPublicUrl: config.appPublicUrl, push: (notice) => push.send(notice) })
}

/** The outbox through SMTP; nothing without SMTP_URL (the development mailbox shows the table). */
export async function mailTick({ db, clock, log, mailSender }: Services): Promise<DeliveryReport | undefined> {
  if (!mailSender) return undefined
  return deliverOutbox(db, { sender: mailSender, clock, log })
}

/** At most this many calendars per tick, one after the other: the next tick takes the rest. */
const CALENDARS_PER_TICK = 20

type CalendarSyncReport = { synced: number; failed: number }

/**
 * Syncs the connected calendars whose last sync is 15 minutes old or more (`needsAutoSync` of
 * calendar/sync-freshness.ts), so the busy time that free times leave out is at most that stale.
 * Each sync holds its calendar's lease: a calendar being synced elsewhere (another process, a
 * request) is skipped. A failure is logged, and the calendar waits another 15 minutes.
 */
export async function calendarSyncTick(services: Services): Promise<CalendarSyncReport> {
  const now = services.clock()
  const report: CalendarSyncReport = { synced: 0, failed: 0 }
  for (const userId of await connectionsDueForSync(services.db, now, autoSyncDueAtOrBefore(now), CALENDARS_PER_TICK)) {
    try {
      await syncCalendar(services, userId)
      report.synced += 1
    } catch (error) {
      report.failed += 1
      services.log({ level: 'warn', msg: 'periodic calendar sync failed', user_id: userId, error: errorFields(error).error })
    }
  }
  return report
}

/** Starts the ticks on the background tasks; `background.stop()` ends them on shutdown. */
export function startPeriodicJobs(services: Services): void {
  const { background, config } = services
  background.every('reminders', config.reminderTickMs, () => reminderTick(services))
  background.every('habit reminders', config.reminderTickMs, () => habitReminderTick(services))
  background.every('live classes', config.reminderTickMs, () => liveClassTick(services))
  background.every('message notices', config.reminderTickMs, () => messageNoticeTick(services))
  // Unfinished deletions finished, and once a day (one process: the database decides) the privacy policy's retention (privacy/retention-job.ts).
  background.every('retention', RETENTION_TICK_MS, () => retentionTick(services))
  if (services.mailSender) background.every('mail delivery', config.mailTickMs, () => mailTick(services))
  background.every('calendar sync', config.calendarSyncTickMs, () => calendarSyncTick(services))
  // Pending purchases past their expiry or not heard of, and refunds to send again (billing/tick.ts).
  if (services.stripe) background.every('purchases', PURCHASES_TICK_MS, () => purchasesTick(services))
  // Receipts of paid purchases and the news of refunds made, by e-mail, once each (purchases/notices.ts).
  if (services.stripe) background.every('purchase notices', config.reminderTickMs, () => purchaseNoticesTick(services))
  // PIX subscribers reminded 7 days before their period ends, periods over ended, renewals retried, new prices told (billing/subscriptions.ts).
  if (services.stripe) background.every('subscriptions', config.subscriptionsTickMs, () => subscriptionsTick(services))
}
