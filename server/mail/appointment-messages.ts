import { shownFirstName } from '#server/person-names.ts'
import { greeting, render, type MailMessage } from '#server/mail/messages.ts'

/**
 * The e-mails about a consultation (issue 12): booked, the reminders 24 h and 1 h before, moved
 * and cancelled. Nothing about health goes in (LGPD: sensitive data stays in the product): the
 * title "Consulta Innera", the other person's first name, the time in the recipient's own time
 * zone and the link to the appointment in the app. No notes, no profession, no surname.
 */
export type AppointmentMailKind = 'confirmation' | 'reminder_24h' | 'reminder_1h' | 'moved' | 'cancelled'

type AppointmentMail = {
  kind: AppointmentMailKind
  /** The recipient: their address, first name and IANA time zone (users.time_zone). */
  to: { email: string; firstName: string; timeZone: string }
  /** The other person's first name. */
  otherFirstName: string
  start: Date
  /** For "moved": where it was before. */
  previousStart?: Date
  /** `${APP_PUBLIC_URL}/consultas/{id}` */
  link: string
}

const FALLBACK_TIME_ZONE = 'America/Sao_Paulo'

function zoneOrFallback(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('pt-BR', { timeZone })
    return timeZone
  } catch {
    return FALLBACK_TIME_ZONE
  }
}

/** "quarta-feira, 2 de dezembro de 2026 às 09:00 (Horário Padrão de Brasília)", in that zone. */
export function longWhen(instant: Date, timeZone: string): string {
  const zone = zoneOrFallback(timeZone)
  const when = new Intl.DateTimeFormat('pt-BR', { timeZone: zone, dateStyle: 'full', timeStyle: 'short' }).format(instant)
  const name = new Intl.DateTimeFormat('pt-BR', { timeZone: zone, timeZoneName: 'long' }).formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value
  return name ? `${when} (${name})` : when
}

/** "2/12 às 09:00" for subjects, in that zone. */
function shortWhen(instant: Date, timeZone: string): string {
  const zone = zoneOrFallback(timeZone)
  const day = new Intl.DateTimeFormat('pt-BR', { timeZone: zone, day: 'numeric', month: '2-digit' }).format(instant)
  return `${day} às ${clock(instant, zone)}`
}

const clock = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat('pt-BR', { timeZone: zoneOrFallback(timeZone), hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant)


export function appointmentMessage({ kind, to, otherFirstName, start, previousStart, link }: AppointmentMail): MailMessage {
  const zone = to.timeZone
  // The other person's first word of a name only: a stored name from before the name rule (a link, a line break) shows nothing more.
  const other = shownFirstName(otherFirstName)
  const withOther = other ? ` com ${other}` : ''
  const withOtherEnglish = other ? ` with ${other}` : ''
  const when = longWhen(start, zone)
  const hello = greeting(to.firstName)
  const subject = (text: string) => text.slice(0, 255)
  switch (kind) {
    case 'confirmation':
      return render(
        to.email,
        subject(`Consulta Innera${withOther} agendada para ${shortWhen(start, zone)}`),
        [
          hello,
          `Sua Consulta Innera${withOther} está agendada para ${when}. Para ver os detalhes, remarcar ou cancelar, abra o link abaixo:`,
          'A sala da consulta abre 10 minutos antes do horário, na mesma página. Enviaremos lembretes 24 horas e 1 hora antes.',
        ],
        link,
        `Your Innera consultation${withOtherEnglish} is booked; the link above has the time, and lets you reschedule or cancel.`,
      )
    case 'reminder_24h':
      return render(
        to.email,
        subject(`Lembrete: Consulta Innera${withOther} em ${shortWhen(start, zone)}`),
        [
          hello,
          `Lembrete: sua Consulta Innera${withOther} está marcada para ${when}. Para ver os detalhes, remarcar ou cancelar, abra o link abaixo:`,
          'A sala da consulta abre 10 minutos antes do horário, na mesma página.',
        ],
        link,
        `A reminder of your Innera consultation${withOtherEnglish}; the link above has the time and the room.`,
      )
    case 'reminder_1h':
      return render(
        to.email,
        subject(`Sua Consulta Innera${withOther} começa às ${clock(start, zone)}`),
        [hello, `Sua Consulta Innera${withOther} começa em cerca de 1 hora: ${when}. A sala abre 10 minutos antes, pelo link abaixo:`, 'Até já!'],
        link,
        `Your Innera consultation${withOtherEnglish} starts in about an hour; the room opens 10 minutes before, through the link above.`,
      )
    case 'moved':
      return render(
        to.email,
        subject(`Consulta Innera${withOther} remarcada para ${shortWhen(start, zone)}`),
        [
          hello,
          previousStart
            ? `Sua Consulta Innera${withOther} foi remarcada de ${longWhen(previousStart, zone)} para ${when}. Veja os detalhes no link abaixo:`
            : `Sua Consulta Innera${withOther} foi remarcada para ${when}. Veja os detalhes no link abaixo:`,
          'Os lembretes seguem o novo horário.',
        ],
        link,
        `Your Innera consultation${withOtherEnglish} has been moved; the link above has the new time.`,
      )
    case 'cancelled':
      return render(
        to.email,
        subject(`Consulta Innera${withOther} cancelada`),
        [
          hello,
          `Sua Consulta Innera${withOther}, marcada para ${when}, foi cancelada. Veja os detalhes no link abaixo:`,
          'Os lembretes desta consulta não serão enviados.',
        ],
        link,
        `Your Innera consultation${withOtherEnglish} has been cancelled; the link above has the details.`,
      )
  }
}
