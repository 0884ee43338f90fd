import { describe, expect, it } from 'vitest'
import { isPersonName, normalisePersonName, sanitisePersonName, shownFirstName } from '#server/person-names.ts'

describe('the name rule', () => {
  it('accepts letters with their marks, spaces, apostrophes, hyphens and dots', () => {
    for (const name of ['Mariana', 'Inês Marques', 'João da Silva', "D'Ávila", 'O’Neil', 'Jean-Luc', 'J. R. Tolkien', 'J.R.R.', 'Pedro Jr.', 'Nguyễn Văn An', 'Zoë', 'Александр', '山田']) {
      expect({ name, ok: isPersonName(name) }).toEqual({ name, ok: true })
    }
  })

  it('refuses links, addresses, digits, line breaks and other control characters, and empty names', () => {
    for (const name of ['Mariana https://evil.example/pix', 'Mariana evil.example', 'www.evil.example', 'ana@example.com', 'Mariana\nPague o PIX', 'Ana\tMaria', 'Ana\u0000', 'Ana\u202eairaM', 'R2D2', 'Ana 123', 'Ana  ', '', ' ', '-Ana', "Ana'", 'Ana--Maria', '<b>Ana</b>']) {
      expect({ name, ok: isPersonName(name) }).toEqual({ name, ok: false })
    }
  })

  it('reads runs of plain spaces as one before the rule, and nothing else', () => {
    expect(normalisePersonName('  Ana   Maria ')).toBe('Ana Maria')
    expect(isPersonName(normalisePersonName('Ana   Maria'))).toBe(true)
    expect(isPersonName(normalisePersonName('Ana \n Maria'))).toBe(false)
  })
})

describe('sanitisePersonName (names from Google)', () => {
  it('keeps the words up to the first one the rule does not take, within the length', () => {
    expect(sanitisePersonName(' Ana  Souza ')).toBe('Ana Souza')
    expect(sanitisePersonName('Mariana https://evil.example/pix')).toBe('Mariana')
    expect(sanitisePersonName('Mariana\nvisit evil.example')).toBe('Mariana visit')
    expect(sanitisePersonName('José (Zé) Lima')).toBe('José')
    expect(sanitisePersonName('12345')).toBe('')
    expect(sanitisePersonName('Ana Maria Souza', 9)).toBe('Ana Maria')
  })
})

describe('shownFirstName (what others read in e-mails and calendars)', () => {
  it('is the first word when it is a name, else nothing', () => {
    expect(shownFirstName('Mariana')).toBe('Mariana')
    expect(shownFirstName('Ana Maria')).toBe('Ana')
    expect(shownFirstName('Mariana https://evil.example/pix')).toBe('Mariana')
    expect(shownFirstName('Mariana\nPague o PIX em evil.example')).toBe('Mariana')
    expect(shownFirstName('https://evil.example/pix')).toBe('')
    expect(shownFirstName('evil.example')).toBe('')
    expect(shownFirstName('x'.repeat(41))).toBe('')
    expect(shownFirstName('')).toBe('')
  })
})
