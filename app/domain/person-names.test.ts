import { describe, expect, test } from 'vitest'
import { PERSON_NAME_MESSAGE } from '#server/person-names.ts'
import { isPersonName, normalisePersonName, PROVIDER_PERSON_NAME_MESSAGE, translateNameProblems } from './person-names.ts'

describe('person names in the forms', () => {
  test('the provider’s rule: letters, marks, spaces, apostrophes, hyphens and dots', () => {
    for (const name of ['Mariana', 'Inês Marques', "D'Ávila", 'Jean-Luc', 'J. R. Tolkien', 'Pedro Jr.', '  Ana   Maria ']) expect({ name, ok: isPersonName(name) }).toEqual({ name, ok: true })
    for (const name of ['Mariana https://evil.example/pix', 'Ana evil.example', 'ana@example.com', 'Mariana\nPague o PIX', 'Ana\tMaria', 'Ana 123', '', '<b>Ana</b>']) {
      expect({ name, ok: isPersonName(name) }).toEqual({ name, ok: false })
    }
    expect(normalisePersonName('  Ana   Maria ')).toBe('Ana Maria')
  })

  test('the provider’s message is translated; others are shown as written', () => {
    expect(PROVIDER_PERSON_NAME_MESSAGE).toBe(PERSON_NAME_MESSAGE)
    const t = (key: string) => `«${key}»`
    expect(translateNameProblems(t, [PERSON_NAME_MESSAGE, 'Ensure this field has no more than 150 characters.'])).toEqual(['«validation.personName»', 'Ensure this field has no more than 150 characters.'])
  })
})
