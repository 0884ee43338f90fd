export const roles = ['admin', 'profissional', 'paciente'] as const
export type Role = (typeof roles)[number]

/** docs/product.md §6: the first recognised group wins, case ignored; no recognised group means paciente. */
export function roleFromGroups(groups: readonly string[] | null | undefined): Role {
  for (const group of groups ?? []) {
    const name = group.trim().toLowerCase()
    if ((roles as readonly string[]).includes(name)) return name as Role
  }
  return 'paciente'
}

/** Passes when the user's role is the one given or one of the list. */
export function hasRole(groups: readonly string[] | null | undefined, allowed: Role | readonly Role[]): boolean {
  const role = roleFromGroups(groups)
  return typeof allowed === 'string' ? role === allowed : allowed.includes(role)
}

/** Where each role lands after signing in. */
export function defaultRouteFor(role: Role): string {
  return role === 'admin' ? '/admin/dashboard' : '/dashboard'
}

/** docs/product.md §4: a Google sign-in is a new user when the user has exactly one group and it is paciente. */
export function isNewGoogleUser(groups: readonly string[]): boolean {
  return groups.length === 1 && groups[0]!.trim().toLowerCase() === 'paciente'
}
