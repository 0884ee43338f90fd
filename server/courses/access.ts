import type { Role } from '#server/auth/authenticate.ts'

/**
 * Who may watch what (docs/product.md §7, decision 0057). Why a lesson plays for a user, or null
 * when it is locked: its course is free, the lesson is a free preview, the user bought the course,
 * has a program (programs include every course), or a live plan (every plan does); professionals
 * and admins watch everything.
 */
export type AccessReason = 'free' | 'owned' | 'program' | 'subscription' | 'staff'

/** What the user holds that opens paid courses, read once per request. */
export type Entitlements = {
  role: Role
  /** The course products granted to the user, in force and available. */
  courseProductIds: ReadonlySet<number>
  /** A program granted, in force and available. */
  hasProgram: boolean
  /** A subscription trialing, active or past due. */
  hasLiveSubscription: boolean
}

/** Why the course's paid lessons play for this user, or null when they are locked. */
export function courseAccess(course: { productId: number | null }, entitlements: Entitlements): AccessReason | null {
  if (course.productId === null) return 'free'
  if (entitlements.role !== 'paciente') return 'staff'
  if (entitlements.courseProductIds.has(course.productId)) return 'owned'
  if (entitlements.hasProgram) return 'program'
  if (entitlements.hasLiveSubscription) return 'subscription'
  return null
}

/** Whether this lesson plays: its course's access, or a free preview. */
export function lessonPlays(lesson: { free: boolean }, course: { productId: number | null }, entitlements: Entitlements): boolean {
  return lesson.free || courseAccess(course, entitlements) !== null
}
