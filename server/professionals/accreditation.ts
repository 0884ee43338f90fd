import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm'
import { afterCancellations, cancelOpenAppointment, type Cancelled } from '#server/appointments/cancellation.ts'
import { findAppointmentView, lockBookingsOf } from '#server/appointments/repository.ts'
import { actorOf, changedFields } from '#server/audit/entries.ts'
import { recordAudit } from '#server/audit/repository.ts'
import type { Caller } from '#server/auth/authenticate.ts'
import type { Database, Writer } from '#server/db/client.ts'
import { appointments, groups, PILLAR_SLUGS as PILLARS_IN_ORDER, professionalProfiles, userGroups, type AppointmentStatus, type WeeklyAvailability } from '#server/db/schema.ts'
import { apiError } from '#server/http/errors.ts'
import { cancelPurchase } from '#server/billing/cancellation.ts'
import { findPurchase } from '#server/purchases/repository.ts'
import type { Services } from '#server/services.ts'
import { groupNamesOf, type UserRow } from '#server/users/repository.ts'

/**
 * A new profile's week (the demo professionals' too), in the professional's own time zone: weekdays
 * 08:00-12:00 and 13:00-18:00, Saturday 09:00-12:00. With a 12-hour notice and a 60-day horizon
 * there are always free times from now + 12 h on; the professional changes it on their schedule page.
 */
export const STARTING_AVAILABILITY: WeeklyAvailability = {
  monday: { enabled: true, slots: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }] },
  tuesday: { enabled: true, slots: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }] },
  wednesday: { enabled: true, slots: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }] },
  thursday: { enabled: true, slots: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }] },
  friday: { enabled: true, slots: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }] },
  saturday: { enabled: true, slots: [{ start: '09:00', end: '12:00' }] },
  sunday: { enabled: false, slots: [] },
}

/** A new profile's rules: 50-minute consultations, 10 minutes between, 12 hours' notice, 60 days ahead. */
export const STARTING_SCHEDULE_RULES = { consultationMinutes: 50, bufferMinutes: 10, minimumNoticeHours: 12, horizonDays: 60 }

/**
 * A professional's accreditation by an admin (decision 0059): the profile the directory shows
 * (profession, registration, pillars, languages, price) and whether they may be booked. Accredited,
 * they are in the `profissional` group and in the directory; revoked, they leave it and each of
 * their future appointments is cancelled as they would cancel it themselves (a full refund, both
 * people told). Each is one audit entry, written in the change's transaction.
 */

export const PROFESSION_MAX_LENGTH = 150
export const REGISTRATION_MAX_LENGTH = 50
/** The highest consultation price an admin sets: R$ 10.000,00. */
export const MAX_CONSULTATION_PRICE_CENTS = 1_000_000
export const CONSULTATION_LANGUAGES = ['pt', 'en', 'es'] as const
export const PILLAR_SLUGS: readonly string[] = PILLARS_IN_ORDER
/** The cancellation reason stored on the appointments a revocation cancels (never shown as someone's words; the admin's reason is the audit entry's). */
export const ACCREDITATION_REVOKED_REASON = 'professional_not_accredited'

type Accreditation = {
  profession: string
  registrationNumber: string
  pillars: string[]
  languages: string[]
  priceCents: number
}

type ProfileRow = typeof professionalProfiles.$inferSelect

/** Upcoming for a professional: held for its payment, scheduled or confirmed, not yet started. */
const UPCOMING: AppointmentStatus[] = ['awaiting_payment', 'scheduled', 'confirmed']

/** The profile as an admin reads it (GET /admin/users/{id}/ `professional`). */
export function serializeProfessionalProfile(profile: ProfileRow) {
  return {
    accredited: profile.accredited,
    profession: profile.profession,
    registration_number: profile.registrationNumber,
    pillars: profile.pillars,
    languages: profile.languages,
    price_cents: profile.priceCents,
    currency: 'BRL',
    consultation_minutes: profile.consultationMinutes,
    time_zone: profile.timeZone,
  }
}

