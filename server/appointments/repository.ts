import { type AnyColumn, and, asc, count, desc, eq, gt, gte, inArray, lt, lte, ne, notInArray, or, sql, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { mayCountAsBusy } from '#server/calendar/busy-time.ts'
import type { Database, Writer } from '#server/db/client.ts'
import { preparedQuery } from '#server/db/prepared.ts'
import {
  appointments,
  calendarEvents,
  consultationCredits,
  groups,
  professionalPatients,
  professionalProfiles,
  purchases,
  scheduleExceptions,
  type AppointmentStatus,
  type PurchaseMethod,
  type PurchaseStatus,
  userGroups,
  users,
} from '#server/db/schema.ts'
import type { Booking, DateException } from '#server/appointments/free-times.ts'
import { scheduleBookingMessages } from '#server/appointments/reminders.ts'
import type { ScheduleInput } from '#server/appointments/schedule.ts'

export type ProfileRow = typeof professionalProfiles.$inferSelect
export type AppointmentRow = typeof appointments.$inferSelect
export type UserRow = typeof users.$inferSelect
type ProfessionalWithProfile = { user: UserRow; profile: ProfileRow }

/** Active, in the profissional group, with an accredited profile: who patients may book. */
const bookable = and(
  eq(users.isActive, true),
  eq(professionalProfiles.accredited, true),
  sql`exists (select 1 from ${userGroups} inner join ${groups} on ${groups.id} = ${userGroups.groupId} where ${userGroups.userId} = ${users.id} and ${groups.name} = 'profissional')`,
)

/** The booking directory, by name; `pillar` keeps those who work with it. */
export async function bookableProfessionals(db: Database, pillar?: string): Promise<ProfessionalWithProfile[]> {
  return db
    .select({ user: users, profile: professionalProfiles })
    .from(professionalProfiles)
    .innerJoin(users, eq(users.id, professionalProfiles.userId))
    .where(and(bookable, pillar ? sql`${professionalProfiles.pillars} @> ${JSON.stringify([pillar])}::jsonb` : undefined))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id))
}

// The booking page's reads (one professional's profile, exceptions and bookings) run on every
// visit and every booking: prepared once per database, like the session lookup.
const bookableProfessionalQuery = preparedQuery((db) =>
  db
    .select({ user: users, profile: professionalProfiles })
    .from(professionalProfiles)
    .innerJoin(users, eq(users.id, professionalProfiles.userId))
    .where(and(eq(professionalProfiles.userId, sql.placeholder('id')), bookable))
    .prepare('bookable_professional'),
)

export async function findBookableProfessional(db: Database, id: number): Promise<ProfessionalWithProfile | undefined> {
  const [row] = await bookableProfessionalQuery(db).execute({ id })
  return row
}

/** A stored Google event as the free-time rules see it (server/calendar/busy-time.ts decides which block). */
type CalendarEventTime = {
  status: string
  transparency: string
  selfResponseStatus: string | null
  inneraAppointmentId: number | null
  start: number
  end: number
}

const epochMs = (column: SQL | AnyColumn) => sql`(extract(epoch from ${column}) * 1000)::float8`

// The free-time rules of one professional, each a subquery of one table (so drizzle's column
// names, qualified or not, are unambiguous), keyed by the placeholders `id` and `from`.
const rulesColumns = {
  exceptions: sql<DateException[] | null>`(select json_agg(json_build_object('date', ${scheduleExceptions.date}, 'slots', ${scheduleExceptions.slots}) order by ${scheduleExceptions.date})
    from ${scheduleExceptions} where ${scheduleExceptions.professionalId} = ${sql.placeholder('id')})`,
  booked: sql<Booking[] | null>`(select json_agg(json_build_object('id', ${appointments.id}, 'start', ${epochMs(appointments.startTime)}, 'blockedUntil', ${epochMs(appointments.blockedUntil)}))
    from ${appointments} where ${appointments.professionalId} = ${sql.placeholder('id')} and ${appointments.status} <> 'cancelled' and ${appointments.blockedUntil} > ${sql.placeholder('from')})`,
  events: sql<CalendarEventTime[] | null>`(select json_agg(json_build_object('status', ${calendarEvents.status}, 'transparency', ${calendarEvents.transparency}, 'selfResponseStatus', ${calendarEvents.selfResponseStatus},
      'inneraAppointmentId', ${calendarEvents.inneraAppointmentId}, 'start', ${epochMs(calendarEvents.startAt)}, 'end', ${epochMs(calendarEvents.endAt)}))
    from ${calendarEvents} where ${calendarEvents.userId} = ${sql.placeholder('id')} and ${calendarEvents.endAt} > ${sql.placeholder('from')} and ${mayCountAsBusy})`,
}

