import { providerJson } from './fetch.server.ts'
import { detailSchema, googleLoginResponseSchema, loginResponseSchema } from './schemas.ts'

const post = (json: unknown) => ({ method: 'POST' as const, json })

export function login(email: string, password: string) {
  return providerJson('/authentication/custom-login/', loginResponseSchema, post({ email, password }))
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
