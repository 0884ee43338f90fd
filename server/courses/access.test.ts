import { describe, expect, it } from 'vitest'
import { courseAccess, lessonPlays, type Entitlements } from '#server/courses/access.ts'

const patient = (changes: Partial<Entitlements> = {}): Entitlements => ({ role: 'paciente', courseProductIds: new Set(), hasProgram: false, hasLiveSubscription: false, ...changes })
const paid = { productId: 7 }
const free = { productId: null }

describe('course access', () => {
  it('opens a free course to everyone and a paid one to no patient without a reason', () => {
    expect(courseAccess(free, patient())).toBe('free')
    expect(courseAccess(paid, patient())).toBeNull()
  })

  it('names the reason a paid course opens: bought, a program, a live plan, or staff', () => {
    expect(courseAccess(paid, patient({ courseProductIds: new Set([7]) }))).toBe('owned')
    expect(courseAccess(paid, patient({ courseProductIds: new Set([8]) }))).toBeNull()
    expect(courseAccess(paid, patient({ hasProgram: true }))).toBe('program')
    expect(courseAccess(paid, patient({ hasLiveSubscription: true }))).toBe('subscription')
    expect(courseAccess(paid, patient({ role: 'profissional' }))).toBe('staff')
    expect(courseAccess(paid, patient({ role: 'admin' }))).toBe('staff')
  })

  it('plays a free preview of a locked course, and nothing else of it', () => {
    expect(lessonPlays({ free: true }, paid, patient())).toBe(true)
    expect(lessonPlays({ free: false }, paid, patient())).toBe(false)
    expect(lessonPlays({ free: false }, paid, patient({ hasLiveSubscription: true }))).toBe(true)
  })
})