type BookingRules = { exceptions: DateException[]; booked: Booking[]; events: CalendarEventTime[] }
const rulesOfRow = (row: { exceptions: DateException[] | null; booked: Booking[] | null; events: CalendarEventTime[] | null } | undefined): BookingRules => ({
  exceptions: row?.exceptions ?? [],
  booked: row?.booked ?? [],
  events: row?.events ?? [],
})

// Each booking and reschedule reads them (three reads before, one now). Prepared once per database.
const bookingRulesQuery = preparedQuery((db) => db.select(rulesColumns).from(sql`(select 1) as one`).prepare('professional_booking_rules'))

/**
 * One professional's date exceptions (by date), live bookings still blocking time after `from`,
 * and stored Google events still running after `from`, in one read.
 */
export async function bookingRulesOf(db: Database, professionalId: number, from: number): Promise<BookingRules> {
  const [row] = await bookingRulesQuery(db).execute({ id: professionalId, from: new Date(from).toISOString() })
  return rulesOfRow(row)
}

// The booking page's read, on every visit: the professional (when bookable) and their rules in one statement.
const bookableProfessionalRulesQuery = preparedQuery((db) =>
  db
    .select({ user: users, profile: professionalProfiles, ...rulesColumns })
    .from(professionalProfiles)
    .innerJoin(users, eq(users.id, professionalProfiles.userId))
    .where(and(eq(professionalProfiles.userId, sql.placeholder('id')), bookable))
    .prepare('bookable_professional_rules'),
)

/** A bookable professional with their free-time rules from `from` on (undefined when not bookable). */
export async function findBookableProfessionalWithRules(db: Database, id: number, from: number): Promise<(ProfessionalWithProfile & { rules: BookingRules }) | undefined> {
  const [row] = await bookableProfessionalRulesQuery(db).execute({ id, from: new Date(from).toISOString() })
  return row ? { user: row.user, profile: row.profile, rules: rulesOfRow(row) } : undefined
}

const profileQuery = preparedQuery((db) => db.select().from(professionalProfiles).where(eq(professionalProfiles.userId, sql.placeholder('id'))).prepare('professional_profile'))

export async function findProfile(db: Database, userId: number): Promise<ProfileRow | undefined> {
  const [row] = await profileQuery(db).execute({ id: userId })
  return row
}

/** Date exceptions per professional, by date. */
export async function exceptionsOf(db: Database, professionalIds: number[]): Promise<Map<number, DateException[]>> {
  const result = new Map<number, DateException[]>(professionalIds.map((id) => [id, []]))
  if (professionalIds.length === 0) return result
  const rows = await db
    .select()
    .from(scheduleExceptions)
    .where(inArray(scheduleExceptions.professionalId, professionalIds))
    .orderBy(asc(scheduleExceptions.date))
  for (const row of rows) result.get(row.professionalId)?.push({ date: row.date, slots: row.slots })
  return result
}

/** Live (not cancelled) appointments per professional still blocking time after `from`. */
export async function bookingsOf(db: Database, professionalIds: number[], from: number): Promise<Map<number, Booking[]>> {
  const result = new Map<number, Booking[]>(professionalIds.map((id) => [id, []]))
  if (professionalIds.length === 0) return result
  const rows = await db
    .select({ id: appointments.id, professionalId: appointments.professionalId, start: appointments.startTime, blockedUntil: appointments.blockedUntil })
    .from(appointments)
    .where(and(inArray(appointments.professionalId, professionalIds), ne(appointments.status, 'cancelled'), gt(appointments.blockedUntil, new Date(from))))
  for (const row of rows) result.get(row.professionalId)?.push({ id: row.id, start: row.start.getTime(), blockedUntil: row.blockedUntil.getTime() })
  return result
}

/** Replaces a professional's schedule whole (creating the profile on first save), in one transaction. */
export async function saveSchedule(db: Database, userId: number, schedule: ScheduleInput, now: Date): Promise<void> {
  const rules = {
    timeZone: schedule.timeZone,
    consultationMinutes: schedule.consultationMinutes,
    bufferMinutes: schedule.bufferMinutes,
    minimumNoticeHours: schedule.minimumNoticeHours,
    horizonDays: schedule.horizonDays,
    availability: schedule.availability,
    updatedAt: now,
  }
  await db.transaction(async (tx) => {
    await tx
      .insert(professionalProfiles)
      .values({ userId, ...rules })
      .onConflictDoUpdate({ target: professionalProfiles.userId, set: rules })
    await tx.delete(scheduleExceptions).where(eq(scheduleExceptions.professionalId, userId))
    if (schedule.exceptions.length > 0) {
      await tx.insert(scheduleExceptions).values(schedule.exceptions.map((exception) => ({ professionalId: userId, date: exception.date, slots: exception.slots })))
    }
  })
}

