import { eq } from 'drizzle-orm'
import { actorOf, changedFields, type AuditEntry } from '#server/audit/entries.ts'
import { recordAudit } from '#server/audit/repository.ts'
import type { Caller } from '#server/auth/authenticate.ts'
import { revokeAllSessions } from '#server/auth/sessions.ts'
import type { Database } from '#server/db/client.ts'
import { users } from '#server/db/schema.ts'
import { groupNamesOf, setUserGroups, updateUser, type UserChanges } from '#server/users/repository.ts'

/** What an admin changes of a user through PATCH /users/{id}/ (checked by the route). */
type AdminEdit = { names?: Pick<UserChanges, 'firstName' | 'lastName'>; isActive?: boolean; groups?: string[] }

const sameGroups = (a: string[], b: string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort())

/**
 * An admin's edit of a user (decision 0059), in one transaction with its audit entries: the names
 * (`user.update`), the groups (`user.groups`), deactivation (`user.deactivate`: every session of
 * the user ends at once, so their tokens are refused from the next request on, and stay refused
 * after a reactivation) and reactivation (`user.reactivate`). Each entry holds only what changed;
 * an edit that changes nothing records nothing.
 */
export async function editUserAsAdmin(db: Database, caller: Caller, userId: number, edit: AdminEdit, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    const writer = tx as unknown as Database
    const [before] = await tx.select().from(users).where(eq(users.id, userId)).for('update')
    if (!before) return
    const groupsBefore = await groupNamesOf(writer, userId)
    const values: UserChanges = { ...edit.names, ...(edit.isActive !== undefined && { isActive: edit.isActive }) }
    if (Object.keys(values).length > 0) await updateUser(writer, userId, values)
    if (edit.groups) await setUserGroups(writer, userId, edit.groups)
    // Deactivated: whatever tokens they hold die now, in every provider process (docs/product.md §4).
    if (edit.isActive === false) await revokeAllSessions(writer, userId, now)

    const entry = { ...actorOf(caller), targetType: 'user', targetId: userId, subjectUserId: userId, at: now }
    const entries: AuditEntry[] = []
    const names = changedFields(
      { first_name: before.firstName, last_name: before.lastName },
      { first_name: edit.names?.firstName ?? before.firstName, last_name: edit.names?.lastName ?? before.lastName },
    )
    if (names.before !== null) entries.push({ ...entry, action: 'user.update', ...names })
    if (edit.groups) {
      const groupsAfter = await groupNamesOf(writer, userId)
      if (!sameGroups(groupsBefore, groupsAfter)) entries.push({ ...entry, action: 'user.groups', before: { groups: groupsBefore }, after: { groups: groupsAfter } })
    }
    if (edit.isActive !== undefined && edit.isActive !== before.isActive) {
      entries.push({ ...entry, action: edit.isActive ? 'user.reactivate' : 'user.deactivate', before: { is_active: before.isActive }, after: { is_active: edit.isActive } })
    }
    await recordAudit(tx, ...entries)
  })
}
