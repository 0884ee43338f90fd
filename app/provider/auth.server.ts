import { providerJson } from './fetch.server.ts'
import { type SignedInSession, detailSchema, googleLoginResponseSchema, loginResponseSchema } from './schemas.ts'

const post = (json: unknown) => ({ method: 'POST' as const, json })

/** Signs in; the answer is what the session stores: both tokens and the user of docs/product.md §3. */
export async function login(email: string, password: string): Promise<SignedInSession> {
  const answer = await providerJson('/authentication/custom-login/', loginResponseSchema, post({ email, password }))
  const { access, refresh, user_id, username, groups, photo, first_name, last_name, time_zone } = answer
  return { access, refresh, user: { id: user_id, username, email: answer.email, groups, photo, first_name, last_name, time_zone } }
}

/**
 * Ends a session at the provider (simplejwt's blacklist): its refresh token, and the access tokens
 * renewed from it, stop working, so a copied cookie is worthless after logout.
 */
export async function revokeSession(refresh: string, signal?: AbortSignal): Promise<void> {
  await providerJson('/authentication/token/blacklist/', detailSchema, { ...post({ refresh }), signal })
}

export function register(input: { email: string; password: string; name: string; username: string }) {
  return providerJson('/users/register/', detailSchema, post({ ...input, accept_terms: true }))
}

export function requestPasswordReset(email: string) {
  return providerJson('/users/password-reset/', detailSchema, post({ email }))
}

export function confirmPasswordReset(uid: string, token: string, newPassword: string) {
  return providerJson(
    `/users/password-reset-confirm/${encodeURIComponent(uid)}/${encodeURIComponent(token)}/`,
    detailSchema,
    post({ new_password: newPassword }),
  )
}

export function sendConfirmation(email: string) {
  return providerJson('/users/send-confirmation/', detailSchema, post({ email }))
}

export function confirmEmail(uid: string, token: string) {
  return providerJson(`/users/confirm-email/${encodeURIComponent(uid)}/${encodeURIComponent(token)}/`, detailSchema, post({}))
}

export function googleLogin(idToken: string) {
  return providerJson('/auth/google/', googleLoginResponseSchema, post({ token: idToken }))
}
