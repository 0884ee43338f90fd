import type { UserRow } from '#server/users/repository.ts'

/**
 * The JSON shapes of a user in the API responses. `photoBase` is PROVIDER_PUBLIC_URL: photos
 * are absolute URLs because the app may render them on another origin.
 */
export const photoUrl = (photoBase: string, name: string | null) => (name ? `${photoBase}/media/photos/${name}` : null)

/** The signed-in user object (docs/product.md §3): GET /users/me/ and the login response. */
export function serializeUser(user: UserRow, groups: string[], photoBase: string) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    groups,
    photo: photoUrl(photoBase, user.photoName),
    first_name: user.firstName,
    last_name: user.lastName,
    // The zone the app shows times in (decision 0023), from the first answer of a session on.
    time_zone: user.timeZone,
  }
}

export function serializeProfile(user: UserRow, groups: string[], photoBase: string) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    photo: photoUrl(photoBase, user.photoName),
    phone: user.phone,
    birth_date: user.birthDate,
    bio: user.bio,
    time_zone: user.timeZone,
    groups,
    email_verified: user.emailVerified,
    date_joined: user.dateJoined.toISOString(),
  }
}

/** What admins see in the user list and detail. */
export function serializeUserDetail(user: UserRow, groups: string[], photoBase: string) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    groups,
    photo: photoUrl(photoBase, user.photoName),
    is_active: user.isActive,
    email_verified: user.emailVerified,
    date_joined: user.dateJoined.toISOString(),
    last_login: user.lastLogin?.toISOString() ?? null,
  }
}

export function serializeProfessional(user: UserRow, photoBase: string) {
  return {
    id: user.id,
    username: user.username,
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    photo: photoUrl(photoBase, user.photoName),
    specialty: user.specialty,
  }
}

export function serializePatient(user: UserRow, linkedAt: Date, photoBase: string) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    photo: photoUrl(photoBase, user.photoName),
    linked_at: linkedAt.toISOString(),
  }
}

/** "Maria da Silva" → first "Maria", last "da Silva" (split on the first space). */
export function splitFullName(name: string): { firstName: string; lastName: string } {
  const normalised = name.trim().replace(/\s+/g, ' ')
  const space = normalised.indexOf(' ')
  if (space === -1) return { firstName: normalised, lastName: '' }
  return { firstName: normalised.slice(0, space), lastName: normalised.slice(space + 1) }
}
