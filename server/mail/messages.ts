import { escapeHtml } from '../http/html'

/** An e-mail ready to queue. Texts are in Brazilian Portuguese with an English line beneath. */
export type MailMessage = { to: string; subject: string; text: string; html: string }

type LinkMail = { to: string; firstName: string; link: string }

const greeting = (firstName: string) => (firstName ? `Olá, ${firstName}!` : 'Olá!')

function render(to: string, subject: string, paragraphs: string[], link: string, english: string): MailMessage {
  const text = [...paragraphs.slice(0, 1), '', ...paragraphs.slice(1, 2), link, '', ...paragraphs.slice(2), '', '—', english, '', 'Equipe Innera'].join('\n')
  const html = [
    `<p>${escapeHtml(paragraphs[0]!)}</p>`,
    `<p>${escapeHtml(paragraphs[1]!)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
    ...paragraphs.slice(2).map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    `<p lang="en">${escapeHtml(english)}</p>`,
    '<p>Equipe Innera</p>',
  ].join('\n')
  return { to, subject, text, html }
}

export function confirmationMessage({ to, firstName, link }: LinkMail): MailMessage {
  return render(
    to,
    'Confirme seu e-mail na Innera',
    [
      greeting(firstName),
      'Para confirmar seu endereço de e-mail e ativar todos os recursos da sua conta, abra o link abaixo:',
      'O link vale por 3 dias. Se você não criou uma conta na Innera, ignore esta mensagem.',
    ],
    link,
    'Confirm your e-mail address for Innera with the link above (valid for 3 days).',
  )
}

export function passwordResetMessage({ to, firstName, link }: LinkMail): MailMessage {
  return render(
    to,
    'Redefinição de senha da Innera',
    [
      greeting(firstName),
      'Recebemos um pedido para redefinir a senha da sua conta. Para escolher uma nova senha, abra o link abaixo:',
      'O link vale por 3 dias e deixa de funcionar assim que a senha for alterada. Se você não fez este pedido, ignore esta mensagem: sua senha continua a mesma.',
    ],
    link,
    'Reset your Innera password with the link above (valid for 3 days). If you did not ask for it, ignore this message.',
  )
}
