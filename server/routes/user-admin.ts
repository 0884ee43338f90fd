import { z } from 'zod'
import { authenticate, authenticateWithRole, roleOf } from '#server/auth/authenticate.ts'
import { GROUP_NAMES } from '#server/db/schema.ts'
import { idParam, type Api, type AppContext } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { notFound, validationError, type FieldErrors } from '#server/http/errors.ts'
import { booleanField, charField, choiceField, integerField, listField, personNameField, validate } from '#server/http/fields.ts'
import { paginate, PRIVATE_NO_STORE, requestedRows, type Page } from '#server/http/pagination.ts'
import type { Services } from '#server/services.ts'
import {
  accredit,
  CONSULTATION_LANGUAGES,
  findProfessionalProfile,
  MAX_CONSULTATION_PRICE_CENTS,
  PILLAR_SLUGS,
  PROFESSION_MAX_LENGTH,
  REGISTRATION_MAX_LENGTH,
  revokeAccreditation,
  serializeProfessionalProfile,
  upcomingCounts,
} from '#server/professionals/accreditation.ts'
import { editUserAsAdmin } from '#server/users/admin-edits.ts'
import { countUsers, findUserById, groupIdsByName, groupNamesByUser, groupNamesOf, isCareLinked, searchPageWithCount, userCounts, usersPage, type UserFilter, type UserRow } from '#server/users/repository.ts'
import { serializeUserDetail } from '#server/users/serializers.ts'

// There are three groups; room for more without letting one request carry thousands.
const MAX_GROUPS = 20

const adminUpdateSchema = z.object({
  first_name: personNameField({ maxLength: 150, allowBlank: true }).optional(),
  last_name: personNameField({ maxLength: 150, allowBlank: true }).optional(),
  is_active: booleanField().optional(),
  groups: listField(z.string({ error: 'Not a valid string.' }), { maxLength: MAX_GROUPS }).optional(),
})

/** The list's `state`: active or inactive accounts (anything else is a 400, like DRF's ChoiceFilter). */
const USER_STATES = ['active', 'inactive'] as const

/** Kept in a list's own order (the pillars', the languages'), each once. */
const inOrder = (order: readonly string[]) => (values: string[]) => order.filter((value) => values.includes(value))

const accreditationSchema = z.object({
  profession: charField({ maxLength: PROFESSION_MAX_LENGTH }),
  registration_number: charField({ maxLength: REGISTRATION_MAX_LENGTH }),
  pillars: listField(choiceField(PILLAR_SLUGS), { maxLength: PILLAR_SLUGS.length, allowEmpty: false }).transform(inOrder(PILLAR_SLUGS)),
  languages: listField(choiceField(CONSULTATION_LANGUAGES), { maxLength: CONSULTATION_LANGUAGES.length, allowEmpty: false }).transform(inOrder(CONSULTATION_LANGUAGES)),
  price_cents: integerField({ min: 0, max: MAX_CONSULTATION_PRICE_CENTS }),
})

// As the app's form says (the audit log keeps up to 1000, for a cancellation's reason).
const revocationSchema = z.object({ reason: charField({ maxLength: 500 }) })

// The query and form shapes the handlers check, built once (a zod schema compiles its parser on first use).
const stateQuery = z.object({ state: choiceField(USER_STATES).optional() })

