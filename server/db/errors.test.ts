import { describe, expect, test } from 'vitest'
import { databaseError, isExclusionViolation, isUniqueViolation } from '#server/db/errors.ts'

/** A driver's error as drizzle hands it on: wrapped, the driver's own as `cause`. */
const wrapped = (fields: Record<string, unknown>) => Object.assign(new Error('Failed query'), { cause: Object.assign(new Error('driver'), fields) })

describe('database errors', () => {
  test("the SQLSTATE is found under drizzle's wrapping", () => {
    expect(databaseError(wrapped({ code: '23P01', constraint: 'appointments_no_overlap' }))).toEqual({ code: '23P01', constraint: 'appointments_no_overlap' })
    expect(databaseError(new Error('plain'))).toBeUndefined()
    // Node's own error codes are not SQLSTATEs.
    expect(databaseError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBeUndefined()
  })

  test('an exclusion violation of the named constraint, or of one the driver did not name', () => {
    expect(isExclusionViolation(wrapped({ code: '23P01', constraint: 'appointments_no_overlap' }), 'appointments_no_overlap')).toBe(true)
    expect(isExclusionViolation(wrapped({ code: '23P01' }), 'appointments_no_overlap')).toBe(true)
    expect(isExclusionViolation(wrapped({ code: '23P01', constraint: 'other' }), 'appointments_no_overlap')).toBe(false)
    expect(isExclusionViolation(wrapped({ code: '40P01' }), 'appointments_no_overlap')).toBe(false)
  })

  test('a unique violation of the named index, or of one the driver did not name', () => {
    expect(isUniqueViolation(wrapped({ code: '23505', constraint: 'appointments_patient_idempotency_key_unique' }), 'appointments_patient_idempotency_key_unique')).toBe(true)
    expect(isUniqueViolation(wrapped({ code: '23505' }), 'appointments_patient_idempotency_key_unique')).toBe(true)
    expect(isUniqueViolation(wrapped({ code: '23505', constraint: 'users_email_lower_unique' }), 'appointments_patient_idempotency_key_unique')).toBe(false)
    expect(isUniqueViolation(wrapped({ code: '23P01' }), 'appointments_patient_idempotency_key_unique')).toBe(false)
  })
})
