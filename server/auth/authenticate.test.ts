import { describe, expect, it } from 'vitest'
import { ApiError } from '#server/http/errors.ts'
import { requireRole, roleOf, type Caller } from '#server/auth/authenticate.ts'

describe('roles', () => {
  it('maps groups case-insensitively, first recognised wins, default paciente', () => {
    expect(roleOf(['Admin'])).toBe('admin')
    expect(roleOf(['beta-testers', 'PROFISSIONAL', 'admin'])).toBe('profissional')
    expect(roleOf([])).toBe('paciente')
  })

  it('refuses callers outside the allowed roles with a 403', () => {
    const caller = { groups: ['paciente'] } as Caller
    expect(() => requireRole(caller, 'paciente')).not.toThrow()
    try {
      requireRole(caller, 'admin', 'profissional')
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError)
      expect((error as ApiError).status).toBe(403)
    }
  })
})