const professionalUser = alias(users, 'professional_user')
const patientUser = alias(users, 'patient_user')
const creditPurchase = alias(purchases, 'credit_purchase')

/** An appointment with what its JSON shows of the professional (and their profile) and the patient. */
export type AppointmentView = {
  appointment: AppointmentRow
  professional: { id: number; firstName: string; lastName: string; photoName: string | null; timeZone: string }
  profile: { profession: string; registrationNumber: string; timeZone: string } | null
  patient: { id: number; firstName: string; lastName: string }
  /** The purchase that pays it (decision 0051), if any. */
  purchase: { method: PurchaseMethod; status: PurchaseStatus; totalCents: number; paidAt: Date | null; checkoutUrl: string | null } | null
  /** The package credit it used: when that package was paid (the query also reads the credit's id, so the object is there whenever a credit is). */
  credit: { packagePaidAt: Date | null } | null
}

function selectViews(db: Database) {
  return db
    .select({
      appointment: appointments,
      professional: {
        id: professionalUser.id,
        firstName: professionalUser.firstName,
        lastName: professionalUser.lastName,
        photoName: professionalUser.photoName,
        timeZone: professionalUser.timeZone,
      },
      profile: {
        profession: professionalProfiles.profession,
        registrationNumber: professionalProfiles.registrationNumber,
        timeZone: professionalProfiles.timeZone,
      },
      patient: { id: patientUser.id, firstName: patientUser.firstName, lastName: patientUser.lastName },
      purchase: { method: purchases.method, status: purchases.status, totalCents: purchases.totalCents, paidAt: purchases.paidAt, checkoutUrl: purchases.checkoutUrl },
      credit: { id: consultationCredits.id, packagePaidAt: creditPurchase.paidAt },
    })
    .from(appointments)
    .innerJoin(professionalUser, eq(professionalUser.id, appointments.professionalId))
    .innerJoin(patientUser, eq(patientUser.id, appointments.patientId))
    .leftJoin(professionalProfiles, eq(professionalProfiles.userId, appointments.professionalId))
    .leftJoin(purchases, eq(purchases.id, appointments.purchaseId))
    .leftJoin(consultationCredits, eq(consultationCredits.id, appointments.creditId))
    .leftJoin(creditPurchase, eq(creditPurchase.id, consultationCredits.purchaseId))
}

export async function findAppointmentView(db: Database, id: number): Promise<AppointmentView | undefined> {
  const [row] = await selectViews(db).where(eq(appointments.id, id))
  return row
}

type NewAppointment = typeof appointments.$inferInsert

/** The advisory-lock class of a professional's bookings (the other key is the professional's id). */
const BOOKINGS_LOCK = 0x1ab0

/**
 * Orders the writes of one professional's bookings, across requests and processes, until the
 * transaction ends. The exclusion constraint still decides what may be booked; but two overlapping
 * inserts in flight at once each wait for the other's check, and PostgreSQL then aborts one as a
 * deadlock (a 500) instead of refusing it as an overlap (the 409). In order, the second one sees
 * the first one's row and is refused.
 */
export async function lockBookingsOf(tx: Pick<Database, 'execute'>, professionalId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${BOOKINGS_LOCK}::int, ${professionalId}::int)`)
}

/** The advisory-lock class of a patient's bookings (the other key is the patient's id). */
const PATIENT_BOOKINGS_LOCK = 0x1ab1

/**
 * Orders one patient's bookings, across requests and processes, until the transaction ends: the
 * count of their upcoming appointments read after it stays true until the insert commits, so
 * parallel requests (from several processes) cannot book past the limits. Taken after the
 * professional's lock, always in that order, so two transactions never wait for each other.
 */
async function lockPatientBookingsOf(tx: Pick<Database, 'execute'>, patientId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${PATIENT_BOOKINGS_LOCK}::int, ${patientId}::int)`)
}

/** How many appointments a patient may hold ahead (decision 0034). */
type BookingLimits = { maxUpcomingPerProfessional: number; maxUpcoming: number }
/** Which limit a booking would pass, and its value. */
export type LimitReached = { limit: 'professional' | 'total'; max: number }

