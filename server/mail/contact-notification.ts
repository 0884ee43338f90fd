import { escapeHtml } from '#server/http/html.ts'
import { HOUSE_LANGUAGE, mailMessage, type MailMessage } from '#server/mail/messages.ts'

/** Where contact-form notifications go: the team's shared inbox. */
const CONTACT_INBOX = 'contato@innera.local'

const CONTACT_SUBJECT_LABELS = {
  patient: 'Paciente',
  professional: 'Médico ou profissional de saúde',
  company: 'Empresa',
  partnership: 'Parceria',
  other: 'Outro assunto',
} as const

export type ContactSubject = keyof typeof CONTACT_SUBJECT_LABELS

type ContactNotification = { id: number; name: string; email: string; phone: string; subject: ContactSubject; message: string; adminUrl: string }

/** Tells the team a message arrived (pt-BR, with an English line), quoting it in full. */
export function contactNotificationMessage({ id, name, email, phone, subject, message, adminUrl }: ContactNotification): MailMessage {
  const label = CONTACT_SUBJECT_LABELS[subject]
  const details = [`Nome: ${name}`, `E-mail: ${email}`, `Telefone: ${phone || 'não informado'}`, `Assunto: ${label}`]
  const intro = `Nova mensagem recebida pelo formulário de contato (nº ${id}).`
  const reply = 'Responda diretamente para o e-mail de quem escreveu e marque a mensagem como atendida no painel:'
  const english = 'A new message arrived through the contact form; reply to the sender and mark it handled in the admin area.'
  const text = [intro, '', ...details, '', 'Mensagem:', message, '', reply, adminUrl, '', '—', english, '', 'Equipe Innera'].join('\n')
  const htmlBody = [
    `<p>${escapeHtml(intro)}</p>`,
    `<ul>${details.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    `<p>Mensagem:</p>`,
    `<blockquote style="white-space: pre-line">${escapeHtml(message)}</blockquote>`,
    `<p>${escapeHtml(reply)}</p>`,
    `<p><a href="${escapeHtml(adminUrl)}">${escapeHtml(adminUrl)}</a></p>`,
    `<p lang="en">${escapeHtml(english)}</p>`,
    '<p>Equipe Innera</p>',
  ].join('\n')
  // A name is one line in the subject, whatever was typed.
  const mailSubject = `[Contato] ${label}: ${name.replace(/\s+/g, ' ')}`.slice(0, 255)
  return mailMessage({ to: CONTACT_INBOX, subject: mailSubject, text, htmlBody, language: HOUSE_LANGUAGE })
}
