import { z } from 'zod'
import { authenticate, authenticateWithRole, roleOf } from '#server/auth/authenticate.ts'
import { GROUP_NAMES } from '#server/db/seed-data.ts'
import { idParam, type Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { notFound, validationError, type FieldErrors } from '#server/http/errors.ts'
import { booleanField, listField, personNameField, validate } from '#server/http/fields.ts'
import { paginate } from '#server/http/pagination.ts'
import type { Services } from '#server/services.ts'
import {
  countUsers,
  findUserById,
  groupIdsByName,
  groupNamesByUser,
  groupNamesOf,
  isCareLinked,
  setUserGroups,
  updateUser,
  userCounts,
  usersPage,
  type UserFilter,
} from '#server/users/repository.ts'
import { serializeUserDetail } from '#server/users/serializers.ts'

// There are three groups; room for more without letting one request carry thousands.
const MAX_GROUPS = 20

const adminUpdateSchema = z.object({
  first_name: personNameField({ maxLength: 150, allowBlank: true }).optional(),
  last_name: personNameField({ maxLength: 150, allowBlank: true }).optional(),
  is_active: booleanField().optional(),
  groups: listField(z.string({ error: 'Not a valid string.' }), { maxLength: MAX_GROUPS }).optional(),
})

/** Admin views of users: paginated list with search, stats, detail and edits. */
export function registerUserAdminRoutes(api: Api, services: Services): void {
  const { db, config } = services
  const photoBase = config.providerPublicUrl

  api.endpoint('/users/', {
    GET: async (c) => {
      await authenticateWithRole(c, services, 'admin')
      const search = c.req.query('search')?.trim()
      const group = c.req.query('group')?.trim()

      const filter: UserFilter = {}
      if (search) filter.search = search
      if (group) filter.group = group

      const page = paginate(c, await countUsers(db, filter))
      const rows = await usersPage(db, filter, page)
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

      const values = {
        ...(changes.first_name !== undefined && { firstName: changes.first_name }),
        ...(changes.last_name !== undefined && { lastName: changes.last_name }),
        ...(changes.is_active !== undefined && { isActive: changes.is_active }),
      }
      if (Object.keys(values).length > 0) await updateUser(db, user.id, values)
      if (groupNames) await setUserGroups(db, user.id, groupNames)
      const updated = (await findUserById(db, user.id))!
      return c.json(serializeUserDetail(updated, await groupNamesOf(db, user.id), photoBase))
    },
  })
}