/** What the audit log keeps of a profile and the user's groups, as the API names them. */
const auditedProfile = (profile: ProfileRow | undefined, groupNames: string[]): Record<string, unknown> =>
  profile
    ? {
        accredited: profile.accredited,
        profession: profile.profession,
        registration_number: profile.registrationNumber,
        pillars: profile.pillars,
        languages: profile.languages,
        price_cents: profile.priceCents,
        groups: groupNames,
      }
    : { accredited: false, groups: groupNames }

export async function findProfessionalProfile(db: Pick<Database, 'select'>, userId: number): Promise<ProfileRow | undefined> {
  const [row] = await db.select().from(professionalProfiles).where(eq(professionalProfiles.userId, userId))
  return row
}

async function lockProfile(tx: Writer, userId: number): Promise<ProfileRow | undefined> {
  const [row] = await tx.select().from(professionalProfiles).where(eq(professionalProfiles.userId, userId)).for('update')
  return row
}

/** How many upcoming appointments a user has as the professional and as the patient (held times included). */
export async function upcomingCounts(db: Database, userId: number, now: number): Promise<{ asProfessional: number; asPatient: number }> {
  const [row] = await db
    .select({
      asProfessional: sql<number>`count(*) filter (where ${appointments.professionalId} = ${userId})`.mapWith(Number),
      asPatient: sql<number>`count(*) filter (where ${appointments.patientId} = ${userId})`.mapWith(Number),
    })
    .from(appointments)
    .where(and(sql`(${appointments.professionalId} = ${userId} or ${appointments.patientId} = ${userId})`, inArray(appointments.status, UPCOMING), gt(appointments.startTime, new Date(now))))
  return { asProfessional: row?.asProfessional ?? 0, asPatient: row?.asPatient ?? 0 }
}

/** An admin is never accredited: the role they sign in with would hide every professional page (docs/product.md §6). */
const IS_ADMIN = 'is_admin'

/**
 * Accredits the user (creating the profile with the demo's weekly availability and rules when they
 * have none, their own time zone), adds them to `profissional`, and records `professional.accredit`
 * with what changed, all in one transaction. Accrediting again with other values updates the
 * profile; with the same ones it changes and records nothing.
 */
export async function accredit(services: Services, caller: Caller, user: UserRow, input: Accreditation): Promise<void> {
  const { db, clock } = services
  const groupsBefore = await groupNamesOf(db, user.id)
  if (groupsBefore.some((name) => name.toLowerCase() === 'admin')) {
    throw apiError(409, 'An admin cannot be accredited as a professional: remove the admin group first.', { code: IS_ADMIN })
  }
  const now = new Date(clock())
  const fields = {
    profession: input.profession,
    registrationNumber: input.registrationNumber,
    pillars: input.pillars,
    languages: input.languages,
    priceCents: input.priceCents,
    accredited: true,
    updatedAt: now,
  }
  await db.transaction(async (tx) => {
    const before = await lockProfile(tx, user.id)
    const beforeGroups = await groupNamesOf(tx as unknown as Database, user.id)
    const [after] = await tx
      .insert(professionalProfiles)
      .values({ userId: user.id, ...fields, ...STARTING_SCHEDULE_RULES, availability: STARTING_AVAILABILITY, timeZone: user.timeZone })
      .onConflictDoUpdate({ target: professionalProfiles.userId, set: fields })
      .returning()
    const [professional] = await tx.select({ id: groups.id }).from(groups).where(eq(groups.name, 'profissional'))
    if (professional) await tx.insert(userGroups).values({ userId: user.id, groupId: professional.id }).onConflictDoNothing()
    const changed = changedFields(auditedProfile(before, beforeGroups), auditedProfile(after, await groupNamesOf(tx as unknown as Database, user.id)))
    if (changed.before === null) return
    await recordAudit(tx, {
      ...actorOf(caller),
      action: 'professional.accredit',
      targetType: 'user',
      targetId: user.id,
      subjectUserId: user.id,
      ...changed,
      at: now.getTime(),
    })
  })
}

/** What a revocation did: whether the user was accredited, how many appointments it cancelled, how many held times it let go. */
type Revocation = { revoked: boolean; cancelled: number; released: number }

