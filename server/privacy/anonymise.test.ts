import { describe, expect, it } from 'vitest'
import { makeUnusablePassword, hasUsablePassword } from '#server/auth/passwords.ts'
import { emailField } from '#server/http/fields.ts'
import { USERNAME_PATTERN } from '#server/users/repository.ts'
import { CLOSED_ACCOUNT_PURCHASE, CLOSED_PATIENT_APPOINTMENT, CLOSED_PROFESSIONAL_APPOINTMENT, closedAccount, deletedEmail, deletedUsername, isDeletedEmail, signInClosed } from '#server/privacy/anonymise.ts'

describe('a closed account', () => {
  it('can no longer sign in from the first step: inactive, an unusable password, no Google identity', () => {
    const closed = signInClosed(makeUnusablePassword())
    expect(closed).toMatchObject({ isActive: false, googleSubject: null })
    expect(hasUsablePassword(closed.password!)).toBe(false)
  })

  it('keeps nothing personal once finished: names, phone, birth date, bio, photo, specialty and e-mail go', () => {
    const row = closedAccount(42, makeUnusablePassword())
    expect(row).toMatchObject({ email: 'deleted-42@invalid', username: 'deleted:42', firstName: '', lastName: '', phone: '', birthDate: null, bio: '', specialty: '', photoName: null, googleSubject: null, isActive: false, emailVerified: false })
    expect(hasUsablePassword(row.password!)).toBe(false)
  })

  it('takes an e-mail and a username nobody can register, unique by id', () => {
    expect(emailField().safeParse(deletedEmail(7)).success).toBe(false)
    expect(USERNAME_PATTERN.test(deletedUsername(7))).toBe(false)
    expect(deletedEmail(7)).not.toBe(deletedEmail(70))
    expect(isDeletedEmail('deleted-7@invalid')).toBe(true)
    expect(isDeletedEmail('ana@innera.local')).toBe(false)
  })

  it('leaves appointments without what was written on them, and purchases without payment pages', () => {
    expect(CLOSED_PATIENT_APPOINTMENT).toEqual({ notes: '', sharedNotes: '', privateNotes: '', cancellationReason: '' })
    // A professional's own notes about patients go; what they shared stays the patient's.
    expect(CLOSED_PROFESSIONAL_APPOINTMENT).toEqual({ privateNotes: '' })
    expect(CLOSED_ACCOUNT_PURCHASE).toEqual({ pixData: null, pixInstructionsUrl: null, checkoutUrl: null, failureMessage: null })
  })
})
