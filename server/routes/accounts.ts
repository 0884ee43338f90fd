import { eq } from 'drizzle-orm'
import { z } from 'zod'
import { decodeUid, encodeUid } from '../auth/one-time-links'
import { hashPassword } from '../auth/passwords'
import { validatePassword } from '../auth/password-rules'
import { users } from '../db/schema'
import { pathParam, type Api } from '../http/api'
import { readFields } from '../http/body'
import { apiError, validationError, type FieldErrors } from '../http/errors'
import { booleanField, charField, emailField, passwordField, validate } from '../http/fields'
import { confirmationMessage, passwordResetMessage } from '../mail/messages'
import { queueMail } from '../mail/outbox'
import type { Services } from '../services'
import {
  createUser,
  findUserByEmail,
  findUserById,
  uniqueUsernameFromEmail,
  uniqueViolation,
  USERNAME_PATTERN,
  usernameTaken,
  type UserRow,
} from '../users/repository'
import { splitFullName } from '../users/serializers'
import { enforceThrottle, requestAddress } from './throttling'

const registerSchema = z.object({
  email: emailField(),
  password: passwordField(),
  name: charField({ maxLength: 300 }),
  username: charField({ maxLength: 150 })
    .regex(USERNAME_PATTERN, 'Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.')
    .optional(),
  accept_terms: booleanField()
    .refine((accepted) => accepted, 'You must accept the terms and conditions.')
    .optional(),
})

const emailOnlySchema = z.object({ email: emailField() })
const newPasswordSchema = z.object({ new_password: passwordField() })

const INVALID_LINK = 'The reset link is invalid or has expired.'
const INVALID_CONFIRMATION_LINK = 'The confirmation link is invalid or has expired.'
const EMAIL_TAKEN = 'A user with this email already exists.'
const USERNAME_TAKEN = 'A user with that username already exists.'

