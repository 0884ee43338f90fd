import { shownFirstName } from '#server/person-names.ts'
import { greeting, render, type MailMessage } from '#server/mail/messages.ts'

/**
 * The e-mail that tells someone a message waits for them (issue 44, decision 0085): who wrote (the
 * first name) and the link to the conversation, never the message's text nor an attachment's name:
 * a message is health data, and e-mail leaves the product.
 */
export function messageNoticeMessage({ to, firstName, fromFirstName, link }: { to: string; firstName: string; fromFirstName: string; link: string }): MailMessage {
  const from = shownFirstName(fromFirstName)
  const who = from ? `de ${from} ` : ''
  return render(
    to,
    `Você tem uma nova mensagem ${who}na Innera`,
    [greeting(firstName), `Você tem uma nova mensagem ${who}na Innera. Para ler e responder, abra a conversa:`, 'Por privacidade, o conteúdo das mensagens nunca vai por e-mail.'],
    link,
    `You have a new message ${from ? `from ${from} ` : ''}on Innera: open the conversation with the link above. For your privacy, messages are never sent by e-mail.`,
  )
}