/** Upcoming: held for its payment, scheduled or confirmed, not yet started (a held time counts: decision 0051). */
const upcomingOf = (patientId: number, now: Date) =>
  and(eq(appointments.patientId, patientId), inArray(appointments.status, ['awaiting_payment', 'scheduled', 'confirmed']), gt(appointments.startTime, now))

/** The limit a new booking of `professionalId` by `patientId` would pass now, if any. */
export async function upcomingLimitReached(
  db: Pick<Database, 'select'>,
  { patientId, professionalId, now, limits }: { patientId: number; professionalId: number; now: Date; limits: BookingLimits },
): Promise<LimitReached | undefined> {
  const [row] = await db
    .select({ total: count(), withProfessional: sql<number>`count(*) filter (where ${appointments.professionalId} = ${professionalId})`.mapWith(Number) })
    .from(appointments)
    .where(upcomingOf(patientId, now))
  if ((row?.withProfessional ?? 0) >= limits.maxUpcomingPerProfessional) return { limit: 'professional', max: limits.maxUpcomingPerProfessional }
  if (Number(row?.total ?? 0) >= limits.maxUpcoming) return { limit: 'total', max: limits.maxUpcoming }
  return undefined
}

type BookingOutcome = { created: AppointmentRow } | { existing: AppointmentRow } | LimitReached

/** The patient's appointment booked with this idempotency key, if any (decision 0034). */
export async function findAppointmentByKey(db: Pick<Database, 'select'>, patientId: number, key: string): Promise<AppointmentRow | undefined> {
  const [row] = await db
    .select()
    .from(appointments)
    .where(and(eq(appointments.patientId, patientId), eq(appointments.idempotencyKey, key)))
  return row
}

/**
 * Books: the appointment (the exclusion constraint refuses an overlap), the care relationship
 * it creates, so the professional lists the patient and may read what they share (docs/product.md §6), and
 * its confirmation and reminders (reminders.ts), all or nothing. The patient's upcoming
 * appointments are counted under their lock: past a limit, nothing is written. A booking whose
 * idempotency key the patient already used is that appointment (`existing`): under the same lock
 * a repeat waits for the first to commit and then finds it; the unique index is the last word.
 */
export async function insertAppointment(
  db: Database,
  values: NewAppointment,
  now: Date,
  limits: BookingLimits,
  /** How it is paid, decided in the same transaction (a package credit used, a purchase written): its columns. */
  payWith?: (tx: Writer) => Promise<Partial<NewAppointment>>,
): Promise<BookingOutcome> {
  return db.transaction(async (tx) => {
    await lockBookingsOf(tx, values.professionalId)
    await lockPatientBookingsOf(tx, values.patientId)
    const existing = values.idempotencyKey ? await findAppointmentByKey(tx, values.patientId, values.idempotencyKey) : undefined
    if (existing) return { existing }
    const reached = await upcomingLimitReached(tx, { patientId: values.patientId, professionalId: values.professionalId, now, limits })
    if (reached) return reached
    const payment = payWith ? await payWith(tx) : {}
    const [row] = await tx
      .insert(appointments)
      .values({ ...values, ...payment })
      .returning()
    await tx.insert(professionalPatients).values({ professionalId: values.professionalId, patientId: values.patientId }).onConflictDoNothing()
    // A held time is told of once it is paid (holds.ts).
    if (row!.status !== 'awaiting_payment') await scheduleBookingMessages(tx, row!, now)
    return { created: row! }
  })
}

/** Whose appointments a list shows: a patient's, a professional's, or everyone's (admin). */
export type AppointmentScope = { patientId: number; professionalId?: number } | { professionalId: number; patientId?: number } | 'all'
export type AppointmentPeriod = 'upcoming' | 'past' | undefined
/** A list's narrower filters (an admin reading a professional's schedule for support): starts in [from, to), one status. */
export type AppointmentFilters = { from?: Date; to?: Date; status?: AppointmentStatus }

function listFilter(scope: AppointmentScope, period: AppointmentPeriod, now: Date, { from, to, status }: AppointmentFilters = {}): SQL | undefined {
  const owner =
    scope === 'all'
      ? undefined
      : and(
          scope.patientId !== undefined ? eq(appointments.patientId, scope.patientId) : undefined,
          scope.professionalId !== undefined ? eq(appointments.professionalId, scope.professionalId) : undefined,
        )
  // Upcoming: not ended and not cancelled. Past: everything else.
  const upcoming = and(gt(appointments.endTime, now), ne(appointments.status, 'cancelled'))
  const past = or(lte(appointments.endTime, now), eq(appointments.status, 'cancelled'))
  return and(
    owner,
    period === 'upcoming' ? upcoming : period === 'past' ? past : undefined,
    from ? gte(appointments.startTime, from) : undefined,
    to ? lt(appointments.startTime, to) : undefined,
    status ? eq(appointments.status, status) : undefined,
  )
}

