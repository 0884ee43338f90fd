import { describe, expect, it } from 'vitest'
import { escapeHtml, htmlDocument, linkify } from '#server/http/html.ts'

describe('html helpers', () => {
  it('escapes markup', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
  })

  it('turns URLs into links and escapes the rest', () => {
    expect(linkify('Abra <aqui>: http://localhost:3000/auth/reset/MQ/abc-123\nobrigado')).toBe(
      'Abra &lt;aqui&gt;: <a href="http://localhost:3000/auth/reset/MQ/abc-123">http://localhost:3000/auth/reset/MQ/abc-123</a>\nobrigado',
    )
  })

  it('declares the language and title', () => {
    const page = htmlDocument({ title: 'Mailbox <dev>', body: '<main></main>' })
    expect(page).toContain('<html lang="en">')
    expect(page).toContain('<title>Mailbox &lt;dev&gt;</title>')
  })
})
