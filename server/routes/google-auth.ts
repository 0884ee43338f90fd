import { eq } from 'drizzle-orm'
import { z } from 'zod'
import { hasUsablePassword, makeUnusablePassword } from '#server/auth/passwords.ts'
import { startSession } from '#server/auth/sessions.ts'
import { users } from '#server/db/schema.ts'
import { InvalidGoogleTokenError, type GoogleIdentity } from '#server/google/verify-id-token.ts'
import type { Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { ApiError } from '#server/http/errors.ts'
import { charField, validate } from '#server/http/fields.ts'
import type { Services } from '#server/services.ts'
import {
  createUser,
  findUserByEmail,
  findUserByGoogleSubject,
  findUserById,
  groupNamesOf,
  uniqueUsernameFromEmail,
  uniqueViolation,
  type UserRow,
} from '#server/users/repository.ts'
import { sanitisePersonName } from '#server/person-names.ts'
import { splitFullName } from '#server/users/serializers.ts'
import { normaliseEmail } from '#server/routes/accounts.ts'
import { enforceThrottle, requestAddress } from '#server/routes/throttling.ts'

const EXISTING_ACCOUNT = 'Já existe uma conta com este email. Faça login normalmente.'

const failure = (status: number, detail: string, displayMessage?: string) =>
  new ApiError(status, { success: false, detail, ...(displayMessage && { display_message: displayMessage }) })

// The query and form shapes the handlers check, built once (a zod schema compiles its parser on first use).
const tokenForm = z.object({ token: charField({ maxLength: 8192 }) })

/**
 * Sign-in with a Google id_token. Finds the account by Google subject, then by e-mail; an
 * e-mail already used by a password account that never signed in with Google is refused
 * (409) rather than silently linked, so nobody takes over an account through Google.
 */
export function registerGoogleAuthRoutes(api: Api, services: Services): void {
  const { db, clock, verifyGoogleIdToken } = services

  async function findOrCreate(identity: GoogleIdentity): Promise<{ user: UserRow; isNew: boolean }> {
    const linked = await findUserByGoogleSubject(db, identity.subject)
    if (linked) return { user: linked, isNew: false }

    const byEmail = await findUserByEmail(db, identity.email)
    if (byEmail) {
      if (byEmail.googleSubject !== null || hasUsablePassword(byEmail.password)) {
        throw failure(409, EXISTING_ACCOUNT, EXISTING_ACCOUNT)
      }
      // An account with no password and no Google link (created by an admin): Google proves the address.
      await db.update(users).set({ googleSubject: identity.subject, emailVerified: true }).where(eq(users.id, byEmail.id))
      return { user: (await findUserById(db, byEmail.id))!, isNew: false }
    }

    const names = identity.givenName || identity.familyName
      ? { firstName: identity.givenName, lastName: identity.familyName }
      : splitFullName(identity.name)
    try {
      const user = await createUser(db, {
        email: normaliseEmail(identity.email),
        username: await uniqueUsernameFromEmail(db, identity.email),
        password: makeUnusablePassword(),
        // Google's names are taken, not refused: made to fit the name rule (a link or a line break stops them).
        firstName: sanitisePersonName(names.firstName, 150),
        lastName: sanitisePersonName(names.lastName, 150),
        emailVerified: true,
        googleSubject: identity.subject,
        groupNames: ['paciente'],
      })
      return { user, isNew: true }
    } catch (error) {
      // The same Google account signing in twice at once: the first one created it.
      if (uniqueViolation(error)) {
        const winner = await findUserByGoogleSubject(db, identity.subject)
        if (winner) return { user: winner, isNew: false }
        throw failure(409, EXISTING_ACCOUNT, EXISTING_ACCOUNT)
      }
      throw error
    }
  }

  api.endpoint('/auth/google/', {
    POST: async (c) => {
      await enforceThrottle(services, 'googlePerAddress', requestAddress(c))
      const { token } = validate(tokenForm, await readFields(c.req.raw))

      let identity: GoogleIdentity
      try {
        identity = await verifyGoogleIdToken(token)
      } catch (error) {
        if (error instanceof InvalidGoogleTokenError) throw failure(400, 'Invalid Google token')
        throw error
      }

      const { user, isNew } = await findOrCreate(identity)
      if (!user.isActive) throw failure(403, 'This account has been deactivated.', 'Esta conta foi desativada.')

      await db.update(users).set({ lastLogin: new Date(clock()) }).where(eq(users.id, user.id))
      return c.json({
        success: true,
        tokens: await startSession(services, user.id),
        user: {
          id: user.id,
          email: user.email,
          username: user.username,
          first_name: user.firstName,
          last_name: user.lastName,
          groups: await groupNamesOf(db, user.id),
          time_zone: user.timeZone,
        },
        message: isNew ? 'Conta criada com sucesso.' : 'Login realizado com sucesso.',
        is_new_user: isNew,
      })
    },
  })
}
