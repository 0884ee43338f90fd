import { createHash } from 'node:crypto'

/** A Google account offered by the fake Google's account chooser. */
export type FakeGoogleIdentity = { subject: string; email: string; name: string; givenName: string; familyName: string }

/**
 * The demo accounts. The third uses the seeded patient's e-mail on purpose: signing in with it
 * exercises the "an account with this e-mail already exists" (409) path.
 */
export const FAKE_GOOGLE_IDENTITIES: FakeGoogleIdentity[] = [
  { subject: '104920000000000000001', email: 'ana.souza@gmail.test', name: 'Ana Souza', givenName: 'Ana', familyName: 'Souza' },
  { subject: '104920000000000000002', email: 'bruno.lima@gmail.test', name: 'Bruno Lima', givenName: 'Bruno', familyName: 'Lima' },
  { subject: '104920000000000000003', email: 'paciente@innera.local', name: 'Pedro Santos', givenName: 'Pedro', familyName: 'Santos' },
]

/**
 * Any other account typed into the chooser (so e2e runs can sign up fresh users). The subject
 * is derived from the e-mail, so the same e-mail is the same Google account every time.
 */
export function customIdentity(email: string, name: string): FakeGoogleIdentity {
  const normalised = email.trim().toLowerCase()
  const known = FAKE_GOOGLE_IDENTITIES.find((identity) => identity.email === normalised)
  if (known) return known
  const digest = createHash('sha256').update(normalised).digest('hex')
  const subject = `1${(BigInt(`0x${digest.slice(0, 16)}`) % 10n ** 20n).toString().padStart(20, '0')}`
  const cleanName = name.trim().replace(/\s+/g, ' ') || normalised.split('@')[0]!
  const space = cleanName.indexOf(' ')
  return {
    subject,
    email: normalised,
    name: cleanName,
    givenName: space === -1 ? cleanName : cleanName.slice(0, space),
    familyName: space === -1 ? '' : cleanName.slice(space + 1),
  }
}

export function initialsOf(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase())
  return ((letters[0] ?? '') + (letters.length > 1 ? letters.at(-1)! : '')).normalize('NFD').replace(/[^A-Z]/g, '') || 'G'
}
