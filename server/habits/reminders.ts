import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import { localDateOf, storedClockMinutes, wallClockOf } from '#server/dates.ts'
import type { Database } from '#server/db/client.ts'
import { habitEntries, habitReminders, habits, outbox, users } from '#server/db/schema.ts'
import { greeting, render, type MailMessage } from '#server/mail/messages.ts'
import { isDue } from '#server/habits/habit-stats.ts'

/**
 * Habit reminders (issue 14): at the habit's reminder time, in the user's own time zone, one
 * e-mail per habit and day, never for an archived habit, a day the habit is not due, or a day
 * already answered. "Exactly once" is the primary key of habit_reminders, inserted in the same
 * transaction as the outbox row: two processes, or a restart, cannot send a day's reminder twice.
 *
 * A reminder is sent only within two hours after its time: a provider that was down all morning
 * does not send the morning's reminders at night, and a habit made at 10:00 with a 09:00
 * reminder waits for tomorrow.
 */
const REMINDER_WINDOW_MINUTES = 120

export type HabitReminderReport = { sent: number }

/**
 * The reminder e-mail. No habit name in it: a name can tell about health ("dia sem álcool"), and
 * an inbox is read by more eyes than the product; the link opens the day's habits.
 */
export function habitReminderMessage({ to, firstName, reminderTime, link }: { to: string; firstName: string; reminderTime: string; link: string }): MailMessage {
  return render(
    to,
    `Seu hábito das ${reminderTime} na Innera`,
    [greeting(firstName), `Chegou a hora de um dos seus hábitos de hoje (${reminderTime}). Marque o que fez pelo link abaixo:`, 'Um passo pequeno por dia já conta.'],
    link,
    `It is time for one of today's habits (${reminderTime}); the link above lets you mark it.`,
  )
}

/** Queues the reminders due now. Safe to run in several processes at once. */
export async function dispatchHabitReminders(db: Database, { now, appPublicUrl }: { now: number; appPublicUrl: string }): Promise<HabitReminderReport> {
  const candidates = await db
    .select({ id: habits.id, frequency: habits.frequency, reminderTime: habits.reminderTime, createdOn: habits.createdOn, email: users.email, firstName: users.firstName, timeZone: users.timeZone })
    .from(habits)
    .innerJoin(users, eq(users.id, habits.userId))
    .where(and(isNull(habits.archivedAt), isNotNull(habits.reminderTime), eq(users.isActive, true)))
  const report: HabitReminderReport = { sent: 0 }
  for (const habit of candidates) {
    const today = localDateOf(now, habit.timeZone)
    const late = storedClockMinutes(wallClockOf(now, habit.timeZone)) - storedClockMinutes(habit.reminderTime!)
    if (late < 0 || late > REMINDER_WINDOW_MINUTES || today < habit.createdOn || !isDue(habit.frequency, today)) continue
    const sent = await db.transaction(async (tx) => {
      const [answered] = await tx.select({ status: habitEntries.status }).from(habitEntries).where(and(eq(habitEntries.habitId, habit.id), eq(habitEntries.date, today)))
      if (answered) return false
      const [claimed] = await tx.insert(habitReminders).values({ habitId: habit.id, date: today, sentAt: new Date(now) }).onConflictDoNothing().returning({ habitId: habitReminders.habitId })
      if (!claimed) return false
      const message = habitReminderMessage({ to: habit.email, firstName: habit.firstName, reminderTime: habit.reminderTime!, link: `${appPublicUrl}/habitos` })
      await tx.insert(outbox).values({ to: message.to, subject: message.subject, textBody: message.text, htmlBody: message.html, createdAt: new Date(now), nextAttemptAt: new Date(now) })
      return true
    })
    if (sent) report.sent += 1
  }
  return report
}
