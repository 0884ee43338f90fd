import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Database } from '#server/db/client.ts'
import { liveClasses, liveClassSeats, outbox, users } from '#server/db/schema.ts'
import { longWhen } from '#server/mail/appointment-messages.ts'
import { greeting, render, type MailMessage } from '#server/mail/messages.ts'
import { shownFirstName } from '#server/person-names.ts'
import { REMINDER_15M_MS, REMINDER_24H_MS, reminderStillUseful, type ReminderKind } from '#server/live-classes/rules.ts'

/**
 * The live classes' reminders (decision 0058): to each person holding a seat, 24 hours and 15
 * minutes before the start, each exactly once. A tick claims due seats with one
 * UPDATE … WHERE (… FOR UPDATE SKIP LOCKED) RETURNING that sets the reminder's column, and writes
 * their outbox rows in the same transaction: another process skips those rows, and a crash half-way
 * loses neither. A reminder found due too late (the provider was down) is settled without a message.
 * No meeting link in the mail: the class's page gives it within the window.
 */

const BATCH = 100
const teacher = alias(users, 'teacher')

const COLUMNS = { '24h': liveClassSeats.reminded24hAt, '15m': liveClassSeats.reminded15mAt } as const
const OFFSETS: Record<ReminderKind, number> = { '24h': REMINDER_24H_MS, '15m': REMINDER_15M_MS }

export function liveClassReminder(kind: ReminderKind, { to, title, teacherFirstName, startsAt, link }: { to: { email: string; firstName: string; timeZone: string }; title: string; teacherFirstName: string; startsAt: Date; link: string }): MailMessage {
  const when = longWhen(startsAt, to.timeZone)
  const withTeacher = shownFirstName(teacherFirstName) ? ` com ${shownFirstName(teacherFirstName)}` : ''
  const subject = (kind === '24h' ? `Lembrete: aula ao vivo "${title}" amanhã` : `Sua aula ao vivo "${title}" começa em 15 minutos`).slice(0, 255)
  return render(
    to.email,
    subject,
    [
      greeting(to.firstName),
      kind === '24h'
        ? `Lembrete: sua aula ao vivo "${title}"${withTeacher} é ${when}. O link da sala aparece na página da aula a partir de 10 minutos antes do início:`
        : `Sua aula ao vivo "${title}"${withTeacher} começa em 15 minutos: ${when}. A sala já abre na página da aula, 10 minutos antes do início:`,
      kind === '24h' ? 'Enviaremos outro lembrete 15 minutos antes.' : 'Até já!',
    ],
    link,
    kind === '24h' ? 'A reminder of your Innera live class tomorrow; its page gives the room 10 minutes before it starts.' : 'Your Innera live class starts in 15 minutes; its page gives the room from 10 minutes before.',
  )
}

export type LiveClassReminderReport = { sent: number; skipped: number }

/** Due live-class reminders into the outbox, as of now, each exactly once across processes. */
export async function dispatchLiveClassReminders(db: Database, { now, appPublicUrl }: { now: number; appPublicUrl: string }): Promise<LiveClassReminderReport> {
  const report: LiveClassReminderReport = { sent: 0, skipped: 0 }
  const at = new Date(now)
  for (const kind of ['24h', '15m'] as const) {
    const column = COLUMNS[kind]
    for (;;) {
      const claimed = await db.transaction(async (tx) => {
        // Due: the class starts within the reminder's offset and has not started.
        const dueClasses = sql`(select ${liveClasses.id} from ${liveClasses} where ${liveClasses.cancelledAt} is null and ${liveClasses.startsAt} <= ${new Date(now + OFFSETS[kind])} and ${liveClasses.startsAt} > ${at})`
        const due = and(isNull(column), inArray(liveClassSeats.classId, dueClasses))
        const picked = tx
          .select({ classId: liveClassSeats.classId, userId: liveClassSeats.userId })
          .from(liveClassSeats)
          .where(due)
          .limit(BATCH)
          .for('update', { skipLocked: true })
        const rows = await tx
          .update(liveClassSeats)
          .set({ [kind === '24h' ? 'reminded24hAt' : 'reminded15mAt']: at })
          .where(and(sql`(${liveClassSeats.classId}, ${liveClassSeats.userId}) in (${picked})`, due))
          .returning({ classId: liveClassSeats.classId, userId: liveClassSeats.userId })
        if (rows.length === 0) return 0
        const details = await tx
          .select({
            classId: liveClassSeats.classId,
            email: users.email,
            firstName: users.firstName,
            timeZone: users.timeZone,
            isActive: users.isActive,
            title: liveClasses.title,
            startsAt: liveClasses.startsAt,
            durationMinutes: liveClasses.durationMinutes,
            teacherFirstName: teacher.firstName,
          })
          .from(liveClassSeats)
          .innerJoin(users, eq(users.id, liveClassSeats.userId))
          .innerJoin(liveClasses, eq(liveClasses.id, liveClassSeats.classId))
          .innerJoin(teacher, eq(teacher.id, liveClasses.teacherId))
          .where(sql`(${liveClassSeats.classId}, ${liveClassSeats.userId}) in (${sql.join(
            rows.map((row) => sql`(${row.classId}, ${row.userId})`),
            sql`, `,
          )})`)
        for (const row of details) {
          if (!row.isActive || !reminderStillUseful(kind, now, { startsAt: row.startsAt.getTime(), durationMinutes: row.durationMinutes })) {
            report.skipped += 1
            continue
          }
          const message = liveClassReminder(kind, {
            to: { email: row.email, firstName: row.firstName, timeZone: row.timeZone },
            title: row.title.pt,
            teacherFirstName: row.teacherFirstName,
            startsAt: row.startsAt,
            link: `${appPublicUrl}/aulas-ao-vivo/${row.classId}`,
          })
          await tx.insert(outbox).values({ to: message.to, subject: message.subject, textBody: message.text, htmlBody: message.html, createdAt: at, nextAttemptAt: at })
          report.sent += 1
        }
        return rows.length
      })
      if (claimed < BATCH) break
    }
  }
  return report
}

