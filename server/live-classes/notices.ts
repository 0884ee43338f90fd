import { longWhen } from '#server/mail/appointment-messages.ts'
import { greeting, render, type MailMessage } from '#server/mail/messages.ts'
import { shownFirstName } from '#server/person-names.ts'

/**
 * What a live class's seat holders are told when an admin moves or cancels it (decision 0067), pure:
 * in the house style (Portuguese, an English line beneath), the time in each person's own zone, the
 * class's title and teacher's first name, never the meeting's link.
 */

type Recipient = { email: string; firstName: string; timeZone: string }

const withTeacher = (teacherFirstName: string) => (shownFirstName(teacherFirstName) ? ` com ${shownFirstName(teacherFirstName)}` : '')

/** The class has a new start or length: when it is now; the seat is kept and the reminders follow the new time. */
export function liveClassMovedMessage({ to, title, teacherFirstName, startsAt, durationMinutes, previousStartsAt, link }: { to: Recipient; title: string; teacherFirstName: string; startsAt: Date; durationMinutes: number; previousStartsAt: Date; link: string }): MailMessage {
  const moved = startsAt.getTime() !== previousStartsAt.getTime()
  return render(
    to.email,
    `Aula ao vivo "${title}": ${moved ? 'novo horário' : 'nova duração'}`.slice(0, 255),
    [
      greeting(to.firstName),
      moved
        ? `Sua aula ao vivo "${title}"${withTeacher(teacherFirstName)} mudou de horário: era ${longWhen(previousStartsAt, to.timeZone)} e agora é ${longWhen(startsAt, to.timeZone)}, com ${durationMinutes} minutos. Sua vaga continua garantida; a sala abre na página da aula 10 minutos antes do início:`
        : `Sua aula ao vivo "${title}"${withTeacher(teacherFirstName)}, ${longWhen(startsAt, to.timeZone)}, agora tem ${durationMinutes} minutos. Sua vaga continua garantida; a sala abre na página da aula 10 minutos antes do início:`,
      moved ? 'Os lembretes chegam antes do novo horário.' : 'Até lá!',
    ],
    link,
    moved ? 'Your Innera live class has a new time (above); your seat is kept and the reminders follow the new time.' : 'Your Innera live class now has a new length (above); your seat is kept.',
  )
}

/** The class was cancelled: when it would have been, and where the other classes are. The admin's reason stays in the audit log. */
export function liveClassCancelledMessage({ to, title, teacherFirstName, startsAt, link }: { to: Recipient; title: string; teacherFirstName: string; startsAt: Date; link: string }): MailMessage {
  return render(
    to.email,
    `Aula ao vivo "${title}" cancelada`.slice(0, 255),
    [
      greeting(to.firstName),
      `Sua aula ao vivo "${title}"${withTeacher(teacherFirstName)}, marcada para ${longWhen(startsAt, to.timeZone)}, foi cancelada e sua vaga, liberada. Pedimos desculpas pelo transtorno. Veja as próximas aulas ao vivo:`,
      'Você não precisa fazer nada.',
    ],
    link,
    'Your Innera live class (above) was cancelled and your seat released; the link lists the upcoming classes.',
  )
}
