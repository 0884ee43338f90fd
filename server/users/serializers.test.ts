import { describe, expect, it } from 'vitest'
import type { UserRow } from '#server/users/repository.ts'
import { photoUrl, serializeUser, splitFullName } from '#server/users/serializers.ts'

describe('splitFullName', () => {
  it('splits on the first space and tidies whitespace', () => {
    expect(splitFullName('  Maria   da Silva ')).toEqual({ firstName: 'Maria', lastName: 'da Silva' })
    expect(splitFullName('Cher')).toEqual({ firstName: 'Cher', lastName: '' })
  })
})

describe('user serialisers', () => {
  it('builds absolute photo URLs or null', () => {
    expect(photoUrl('http://127.0.0.1:8000', 'abc.png')).toBe('http://127.0.0.1:8000/media/photos/abc.png')
    expect(photoUrl('http://127.0.0.1:8000', null)).toBeNull()
  })

  it('renders the signed-in user object', () => {
    const user = { id: 3, username: 'ana', email: 'ana@example.com', photoName: null, firstName: 'Ana', lastName: '' } as UserRow
    expect(serializeUser(user, ['paciente'], 'http://p')).toEqual({
      id: 3,
      username: 'ana',
      email: 'ana@example.com',
      groups: ['paciente'],
      photo: null,
      first_name: 'Ana',
      last_name: '',
    })
  })
})
