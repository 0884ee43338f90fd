import { describe, expect, test } from 'vitest'
import { messageParts } from './message-text.ts'

const joined = (text: string) =>
  messageParts(text)
    .map((part) => part.text)
    .join('')

describe('a message text cut into plain text and links', () => {
  test('a text with no address is one plain part, line breaks and markup kept as written', () => {
    const text = 'Oi, Paula!\n\n<b>tudo bem?</b> javascript:alert(1)'
    expect(messageParts(text)).toEqual([{ kind: 'text', text }])
  })

  test('an empty text has no parts', () => {
    expect(messageParts('')).toEqual([])
  })

  test('http and https addresses become links, the words around them stay text', () => {
    expect(messageParts('Veja https://innera.example/artigo?id=3 e http://example.org/x depois')).toEqual([
      { kind: 'text', text: 'Veja ' },
      { kind: 'link', text: 'https://innera.example/artigo?id=3', href: 'https://innera.example/artigo?id=3' },
      { kind: 'text', text: ' e ' },
      { kind: 'link', text: 'http://example.org/x', href: 'http://example.org/x' },
      { kind: 'text', text: ' depois' },
    ])
  })

  test('the punctuation closing a sentence is not part of the link; a bracket the address opened is', () => {
    expect(messageParts('Leia https://example.org/a.')).toEqual([
      { kind: 'text', text: 'Leia ' },
      { kind: 'link', text: 'https://example.org/a', href: 'https://example.org/a' },
      { kind: 'text', text: '.' },
    ])
    expect(messageParts('(ver https://en.wikipedia.org/wiki/Sleep_(disambiguation))')).toEqual([
      { kind: 'text', text: '(ver ' },
      { kind: 'link', text: 'https://en.wikipedia.org/wiki/Sleep_(disambiguation)', href: 'https://en.wikipedia.org/wiki/Sleep_(disambiguation)' },
      { kind: 'text', text: ')' },
    ])
  })

  test('other schemes and bare domains stay text; an address cut at quotes and angle brackets', () => {
    expect(messageParts('ftp://x.org mailto:a@b.c www.example.org data:text/html,hi')).toEqual([{ kind: 'text', text: 'ftp://x.org mailto:a@b.c www.example.org data:text/html,hi' }])
    expect(messageParts('<https://example.org/"x>')).toEqual([
      { kind: 'text', text: '<' },
      { kind: 'link', text: 'https://example.org/', href: 'https://example.org/' },
      { kind: 'text', text: '"x>' },
    ])
  })

  test('an address with nothing after the scheme stays text, and the parts always join to the text', () => {
    expect(messageParts('https:// e http://')).toEqual([{ kind: 'text', text: 'https:// e http://' }])
    for (const text of ['a https://x.y/b, c', 'HTTPS://EXAMPLE.ORG/A!', 'linha\nhttps://a.b/c\nfim', 'https://a.b/(c']) expect(joined(text)).toBe(text)
  })
})
