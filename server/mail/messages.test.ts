import { describe, expect, it } from 'vitest'
import { accountExistsMessage, confirmationMessage, passwordResetMessage } from './messages'

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
