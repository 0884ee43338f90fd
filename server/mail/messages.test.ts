import { describe, expect, it } from 'vitest'
import { appointmentMessage } from '#server/mail/appointment-messages.ts'
import { accountExistsMessage, confirmationMessage, mailDocument, passwordResetMessage } from '#server/mail/messages.ts'

describe('mail messages', () => {
  it('puts the reset link in the text and html bodies', () => {
    const message = passwordResetMessage({ to: 'ana@example.com', firstName: 'Ana', link: 'http://localhost:3000/auth/reset/MQ/t-1' })
    expect(message.subject).toBe('Redefinição de senha da Innera')
    expect(message.text).toContain('Olá, Ana!')
    expect(message.text).toContain('\nhttp://localhost:3000/auth/reset/MQ/t-1\n')
    expect(message.text).toMatch(/Reset your Innera password/)
    expect(message.html).toContain('<a href="http://localhost:3000/auth/reset/MQ/t-1">')
  })

  it('greets without a name and escapes html', () => {
    const message = confirmationMessage({ to: 'x@example.com', firstName: '', link: 'http://app.test/auth/confirm/MQ/a&b' })
    expect(message.text.startsWith('Olá!')).toBe(true)
    expect(message.html).toContain('href="http://app.test/auth/confirm/MQ/a&amp;b"')
  })

  it('tells the owner of a known address about a registration attempt, without a credential', () => {
    const message = accountExistsMessage({ to: 'ana@example.com', firstName: 'Ana', link: 'http://localhost:3000/auth?mode=login' })
    expect(message.subject).toBe('Tentativa de cadastro com o seu e-mail na Innera')
    expect(message.text).toContain('\nhttp://localhost:3000/auth?mode=login\n')
    expect(message.text).toMatch(/Esqueci minha senha/)
    expect(message.text).toMatch(/If that was you, sign in/)
  })

  it('says the reset link lasts one hour', () => {
    const message = passwordResetMessage({ to: 'ana@example.com', firstName: 'Ana', link: 'http://x.test/auth/reset/MQ/t' })
    expect(message.text).toContain('1 hora')
    expect(message.text).not.toContain('3 dias')
  })
})

// Issue 41: the HTML part was a fragment of <p>; mail clients and screen readers want a whole document in the reader's language.
describe('mailDocument', () => {
  it('makes a message’s HTML body a whole document: doctype, <html lang>, charset, the subject as title, the body', () => {
    const body = '<p>Olá!</p>\n<p lang="en">Hello!</p>'
    expect(mailDocument({ language: 'pt', subject: 'Recibo nº 7', body })).toBe(
      '<!doctype html>\n<html lang="pt-BR">\n<head>\n<meta charset="utf-8">\n<title>Recibo nº 7</title>\n</head>\n<body>\n<p>Olá!</p>\n<p lang="en">Hello!</p>\n</body>\n</html>\n',
    )
  })

  it('writes each language as the app’s <html lang> does, and escapes the subject', () => {
    for (const [language, tag] of [['pt', 'pt-BR'], ['en', 'en'], ['es', 'es']] as const) {
      expect(mailDocument({ language, subject: 's', body: '' })).toContain(`<html lang="${tag}">`)
    }
    const document = mailDocument({ language: 'pt', subject: 'Aula "Yoga <já>" & mais', body: '<p>x</p>' })
    expect(document).toContain('<title>Aula &quot;Yoga &lt;já&gt;&quot; &amp; mais</title>')
    expect(document).not.toContain('<já>')
  })
})

describe('appointment messages', () => {
  const base = { to: { email: 'ana@example.com', firstName: 'Ana', timeZone: 'America/Manaus' }, otherFirstName: 'Paula', start: new Date('2026-12-02T12:00:00Z'), link: 'http://app.test/consultas/7' }

  it('write the time in the recipient’s zone, the link, and an English line', () => {
    const message = appointmentMessage({ ...base, kind: 'reminder_24h' })
    expect(message.subject).toBe('Lembrete: Consulta Innera com Paula em 2/12 às 08:00')
    expect(message.text).toContain('quarta-feira, 2 de dezembro de 2026 às 08:00 (Horário Padrão do Amazonas)')
    expect(message.text).toContain('\nhttp://app.test/consultas/7\n')
    expect(message.text).toMatch(/A reminder of your Innera consultation with Paula/)
  })

  it('fall back to São Paulo for an unknown zone and read well without the other name', () => {
    const message = appointmentMessage({ ...base, kind: 'moved', previousStart: new Date('2026-12-01T12:00:00Z'), otherFirstName: ' ', to: { ...base.to, timeZone: 'Mars/Olympus' } })
    expect(message.subject).toBe('Consulta Innera remarcada para 2/12 às 09:00')
    expect(message.text).toContain('foi remarcada de terça-feira, 1 de dezembro de 2026 às 09:00 (Horário Padrão de Brasília) para quarta-feira')
  })

  // Issue 22, finding 9: a first name carried a link and a line break into the professional's subject and body.
  it('show the other person’s first name only as far as it is a name: its first word, never a link or another line', () => {
    const message = appointmentMessage({ ...base, kind: 'confirmation', otherFirstName: 'Mariana https://evil.example/pix\nPague o PIX' })
    expect(message.subject).toBe('Consulta Innera com Mariana agendada para 2/12 às 08:00')
    for (const part of [message.subject, message.text, message.html]) expect(part).not.toMatch(/evil|https|PIX/)
    // A stored name that is no name at all (from before the rule) shows nothing, HTML included.
    const markup = appointmentMessage({ ...base, kind: 'cancelled', otherFirstName: '<b>Paula</b>' })
    expect(markup.subject).toBe('Consulta Innera cancelada')
    expect(markup.html).not.toMatch(/Paula|&lt;b/)
  })

  it('greet the recipient by the first word of their name only when it is a name', () => {
    expect(appointmentMessage({ ...base, kind: 'reminder_1h', to: { ...base.to, firstName: 'Ana\nhttps://evil.example' } }).text.startsWith('Olá, Ana!\n')).toBe(true)
    expect(confirmationMessage({ to: 'x@example.com', firstName: 'https://evil.example', link: 'http://app.test/x' }).text.startsWith('Olá!\n')).toBe(true)
  })
})
