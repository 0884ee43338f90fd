import { eq } from 'drizzle-orm'
import { z } from 'zod'
import { decodeUid, encodeUid } from '#server/auth/one-time-links.ts'
import { hashPassword } from '#server/auth/passwords.ts'
import { validatePassword } from '#server/auth/password-rules.ts'
import { consumeResetToken, findResetTicket, issueResetToken, recordFailedAttempt } from '#server/auth/reset-tokens.ts'
import { users } from '#server/db/schema.ts'
import { pathParam, type Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { apiError, validationError, type FieldErrors } from '#server/http/errors.ts'
import { booleanField, charField, emailField, passwordField, personNameField, validate } from '#server/http/fields.ts'
import { accountExistsMessage, confirmationMessage, passwordResetMessage } from '#server/mail/messages.ts'
import { queueMail } from '#server/mail/outbox.ts'
import { recordSignupConsents } from '#server/privacy/repository.ts'
import type { Services } from '#server/services.ts'
import {
  createUser,
  findUserByEmail,
  findUserById,
  uniqueUsernameFromEmail,
  uniqueViolation,
  USERNAME_PATTERN,
  usernameTaken,
  type UserRow,
} from '#server/users/repository.ts'
import { splitFullName } from '#server/users/serializers.ts'
import { enforceThrottle, requestAddress } from '#server/routes/throttling.ts'

const registerSchema = z.object({
  email: emailField(),
  password: passwordField(),
  name: personNameField({ maxLength: 300 }),
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
const USERNAME_TAKEN = 'A user with that username already exists.'
const REGISTERED = 'Account created. We have sent you an e-mail to confirm your address.'

/**
 * Registration, e-mail confirmation and password reset: the flows that work through e-mailed
 * links. Registration and the reset and confirmation requests answer the same, in the same time,
 * whether or not the address has an account: everything that depends on it (the lookup, the
 * account, the token, the e-mail) happens in services.background after the answer.
 */
export function registerAccountRoutes(api: Api, services: Services): void {
  const { db, config, clock, log, background, emailConfirmationLinks } = services

  // A confirmation link must survive logins (people log in before opening it), so it is bound
  // only to the account and its address. It grants nothing but the confirmation.
  const confirmationSubject = (user: UserRow) => ({ id: user.id, email: user.email, password: '', lastLogin: null })
  const linkTo = (path: string) => `${config.appPublicUrl}${path}`

  const sendConfirmation = (user: UserRow) =>
    queueMail(
      db,
      confirmationMessage({
        to: user.email,
        firstName: user.firstName,
        link: linkTo(`/auth/confirm/${encodeUid(user.id)}/${emailConfirmationLinks.make(confirmationSubject(user))}`),
      }),
    )

  /** The registration behind the answer: a new account, or a note to the owner of a known address. */
  async function completeRegistration(input: { email: string; username?: string; firstName: string; lastName: string; password: string; acceptTerms: boolean }) {
    const mailOwner = (owner: UserRow) =>
      queueMail(db, accountExistsMessage({ to: owner.email, firstName: owner.firstName, link: linkTo('/auth?mode=login') }))
    const existing = await findUserByEmail(db, input.email)
    if (existing) return mailOwner(existing)

    // Registrations racing for one e-mail or username: the unique indexes decide. The loser of an
    // e-mail race is the known-address case after all; a username taken meanwhile (derived or,
    // rarely, chosen: the answer has gone, so it cannot be reported) is derived again.
    let candidate = input.username ?? (await uniqueUsernameFromEmail(db, input.email))
    for (let attempt = 0; ; attempt += 1) {
      try {
        const user = await createUser(db, {
          email: normaliseEmail(input.email),
          username: candidate,
          password: input.password,
          firstName: input.firstName,
          lastName: input.lastName,
          groupNames: ['paciente'],
        })
        // The terms and the privacy policy accepted on the form, in their current versions (decision 0060).
        if (input.acceptTerms) await recordSignupConsents(db, user.id, clock())
        return sendConfirmation(user)
      } catch (error) {
        if (!uniqueViolation(error)) throw error
        const winner = await findUserByEmail(db, input.email)
        if (winner) return mailOwner(winner)
        if (attempt >= 3) throw error
        candidate = await uniqueUsernameFromEmail(db, input.email)
      }
    }
  }

  api.endpoint('/users/register/', {
    POST: async (c) => {
      await enforceThrottle(services, 'registerPerAddress', requestAddress(c))
      const input = validate(registerSchema, await readFields(c.req.raw))
      await enforceThrottle(services, 'registerPerEmail', input.email)

      // Only checks that do not depend on whether the address has an account answer here.
      const { firstName, lastName } = splitFullName(input.name)
      const errors: FieldErrors = {}
      if (firstName.length > 150 || lastName.length > 150) errors.name = ['Ensure each part of the name has no more than 150 characters.']
      if (input.username !== undefined && (await usernameTaken(db, input.username))) errors.username = [USERNAME_TAKEN]
      // The derived username starts as the e-mail's local part: close enough for the similarity rule.
      const username = input.username ?? input.email.slice(0, input.email.lastIndexOf('@'))
      const passwordProblems = await validatePassword(input.password, { email: input.email, username, firstName, lastName })
      if (passwordProblems.length > 0) errors.password = passwordProblems
      if (Object.keys(errors).length > 0) throw validationError(errors)

      // Hashed on both paths, so a known address takes as long as a new one.
      const password = await hashPassword(input.password)
      background.run('register', () => completeRegistration({ email: input.email, username: input.username, firstName, lastName, password, acceptTerms: input.accept_terms === true }))
      return c.json({ detail: REGISTERED }, 201)
    },
  })

  api.endpoint('/users/send-confirmation/', {
    POST: async (c) => {
      await enforceThrottle(services, 'confirmationPerAddress', requestAddress(c))
      const { email } = validate(emailOnlySchema, await readFields(c.req.raw))
      await enforceThrottle(services, 'confirmationPerEmail', email)
      background.run('send-confirmation', async () => {
        const user = await findUserByEmail(db, email)
        if (user?.isActive && !user.emailVerified) await sendConfirmation(user)
      })
      return c.json({ detail: 'If this e-mail belongs to an account awaiting confirmation, a confirmation link has been sent.' })
    },
  })

  api.endpoint('/users/confirm-email/:uid/:token/', {
    POST: async (c) => {
      const id = decodeUid(pathParam(c, 'uid'))
      const user = id === undefined ? undefined : await findUserById(db, id)
      if (!user?.isActive || !emailConfirmationLinks.check(confirmationSubject(user), pathParam(c, 'token'))) {
        throw apiError(400, INVALID_CONFIRMATION_LINK)
      }
      if (!user.emailVerified) await db.update(users).set({ emailVerified: true }).where(eq(users.id, user.id))
      return c.json({ detail: 'Your e-mail address has been confirmed.' })
    },
  })

  api.endpoint('/users/password-reset/', {
    POST: async (c) => {
      await enforceThrottle(services, 'resetPerAddress', requestAddress(c))
      const { email } = validate(emailOnlySchema, await readFields(c.req.raw))
      await enforceThrottle(services, 'resetPerEmail', email)
      background.run('password-reset', async () => {
        const user = await findUserByEmail(db, email)
        if (!user?.isActive) return
        const token = await issueResetToken(db, user.id, clock())
        const link = linkTo(`/auth/reset/${encodeUid(user.id)}/${token}`)
        await queueMail(db, passwordResetMessage({ to: user.email, firstName: user.firstName, link }))
      })
      return c.json({ detail: 'If an account exists for this e-mail, we have sent a link to reset the password.' })
    },
  })

  api.endpoint('/users/password-reset-confirm/:uid/:token/', {
    POST: async (c) => {
      const token = pathParam(c, 'token')
      const ticket = await findResetTicket(db, decodeUid(pathParam(c, 'uid')), token, clock())
      if (!ticket) throw apiError(400, INVALID_LINK)
      const { user } = ticket
      const { new_password } = validate(newPasswordSchema, await readFields(c.req.raw))
      const problems = await validatePassword(new_password, { email: user.email, username: user.username, firstName: user.firstName, lastName: user.lastName })
      if (problems.length > 0) {
        await recordFailedAttempt(db, ticket.tokenId)
        throw validationError({ new_password: problems })
      }
      const passwordHash = await hashPassword(new_password)
      // Claimed atomically: of two uses at once, the second finds the token gone.
      if (!(await consumeResetToken(db, { userId: user.id, token, now: clock(), passwordHash }))) throw apiError(400, INVALID_LINK)
      log({ level: 'info', msg: 'password reset', user_id: user.id })
      return c.json({ detail: 'Your password has been reset. You can now log in with the new password.' })
    },
  })
}

/** Django's normalize_email: the domain part is case-insensitive, so store it lower-cased. */
export function normaliseEmail(email: string): string {
  const at = email.lastIndexOf('@')
  return at === -1 ? email : email.slice(0, at) + email.slice(at).toLowerCase()
}