/**
 * Revokes the accreditation: in one transaction the profile stops being bookable (the directory
 * no longer lists them), every future scheduled or confirmed appointment is cancelled as by the
 * professional (decisions 0044 and 0051: in full; a credit back or a refund written; both people
 * told, outside anyone's hourly bound), and `professional.revoke` is recorded with the reason and
 * the counts. Once committed, the refunds go to Stripe and each time still held for its payment
 * has its payment cancelled, which releases it (as its patient's cancel would). Not accredited:
 * nothing changes and nothing is recorded (a repeat is harmless). The user keeps their groups.
 */
export async function revokeAccreditation(services: Services, caller: Caller, user: UserRow, reason: string): Promise<Revocation> {
  const { db, clock, config } = services
  const now = clock()
  const cancelled: Cancelled[] = []
  const outcome = await db.transaction(async (tx) => {
    const profile = await lockProfile(tx, user.id)
    if (!profile?.accredited) return { revoked: false, held: [] as number[] }
    await tx.update(professionalProfiles).set({ accredited: false, updatedAt: new Date(now) }).where(eq(professionalProfiles.userId, user.id))
    // In order with bookings of this professional being written now: those committed are seen here.
    await lockBookingsOf(tx, user.id)
    const upcoming = await tx
      .select({ id: appointments.id, status: appointments.status, purchaseId: appointments.purchaseId })
      .from(appointments)
      .where(and(eq(appointments.professionalId, user.id), inArray(appointments.status, UPCOMING), gt(appointments.startTime, new Date(now))))
      .orderBy(asc(appointments.startTime), asc(appointments.id))
    for (const { id } of upcoming.filter((row) => row.status !== 'awaiting_payment')) {
      const view = await findAppointmentView(tx as unknown as Database, id)
      const done =
        view &&
        (await cancelOpenAppointment(
          tx,
          view,
          { by: 'professional', reason: ACCREDITATION_REVOKED_REASON, causedBy: null, now },
          { appPublicUrl: config.appPublicUrl, mail: config.mail },
        ))
      if (done) cancelled.push(done)
    }
    const held = upcoming.flatMap((row) => (row.status === 'awaiting_payment' && row.purchaseId !== null ? [row.purchaseId] : []))
    await recordAudit(tx, {
      ...actorOf(caller),
      action: 'professional.revoke',
      targetType: 'user',
      targetId: user.id,
      subjectUserId: user.id,
      before: { accredited: true },
      after: { accredited: false, cancelled_appointments: cancelled.length, ...(held.length > 0 && { held_times_released: held.length }) },
      reason,
      at: now,
    })
    return { revoked: true, held }
  })
  await afterCancellations(services, cancelled)
  for (const purchaseId of outcome.held) await releaseHeldTime(services, purchaseId)
  return { revoked: outcome.revoked, cancelled: cancelled.length, released: outcome.held.length }
}

/**
 * A time held for its payment, let go by cancelling that payment. Paid meanwhile, it is now a
 * scheduled appointment and is cancelled like the others; the payment service away, the hold ends
 * by itself within its 31 minutes (decision 0051), which is logged.
 */
async function releaseHeldTime(services: Services, purchaseId: number): Promise<void> {
  const { db, clock, config, log } = services
  const purchase = await findPurchase(db, purchaseId)
  if (!purchase) return
  try {
    await cancelPurchase(services, purchase)
    return
  } catch (error) {
    log({ level: 'warn', msg: 'the payment of a time held with a revoked professional was not cancelled', purchase_id: purchaseId, error: error instanceof Error ? error.message : String(error) })
  }
  const [row] = await db.select({ id: appointments.id }).from(appointments).where(and(eq(appointments.purchaseId, purchaseId), inArray(appointments.status, ['scheduled', 'confirmed'])))
  const view = row && (await findAppointmentView(db, row.id))
  if (!view) return
  const now = clock()
  const done = await db.transaction((tx) =>
    cancelOpenAppointment(tx, view, { by: 'professional', reason: ACCREDITATION_REVOKED_REASON, causedBy: null, now }, { appPublicUrl: config.appPublicUrl, mail: config.mail }),
  )
  if (done) await afterCancellations(services, [done])
}