/** Registration, e-mail confirmation and password reset: the flows that work through e-mailed links. */
export function registerAccountRoutes(api: Api, services: Services): void {
  const { db, config, passwordResetLinks, emailConfirmationLinks } = services

  // A reset link must die with a password change or a login; a confirmation link must not
  // (people log in before opening it), so it is bound only to the account and its address.
  const confirmationSubject = (user: UserRow) => ({ id: user.id, email: user.email, password: '', lastLogin: null })

  const linkFor = (kind: 'reset' | 'confirm', user: UserRow) => {
    const token = kind === 'reset' ? passwordResetLinks.make(user) : emailConfirmationLinks.make(confirmationSubject(user))
    return `${config.appPublicUrl}/auth/${kind}/${encodeUid(user.id)}/${token}`
  }

  const sendConfirmation = (user: UserRow) =>
    queueMail(db, confirmationMessage({ to: user.email, firstName: user.firstName, link: linkFor('confirm', user) }))

  /** The user a uid/token link points at, if the token is still good for them. */
  async function userFromLink(uid: string, token: string, kind: 'reset' | 'confirm'): Promise<UserRow | undefined> {
    const id = decodeUid(uid)
    const user = id === undefined ? undefined : await findUserById(db, id)
    if (!user?.isActive) return undefined
    const valid = kind === 'reset' ? passwordResetLinks.check(user, token) : emailConfirmationLinks.check(confirmationSubject(user), token)
    return valid ? user : undefined
  }

  api.endpoint('/users/register/', {
    POST: async (c) => {
      enforceThrottle(services, 'registerPerAddress', requestAddress(c))
      const input = validate(registerSchema, await readFields(c.req.raw))
      enforceThrottle(services, 'registerPerEmail', input.email)

      const { firstName, lastName } = splitFullName(input.name)
      const errors: FieldErrors = {}
      if (firstName.length > 150 || lastName.length > 150) errors.name = ['Ensure each part of the name has no more than 150 characters.']
      if (await findUserByEmail(db, input.email)) errors.email = [EMAIL_TAKEN]
      if (input.username !== undefined && (await usernameTaken(db, input.username))) errors.username = [USERNAME_TAKEN]
      const username = input.username ?? (await uniqueUsernameFromEmail(db, input.email))
      const passwordProblems = validatePassword(input.password, { email: input.email, username, firstName, lastName })
      if (passwordProblems.length > 0) errors.password = passwordProblems
      if (Object.keys(errors).length > 0) throw validationError(errors)

      const password = await hashPassword(input.password)
      let user: UserRow | undefined
      // Registrations racing for one e-mail or username: the unique indexes decide, and the loser
      // gets the same field error it would have got a moment later. A derived username that
      // another sign-up took meanwhile is simply derived again.
      for (let attempt = 0, candidate = username; !user; attempt += 1) {
        try {
          user = await createUser(db, { email: normaliseEmail(input.email), username: candidate, password, firstName, lastName, groupNames: ['paciente'] })
        } catch (error) {
          if (!uniqueViolation(error)) throw error
          if (await findUserByEmail(db, input.email)) throw validationError({ email: [EMAIL_TAKEN] })
          if (input.username !== undefined || attempt >= 3) throw validationError({ username: [USERNAME_TAKEN] })
          candidate = await uniqueUsernameFromEmail(db, input.email)
        }
      }
      await sendConfirmation(user)

      return c.json(
        {
          id: user.id,
          username: user.username,
          email: user.email,
          first_name: user.firstName,
          last_name: user.lastName,
          groups: ['paciente'],
          detail: 'Account created. We have sent you an e-mail to confirm your address.',
        },
        201,
      )
    },
  })

  api.endpoint('/users/send-confirmation/', {
    POST: async (c) => {
      enforceThrottle(services, 'confirmationPerAddress', requestAddress(c))
      const { email } = validate(emailOnlySchema, await readFields(c.req.raw))
      enforceThrottle(services, 'confirmationPerEmail', email)
      const user = await findUserByEmail(db, email)
      if (user?.isActive && !user.emailVerified) await sendConfirmation(user)
      // The same answer whether or not the account exists: no user enumeration.
      return c.json({ detail: 'If this e-mail belongs to an account awaiting confirmation, a confirmation link has been sent.' })
    },
  })

  api.endpoint('/users/confirm-email/:uid/:token/', {
    POST: async (c) => {
      const user = await userFromLink(pathParam(c, 'uid'), pathParam(c, 'token'), 'confirm')
      if (!user) throw apiError(400, INVALID_CONFIRMATION_LINK)
      if (!user.emailVerified) await db.update(users).set({ emailVerified: true }).where(eq(users.id, user.id))
      return c.json({ detail: 'Your e-mail address has been confirmed.' })
    },
  })

  api.endpoint('/users/password-reset/', {
    POST: async (c) => {
      enforceThrottle(services, 'resetPerAddress', requestAddress(c))
      const { email } = validate(emailOnlySchema, await readFields(c.req.raw))
      enforceThrottle(services, 'resetPerEmail', email)
      const user = await findUserByEmail(db, email)
      if (user?.isActive) {
        await queueMail(db, passwordResetMessage({ to: user.email, firstName: user.firstName, link: linkFor('reset', user) }))
      }
      return c.json({ detail: 'If an account exists for this e-mail, we have sent a link to reset the password.' })
    },
  })

  api.endpoint('/users/password-reset-confirm/:uid/:token/', {
    POST: async (c) => {
      const user = await userFromLink(pathParam(c, 'uid'), pathParam(c, 'token'), 'reset')
      if (!user) throw apiError(400, INVALID_LINK)
      const { new_password } = validate(newPasswordSchema, await readFields(c.req.raw))
      const problems = validatePassword(new_password, { email: user.email, username: user.username, firstName: user.firstName, lastName: user.lastName })
      if (problems.length > 0) throw validationError({ new_password: problems })
      // A new password hash changes the token's HMAC input, which kills this link and any other.
      // Following a link sent to the address also proves the address is theirs.
      await db
        .update(users)
        .set({ password: await hashPassword(new_password), emailVerified: true })
        .where(eq(users.id, user.id))
      return c.json({ detail: 'Your password has been reset. You can now log in with the new password.' })
    },
  })
}

/** Django's normalize_email: the domain part is case-insensitive, so store it lower-cased. */
export function normaliseEmail(email: string): string {
  const at = email.lastIndexOf('@')
  return at === -1 ? email : email.slice(0, at) + email.slice(at).toLowerCase()
}