export async function countAppointments(db: Database, scope: AppointmentScope, period: AppointmentPeriod, now: Date, filters?: AppointmentFilters): Promise<number> {
  const [row] = await db.select({ total: count() }).from(appointments).where(listFilter(scope, period, now, filters))
  return Number(row?.total ?? 0)
}

/** A page of a list: upcoming soonest first; past (and the unfiltered list) latest first. */
export async function listAppointmentViews(
  db: Database,
  scope: AppointmentScope,
  period: AppointmentPeriod,
  now: Date,
  page: { limit: number; offset: number },
  filters?: AppointmentFilters,
): Promise<AppointmentView[]> {
  const order = period === 'upcoming' ? [asc(appointments.startTime), asc(appointments.id)] : [desc(appointments.startTime), desc(appointments.id)]
  return selectViews(db)
    .where(listFilter(scope, period, now, filters))
    .orderBy(...order)
    .limit(page.limit)
    .offset(page.offset)
}

/**
 * The most appointments one agenda read answers. Live ones cannot overlap (the exclusion
 * constraint), but cancelled ones can pile up on the same times, one per booking and cancellation:
 * past this many, the cancelled ones are left out first.
 */
const MAX_AGENDA_APPOINTMENTS = 500

// The professional's week: their /dashboard reads it on every visit. Live ones first, so a
// pile of cancelled ones is what the limit cuts; one more than the limit tells it cut.
const professionalWeekQuery = preparedQuery((db) =>
  selectViews(db)
    .where(and(eq(appointments.professionalId, sql.placeholder('id')), gte(appointments.startTime, sql.placeholder('from')), lt(appointments.startTime, sql.placeholder('to'))))
    .orderBy(sql`${appointments.status} = 'cancelled'`, asc(appointments.startTime), asc(appointments.id))
    .limit(MAX_AGENDA_APPOINTMENTS + 1)
    .prepare('professional_week'),
)

/**
 * A professional's appointments starting in [from, to), cancelled ones included, in order; at
 * most MAX_AGENDA_APPOINTMENTS (`truncated` when some cancelled ones, or in theory later live ones, were left out).
 */
export async function professionalAppointmentViews(db: Database, professionalId: number, from: Date, to: Date): Promise<{ views: AppointmentView[]; truncated: boolean }> {
  const rows = await professionalWeekQuery(db).execute({ id: professionalId, from: from.toISOString(), to: to.toISOString() })
  const views = rows.slice(0, MAX_AGENDA_APPOINTMENTS)
  views.sort((a, b) => a.appointment.startTime.getTime() - b.appointment.startTime.getTime() || a.appointment.id - b.appointment.id)
  return { views, truncated: rows.length > MAX_AGENDA_APPOINTMENTS }
}

/** Statuses after which an appointment cannot be moved or cancelled. */
const CLOSED_STATUSES: AppointmentStatus[] = ['cancelled', 'completed', 'no_show']

/**
 * Updates an appointment only while it is still open (not cancelled, completed or no-show, not
 * started at `now`): a concurrent cancel or a clock passing the start cannot be overwritten.
 * With `changes.rescheduleKey`, only if that reschedule has not already moved it (a repeat, even
 * one racing the first, changes nothing). Undefined when that no longer holds.
 */
export async function updateOpenAppointment(db: Pick<Database, 'update'>, id: number, now: Date, changes: Partial<NewAppointment>): Promise<AppointmentRow | undefined> {
  const [row] = await db
    .update(appointments)
    .set({ ...changes, updatedAt: now })
    .where(
      and(
        eq(appointments.id, id),
        notInArray(appointments.status, CLOSED_STATUSES),
        gt(appointments.startTime, now),
        changes.rescheduleKey ? sql`${appointments.rescheduleKey} is distinct from ${changes.rescheduleKey}` : undefined,
      ),
    )
    .returning()
  return row
}

export async function updateAppointment(db: Database, id: number, changes: Partial<NewAppointment>, now: Date): Promise<void> {
  await db
    .update(appointments)
    .set({ ...changes, updatedAt: now })
    .where(eq(appointments.id, id))
}

export async function deleteAppointment(db: Database, id: number): Promise<boolean> {
  const deleted = await db.delete(appointments).where(eq(appointments.id, id)).returning({ id: appointments.id })
  return deleted.length > 0
}
