import { eq } from 'drizzle-orm'
import { z } from 'zod'
import { verifyAgainstDummy, verifyPassword } from '../auth/passwords'
import { InvalidTokenError } from '../auth/tokens'
import { users } from '../db/schema'
import type { Api } from '../http/api'
import { readFields } from '../http/body'
import { apiError, tokenNotValid } from '../http/errors'
import { charField, validate } from '../http/fields'
import type { Services } from '../services'
import { findUserByEmail, findUserById, groupNamesOf } from '../users/repository'
import { serializeUser } from '../users/serializers'
import { enforceThrottle, requestAddress } from './throttling'

const loginSchema = z.object({
  // simplejwt's serializer takes the USERNAME_FIELD as a plain CharField: no e-mail format check.
  email: charField({ maxLength: 254 }),
  password: charField({ maxLength: 128, trim: false }),
})

const NO_ACCOUNT = 'No active account found with the given credentials'

/** simplejwt-style token endpoints: custom login (with the user object), refresh, verify. */
export function registerAuthenticationRoutes(api: Api, services: Services): void {
  const { db, tokens, config, clock } = services

  api.endpoint('/authentication/custom-login/', {
    POST: async (c) => {
      enforceThrottle(services, 'loginPerAddress', requestAddress(c))
      const { email, password } = validate(loginSchema, await readFields(c.req.raw))
      enforceThrottle(services, 'loginPerEmail', email)

      const user = await findUserByEmail(db, email)
      const valid = user ? await verifyPassword(password, user.password) : await verifyAgainstDummy(password)
      if (!user || !valid || !user.isActive) throw apiError(401, NO_ACCOUNT)

      await db.update(users).set({ lastLogin: new Date(clock()) }).where(eq(users.id, user.id))
      const pair = await tokens.issuePair(user.id)
      const { id, ...profile } = serializeUser(user, await groupNamesOf(db, user.id), config.providerPublicUrl)
      return c.json({ ...pair, user_id: id, ...profile })
    },
  })

  api.endpoint('/authentication/token/refresh/', {
    POST: async (c) => {
      const { refresh } = validate(z.object({ refresh: charField({ maxLength: 4096 }) }), await readFields(c.req.raw))
      let userId: number
      try {
        userId = (await tokens.verify(refresh, 'refresh')).user_id
      } catch (error) {
        if (error instanceof InvalidTokenError) throw tokenNotValid()
        throw error
      }
      const user = await findUserById(db, userId)
      if (!user?.isActive) throw apiError(401, 'No active account found for the given token.')
      // No rotation: the client keeps its refresh token until it expires.
      return c.json({ access: await tokens.issueAccess(user.id) })
    },
  })

  api.endpoint('/authentication/token/verify/', {
    POST: async (c) => {
      const { token } = validate(z.object({ token: charField({ maxLength: 4096 }) }), await readFields(c.req.raw))
      try {
        await tokens.verify(token)
      } catch (error) {
        if (error instanceof InvalidTokenError) throw tokenNotValid()
        throw error
      }
      return c.json({})
    },
  })
}
