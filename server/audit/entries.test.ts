import { describe, expect, it } from 'vitest'
import { auditRow, changedFields } from '#server/audit/entries.ts'

describe('changedFields', () => {
  it('keeps only what changed, a field added or removed included', () => {
    expect(changedFields({ a: 1, b: ['x'], c: 'same' }, { a: 2, b: ['x'], c: 'same', d: true })).toEqual({ before: { a: 1 }, after: { a: 2, d: true } })
    expect(changedFields({ groups: ['paciente'] }, { groups: ['paciente', 'profissional'] })).toEqual({
      before: { groups: ['paciente'] },
      after: { groups: ['paciente', 'profissional'] },
    })
    expect(changedFields({ gone: 1 }, {})).toEqual({ before: { gone: 1 }, after: {} })
  })
  it('is null on both sides when nothing changed', () => {
    expect(changedFields({ a: 1 }, { a: 1 })).toEqual({ before: null, after: null })
  })
})

describe('auditRow', () => {
  const entry = { actorId: 1, actorRole: 'admin' as const, action: 'user.groups' as const, targetType: 'user', targetId: 7, at: Date.parse('2026-11-27T12:00:00Z') }
  it('writes the target id as text, a blank reason as none', () => {
    expect(auditRow({ ...entry, reason: '  ' })).toMatchObject({ targetId: '7', reason: null, subjectUserId: null, before: null, after: null })
  })
  it('refuses a malformed action and a reason over 1000 characters', () => {
    expect(() => auditRow({ ...entry, action: 'Users' as never })).toThrow(/area\.verb/)
    expect(() => auditRow({ ...entry, reason: 'x'.repeat(1001) })).toThrow(/too long/)
  })
})
