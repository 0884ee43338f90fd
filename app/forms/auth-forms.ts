import { z } from 'zod'
import { isPersonName } from '#app/domain/person-names.ts'

/**
 * The sign-in forms' schemas, shared by the browser (conform's client validation) and the server
 * (the action's validation). Messages are translation keys; the form shows them translated.
 */
const requiredText = (max = 254) =>
  z
    .string({ error: 'errors.required' })
    .trim()
    .min(1, { error: 'errors.required' })
    .max(max, { error: 'validation.tooLong' })

export const emailField = requiredText().pipe(z.email({ error: 'errors.invalidEmail' }))
const passwordField = z.string({ error: 'errors.required' }).min(1, { error: 'errors.required' }).max(128, { error: 'validation.tooLong' })
const newPasswordField = passwordField.pipe(z.string().min(8, { error: 'validation.passwordTooShort' }))
/**
 * Passwords must match. The check runs even when other fields failed (zod skips object
 * refinements by default then), so every problem shows at once.
 */
export const passwordsMatch = <Shape extends Record<string, unknown>>(password: keyof Shape & string, confirm: keyof Shape & string) => ({
  check: (value: Shape) => value[password] === value[confirm],
  params: {
    path: [confirm],
    error: 'validation.passwordsDiffer',
    when: (payload: { value: unknown }) => {
      const value = payload.value as Record<string, unknown> | undefined
      return typeof value?.[password] === 'string' && typeof value?.[confirm] === 'string' && value[confirm] !== ''
    },
  },
})

/** A field people never see; bots fill it in. */
const honeypot = z.string().max(0, { error: 'validation.spam' }).optional()

export const loginSchema = z.object({
  email: emailField,
  password: passwordField,
  redirectTo: z.string().optional(),
})

export const registerSchema = z
  .object({
    username: requiredText(150).pipe(z.string().regex(/^[\w.@+-]+$/, { error: 'validation.usernameChars' })),
    name: requiredText(150).refine(isPersonName, { error: 'validation.personName' }),
    email: emailField,
    password: newPasswordField,
    confirmPassword: passwordField,
    // The form sends a hidden empty acceptTerms before the checkbox (so an untouched box is still
    // reported on the first submit); the checkbox's 'on', when present, comes last.
    acceptTerms: z.preprocess((value) => (Array.isArray(value) ? value.at(-1) : value), z.literal('on', { error: 'validation.acceptTerms' })),
    website: honeypot,
  })
  .refine(passwordsMatch('password', 'confirmPassword').check, passwordsMatch('password', 'confirmPassword').params)

export const forgotSchema = z.object({ email: emailField, website: honeypot })

export const resendSchema = z.object({ email: emailField, website: honeypot })

export const resetSchema = z
  .object({ password: newPasswordField, confirmPassword: passwordField, website: honeypot })
  .refine(passwordsMatch('password', 'confirmPassword').check, passwordsMatch('password', 'confirmPassword').params)

const authModes = ['login', 'register', 'forgot', 'resend'] as const
export type AuthMode = (typeof authModes)[number]

export function authModeOf(value: string | null): AuthMode {
  return (authModes as readonly string[]).includes(value ?? '') ? (value as AuthMode) : 'login'
}
