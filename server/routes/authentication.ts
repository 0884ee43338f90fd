import { eq } from 'drizzle-orm'
import { z } from 'zod'
import { verifyAgainstDummy, verifyPassword } from '#server/auth/passwords.ts'
import { revokeSession, sessionUser, startSession } from '#server/auth/sessions.ts'
import { InvalidTokenError, type TokenClaims, type TokenType } from '#server/auth/tokens.ts'
import { users } from '#server/db/schema.ts'
import type { Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { apiError, tokenNotValid } from '#server/http/errors.ts'
import { charField, validate } from '#server/http/fields.ts'
import type { Services } from '#server/services.ts'
import { findUserByEmail, groupNamesOf } from '#server/users/repository.ts'
import { serializeUser } from '#server/users/serializers.ts'
import { enforceThrottle, requestAddress } from '#server/routes/throttling.ts'

const loginSchema = z.object({
  // simplejwt's serializer takes the USERNAME_FIELD as a plain CharField: no e-mail format check.
  email: charField({ maxLength: 254 }),
  password: charField({ maxLength: 128, trim: false }),
})

const NO_ACCOUNT = 'No active account found with the given credentials'

const refreshSchema = z.object({ refresh: charField({ maxLength: 4096 }) })

// The query and form shapes the handlers check, built once (a zod schema compiles its parser on first use).
const tokenForm = z.object({ token: charField({ maxLength: 4096 }) })

/** simplejwt-style token endpoints: custom login (with the user object), refresh, verify, blacklist (logout). */
export function registerAuthenticationRoutes(api: Api, services: Services): void {
  const { db, tokens, config, clock } = services

  /** Verified claims, or simplejwt's 401 token_not_valid. */
  async function claimsOf(token: string, type?: TokenType): Promise<TokenClaims> {
    try {
      return await tokens.verify(token, type)
    } catch (error) {
      if (error instanceof InvalidTokenError) throw tokenNotValid()
      throw error
    }
  }

  api.endpoint('/authentication/custom-login/', {
    POST: async (c) => {
      await enforceThrottle(services, 'loginPerAddress', requestAddress(c))
      const { email, password } = validate(loginSchema, await readFields(c.req.raw))
      await enforceThrottle(services, 'loginPerEmail', email)

      const user = await findUserByEmail(db, email)
      const valid = user ? await verifyPassword(password, user.password) : await verifyAgainstDummy(password)
      if (!user || !valid || !user.isActive) throw apiError(401, NO_ACCOUNT)

      await db.update(users).set({ lastLogin: new Date(clock()) }).where(eq(users.id, user.id))
      const pair = await startSession(services, user.id)
      const { id, ...profile } = serializeUser(user, await groupNamesOf(db, user.id), config.providerPublicUrl)
      return c.json({ ...pair, user_id: id, ...profile })
    },
  })

  api.endpoint('/authentication/token/refresh/', {
    POST: async (c) => {
      const { refresh } = validate(refreshSchema, await readFields(c.req.raw))
      const claims = await claimsOf(refresh, 'refresh')
      // Session and user in one query: a revoked session is an invalid token, an inactive user is simplejwt's own answer.
      const user = await sessionUser(db, claims.sid, claims.user_id, clock())
      if (!user) throw tokenNotValid()
      if (!user.isActive) throw apiError(401, 'No active account found for the given token.')
      // No rotation: the client keeps its refresh token until it expires (or the session is revoked).
      return c.json({ access: await tokens.issueAccess(user.id, claims.sid) })
    },
  })

  api.endpoint('/authentication/token/verify/', {
    POST: async (c) => {
      const { token } = validate(tokenForm, await readFields(c.req.raw))
      const claims = await claimsOf(token)
      // simplejwt's verify view also refuses blacklisted tokens.
      if (!(await sessionUser(db, claims.sid, claims.user_id, clock()))) throw tokenNotValid()
      return c.json({})
    },
  })

  // simplejwt's TokenBlacklistView: logout. The refresh token is the credential (no Authorization
  // header); revoking its session ends the access tokens issued from it too.
  api.endpoint('/authentication/token/blacklist/', {
    POST: async (c) => {
      const { refresh } = validate(refreshSchema, await readFields(c.req.raw))
      const claims = await claimsOf(refresh, 'refresh')
      if (!(await revokeSession(db, claims.sid, claims.user_id, clock()))) throw tokenNotValid()
      return c.json({})
    },
  })
}
