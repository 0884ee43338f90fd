import { escapeHtml } from '#server/http/html.ts'
import { shownFirstName } from '#server/users/person-names.ts'

/** An e-mail ready to queue. Texts are in Brazilian Portuguese with an English line beneath. */
export type MailMessage = { to: string; subject: string; text: string; html: string }

type LinkMail = { to: string; firstName: string; link: string }

/** "Olá, Ana!": the first name's first word, and only when it is a name (a stored one may predate the name rule). */
export function greeting(firstName: string): string {
  const name = shownFirstName(firstName)
  return name ? `Olá, ${name}!` : 'Olá!'
}

/**
 * A message in the house style: a greeting, a paragraph leading to the link, the link, any
 * further paragraphs, then the English line and the signature; as text and as HTML.
 */
export function render(to: string, subject: string, paragraphs: string[], link: string, english: string): MailMessage {
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
      'O link vale por 1 hora e pode ser usado uma única vez; um pedido novo cancela este. Se você não fez este pedido, ignore esta mensagem: sua senha continua a mesma.',
    ],
    link,
    'Reset your Innera password with the link above (valid for one hour, once). If you did not ask for it, ignore this message.',
  )
}

/**
 * Sent instead of a confirmation when someone registers with an address that already has an
 * account: the registration answers exactly as for a new address (nobody learns who has an
 * account here) and only the owner of the address learns what happened.
 */
export function accountExistsMessage({ to, firstName, link }: LinkMail): MailMessage {
  return render(
    to,
    'Tentativa de cadastro com o seu e-mail na Innera',
    [
      greeting(firstName),
      'Alguém tentou criar uma conta na Innera com este endereço de e-mail, mas ele já pertence a uma conta. Se foi você, entre pelo link abaixo; se não lembra a senha, escolha "Esqueci minha senha" na página de entrada:',
      'Se não foi você, ignore esta mensagem: nenhuma conta nova foi criada e sua senha continua a mesma.',
    ],
    link,
    'Someone tried to create an Innera account with your address, which already has one. If that was you, sign in with the link above or reset your password; if not, ignore this message.',
  )
}
