import type { appointments, purchases, users } from '#server/db/schema.ts'

/**
 * What a closed account leaves behind (decision 0060), pure: the values its rows take so that
 * nothing left tells who it was. The deletion (privacy/deletion.ts) writes them.
 */

/**
 * A closed account's e-mail: unique (the id), and not an address anyone can register or be sent
 * to (".invalid" is reserved, RFC 2606; and a domain without a dot fails the e-mail rule).
 */
export const deletedEmail = (userId: number) => `deleted-${userId}@invalid`
/** A closed account's username: ":" is outside the username characters, so nobody can choose it. */
export const deletedUsername = (userId: number) => `deleted:${userId}`

export const isDeletedEmail = (email: string) => /^deleted-\d+@invalid$/.test(email)

/**
 * The user row of a closed account: no sign-in of any kind (inactive, a password that matches
 * nothing, no Google identity) and nothing personal (names, phone, birth date, bio, photo,
 * specialty, e-mail). The id stays, for the records kept (payments, appointments, consents).
 */
export function closedAccount(userId: number, unusablePassword: string): Partial<typeof users.$inferInsert> {
  return {
    email: deletedEmail(userId),
    username: deletedUsername(userId),
    password: unusablePassword,
    isActive: false,
    emailVerified: false,
    googleSubject: null,
    firstName: '',
    lastName: '',
    phone: '',
    birthDate: null,
    bio: '',
    specialty: '',
    photoName: null,
    timeZone: 'America/Sao_Paulo',
  }
}

/**
 * The first, immediate change (in the transaction that records the deletion): the account can no
 * longer sign in, whatever happens to the steps after it.
 */
export function signInClosed(unusablePassword: string): Partial<typeof users.$inferInsert> {
  return { isActive: false, password: unusablePassword, googleSubject: null }
}

/** An appointment kept of a closed patient: its time, people, status and payment stay; what was written about it goes. */
export const CLOSED_PATIENT_APPOINTMENT: Partial<typeof appointments.$inferInsert> = { notes: '', sharedNotes: '', privateNotes: '', cancellationReason: '' }

/** An appointment kept of a closed professional: their private notes (about the patient) go; what they shared stays the patient's. */
export const CLOSED_PROFESSIONAL_APPOINTMENT: Partial<typeof appointments.$inferInsert> = { privateNotes: '' }

/** A purchase kept of a closed account: the amounts, items, status and dates stay; payment pages, codes and refusal texts go. */
export const CLOSED_ACCOUNT_PURCHASE: Partial<typeof purchases.$inferInsert> = { pixData: null, pixInstructionsUrl: null, checkoutUrl: null, failureMessage: null }
