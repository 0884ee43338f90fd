import { describe, expect, it } from 'vitest'
import { customIdentity, FAKE_GOOGLE_IDENTITIES, initialsOf } from '#server/fakes/google/identities.ts'

describe('fake Google identities', () => {
  it('offers three demo accounts, one with the seeded patient e-mail', () => {
    expect(FAKE_GOOGLE_IDENTITIES.map((identity) => identity.email)).toEqual([
      'ana.souza@gmail.test',
      'bruno.lima@gmail.test',
      'paciente@innera.local',
    ])
  })

  it('derives a stable numeric subject for typed-in accounts', () => {
    const first = customIdentity('Nova.Pessoa@Example.com', ' Nova  Pessoa Silva ')
    expect(first.subject).toMatch(/^1\d{20}$/)
    expect(customIdentity('nova.pessoa@example.com', 'Other Name').subject).toBe(first.subject)
    expect(first).toMatchObject({ email: 'nova.pessoa@example.com', givenName: 'Nova', familyName: 'Pessoa Silva' })
  })

  it('returns the demo identity when its e-mail is typed', () => {
    expect(customIdentity('ANA.SOUZA@gmail.test', 'x')).toBe(FAKE_GOOGLE_IDENTITIES[0])
  })

  it('computes initials for avatars', () => {
    expect(initialsOf('Ana Maria Souza')).toBe('AS')
    expect(initialsOf('Émile')).toBe('E')
    expect(initialsOf('')).toBe('G')
  })
})
