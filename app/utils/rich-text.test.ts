import { describe, expect, test } from 'vitest'
import { parseRichText } from './rich-text.ts'

describe('parseRichText', () => {
  test('plain text is one segment', () => {
    expect(parseRichText('Sem links aqui.')).toEqual([{ type: 'text', text: 'Sem links aqui.' }])
  })

  test('finds internal links and mailto links between text', () => {
    expect(parseRichText('Leia a [Política](/privacidade) ou escreva para [dpo@innera.com.br](mailto:dpo@innera.com.br).')).toEqual([
      { type: 'text', text: 'Leia a ' },
      { type: 'link', text: 'Política', href: '/privacidade', internal: true },
      { type: 'text', text: ' ou escreva para ' },
      { type: 'link', text: 'dpo@innera.com.br', href: 'mailto:dpo@innera.com.br', internal: false },
      { type: 'text', text: '.' },
    ])
  })

  test('keeps query strings and anchors', () => {
    expect(parseRichText('[Criar conta](/auth?mode=register)')).toEqual([
      { type: 'link', text: 'Criar conta', href: '/auth?mode=register', internal: true },
    ])
    expect(parseRichText('[Topo](#top)')[0]).toMatchObject({ type: 'link', href: '#top', internal: false })
  })

  test('never links off-site: external, protocol-relative and script URLs become plain text', () => {
    for (const href of ['https://evil.example', '//evil.example', 'javascript:alert`1`', 'mailto:not-an-address']) {
      expect(parseRichText(`a [label](${href}) b`)).toEqual([{ type: 'text', text: 'a label b' }])
    }
    expect(parseRichText('[x](javascript:alert(1))').some((segment) => segment.type === 'link')).toBe(false)
  })

  test('brackets that are not links are left alone', () => {
    expect(parseRichText('Lei [nº 13.709] e (LGPD)')).toEqual([{ type: 'text', text: 'Lei [nº 13.709] e (LGPD)' }])
  })
})
