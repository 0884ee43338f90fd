import { escapeHtml } from '#server/http/html.ts'
import { shownFirstName } from '#server/person-names.ts'

/** An e-mail ready to queue. Texts are in Brazilian Portuguese with an English line beneath. */
export type MailMessage = { to: string; subject: string; text: string; html: string }

/** The languages a message may be written in, as `<html lang>` names them (the app's tags: app/i18n/config.ts). */
const MAIL_LANGUAGE_TAGS = { pt: 'pt-BR', en: 'en', es: 'es' } as const
type MailLanguage = keyof typeof MAIL_LANGUAGE_TAGS

/**
 * The language every message is written in: the house style is Portuguese with an English line
 * beneath (marked lang="en" in the HTML). The product keeps no other language for a recipient,
 * so this is the recipient's for every message sent today.
 */
export const HOUSE_LANGUAGE: MailLanguage = 'pt'

/**
 * A message's HTML body as the whole document its HTML part is (issue 41): doctype, `<html lang>`
 * in the message's language (mail clients and screen readers read it), the charset, the subject as
 * its title (escaped), the body. No styles: mail clients drop most of them.
 */
export function mailDocument({ language, subject, body }: { language: MailLanguage; subject: string; body: string }): string {
  return `<!doctype html>
<html lang="${MAIL_LANGUAGE_TAGS[language]}">
<head>
<meta charset="utf-8">
<title>${escapeHtml(subject)}</title>
</head>
<body>
${body}
</body>
</html>
`
}

/** A message from its parts: the text part as it is, the HTML body made a whole document. Every message is made here. */
export function mailMessage({ to, subject, text, htmlBody, language }: { to: string; subject: string; text: string; htmlBody: string; language: MailLanguage }): MailMessage {
  return { to, subject, text, html: mailDocument({ language, subject, body: htmlBody }) }
}

type LinkMail = { to: string; firstName: string; link: string }

/** "Olá, Ana!": the first name's first word, and only when it is a name (a stored one may predate the name rule). */
export function greeting(firstName: string): string {
  const name = shownFirstName(firstName)
  return name ? `Olá, ${name}!` : 'Olá!'
}

/**
 * A message in the house style: a greeting, a paragraph leading to the link, the link, any
 * further paragraphs, then the English line and the signature; as text and as HTML (a whole
 * document, in Portuguese).
 */
export function render(to: string, subject: string, paragraphs: string[], link: string, english: string): MailMessage {
  const text = [...paragraphs.slice(0, 1), '', ...paragraphs.slice(1, 2), link, '', ...paragraphs.slice(2), '', '—', english, '', 'Equipe Innera'].join('\n')
  const htmlBody = [
    `<p>${escapeHtml(paragraphs[0]!)}</p>`,
    `<p>${escapeHtml(paragraphs[1]!)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
    ...paragraphs.slice(2).map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    `<p lang="en">${escapeHtml(english)}</p>`,
    '<p>Equipe Innera</p>',
  ].join('\n')
  return mailMessage({ to, subject, text, htmlBody, language: HOUSE_LANGUAGE })
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