/** Admin views of users: paginated list with search and filters, stats, detail and edits (audited), a professional's accreditation and its revocation (decision 0059). */
export function registerUserAdminRoutes(api: Api, services: Services): void {
  const { db, config } = services
  const photoBase = config.providerPublicUrl

  /**
   * The list's page and its envelope. A search reads its page and the count in one statement; past
   * the end, "last" or a bad page number, the count is read first and paginate decides.
   */
  async function listPage(c: AppContext, filter: UserFilter): Promise<{ page: Page; rows: UserRow[] }> {
    const wanted = filter.search ? requestedRows(c) : null
    if (wanted) {
      const { rows, total } = await searchPageWithCount(db, filter, wanted)
      if (total !== undefined) return { page: paginate(c, total), rows }
    }
    const matching = await countUsers(db, filter)
    const page = paginate(c, matching)
    return { page, rows: await usersPage(db, filter, page, matching) }
  }

  api.endpoint('/users/', {
    GET: async (c) => {
      await authenticateWithRole(c, services, 'admin')
      const search = c.req.query('search')?.trim()
      const group = c.req.query('group')?.trim()
      const state = c.req.query('state')?.trim() || undefined
      const { state: chosen } = validate(stateQuery, { state })

      const filter: UserFilter = {}
      if (search) filter.search = search
      if (group) filter.group = group
      if (chosen) filter.active = chosen === 'active'

      const { page, rows } = await listPage(c, filter)
      const groupsByUser = await groupNamesByUser(db, rows.map((row) => row.id))

      return c.json(page.envelope(rows.map((row) => serializeUserDetail(row, groupsByUser.get(row.id) ?? [], photoBase))))
    },
  })

  api.endpoint('/users/stats/', {
    GET: async (c) => {
      await authenticateWithRole(c, services, 'admin')
      const { total, active, membersByGroup } = await userCounts(db)
      const byGroup = Object.fromEntries(GROUP_NAMES.map((name) => [name, 0])) as Record<(typeof GROUP_NAMES)[number], number>
      for (const row of membersByGroup) if (row.name in byGroup) byGroup[row.name as keyof typeof byGroup] = row.members
      return c.json({ total, active, by_group: byGroup })
    },
  })

  api.endpoint('/users/:id{[0-9]+}/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      const user = await findUserById(db, idParam(c, 'id'))
      const role = roleOf(caller.groups)
      const allowed =
        user !== undefined && (caller.user.id === user.id || role === 'admin' || (role === 'profissional' && (await isCareLinked(db, caller.user.id, user.id))))
      // Someone the caller may not read is answered like someone who does not exist: ids cannot be probed.
      if (!allowed) throw notFound()
      return c.json(serializeUserDetail(user, await groupNamesOf(db, user.id), photoBase))
    },
    PATCH: async (c) => {
      const caller = await authenticateWithRole(c, services, 'admin')
      const user = await findUserById(db, idParam(c, 'id'))
      if (!user) throw notFound()
      const changes = validate(adminUpdateSchema, await readFields(c.req.raw))

      const errors: FieldErrors = {}
      const groupNames = changes.groups && [...new Set(changes.groups.map((name) => name.trim()))]
      if (groupNames) {
        const known = await groupIdsByName(db, groupNames)
        const unknown = groupNames.filter((name) => !known.has(name))
        if (unknown.length > 0) errors.groups = unknown.map((name) => `Object with name=${name} does not exist.`)
        else if (caller.user.id === user.id && !groupNames.includes('admin')) errors.groups = ['You cannot remove your own admin role.']
      }
      if (changes.is_active === false && caller.user.id === user.id) errors.is_active = ['You cannot deactivate your own account.']
      if (Object.keys(errors).length > 0) throw validationError(errors)

      // The change and its audit entries in one transaction; a deactivation ends the user's sessions (decision 0059).
      const names = {
        ...(changes.first_name !== undefined && { firstName: changes.first_name }),
        ...(changes.last_name !== undefined && { lastName: changes.last_name }),
      }
      await editUserAsAdmin(db, caller, user.id, { names, isActive: changes.is_active, groups: groupNames }, services.clock())
      const updated = (await findUserById(db, user.id))!
      return c.json(serializeUserDetail(updated, await groupNamesOf(db, user.id), photoBase))
    },
  })

  /** A user as the admin console shows them: the account, their professional profile (or null), their upcoming appointments. */
  async function adminDetail(user: UserRow) {
    const [groups, profile, counts] = await Promise.all([groupNamesOf(db, user.id), findProfessionalProfile(db, user.id), upcomingCounts(db, user.id, services.clock())])
    return {
      ...serializeUserDetail(user, groups, photoBase),
      professional: profile ? serializeProfessionalProfile(profile) : null,
      counts: { future_appointments_as_professional: counts.asProfessional, future_appointments_as_patient: counts.asPatient },
    }
  }

  /** The admin and the user in the path (404 when there is none). */
  async function adminAndUser(c: AppContext) {
    const caller = await authenticateWithRole(c, services, 'admin')
    const user = await findUserById(db, idParam(c, 'id'))
    if (!user) throw notFound()
    return { caller, user }
  }

  api.endpoint('/admin/users/:id{[0-9]+}/', {
    GET: async (c) => {
      const { user } = await adminAndUser(c)
      return c.json(await adminDetail(user), 200, { 'Cache-Control': PRIVATE_NO_STORE })
    },
  })

  api.endpoint('/admin/users/:id{[0-9]+}/accreditation/', {
    // Accredits (or updates the accredited profile): in the directory and bookable from now on.
    PUT: async (c) => {
      const { caller, user } = await adminAndUser(c)
      const input = validate(accreditationSchema, await readFields(c.req.raw))
      await accredit(services, caller, user, {
        profession: input.profession,
        registrationNumber: input.registration_number,
        pillars: input.pillars,
        languages: input.languages,
        priceCents: input.price_cents,
      })
      return c.json(await adminDetail((await findUserById(db, user.id))!), 200, { 'Cache-Control': PRIVATE_NO_STORE })
    },
    // Revokes it: out of the directory, every future appointment cancelled and refunded; again, nothing more.
    DELETE: async (c) => {
      const { caller, user } = await adminAndUser(c)
      const { reason } = validate(revocationSchema, await readFields(c.req.raw))
      const revocation = await revokeAccreditation(services, caller, user, reason)
      return c.json(
        { ...(await adminDetail(user)), cancelled_appointments: revocation.cancelled, released_held_times: revocation.released },
        200,
        { 'Cache-Control': PRIVATE_NO_STORE },
      )
    },
  })
}
