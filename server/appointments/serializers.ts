import { WEEKDAYS, type WeeklyAvailability } from '#server/db/schema.ts'
import { photoUrl } from '#server/users/serializers.ts'
import type { DateException, ScheduleRules } from '#server/appointments/free-times.ts'
import type { serializeCancellationQuote } from '#server/appointments/paid.ts'
import type { AppointmentView, ProfileRow, UserRow } from '#server/appointments/repository.ts'

/** The JSON shapes of decision 0023. Every instant is UTC ISO 8601 with "Z". */
const instant = (value: Date | number) => new Date(value).toISOString()

/** A directory item (GET /appointments/professionals/). */
export function serializeBookableProfessional(user: UserRow, profile: ProfileRow, nextFreeTime: number | undefined, photoBase: string) {
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    photo: photoUrl(photoBase, user.photoName),
    profession: profile.profession,
    registration_number: profile.registrationNumber,
    pillars: profile.pillars,
    languages: profile.languages,
    bio: user.bio,
    consultation_minutes: profile.consultationMinutes,
    price_cents: profile.priceCents,
    currency: 'BRL',
    time_zone: profile.timeZone,
    next_free_time: nextFreeTime === undefined ? null : instant(nextFreeTime),
  }
}

/**
 * `careTeam`: the caller is the appointment's professional or an admin, who also read the private
 * notes. `cancellation`: what cancelling it now would give back, for the caller (decision 0051).
 */
export function serializeAppointment(
  view: AppointmentView,
  photoBase: string,
  { careTeam = false, cancellation = null }: { careTeam?: boolean; cancellation?: ReturnType<typeof serializeCancellationQuote> | null } = {},
) {
  const { appointment, professional, profile, patient, purchase } = view
  const awaiting = appointment.status === 'awaiting_payment'
  return {
    id: appointment.id,
    status: appointment.status,
    start_time: instant(appointment.startTime),
    end_time: instant(appointment.endTime),
    time_zone: profile?.timeZone ?? professional.timeZone,
    notes: appointment.notes,
    shared_notes: appointment.sharedNotes,
    ...(careTeam ? { private_notes: appointment.privateNotes } : {}),
    professional: {
      id: professional.id,
      first_name: professional.firstName,
      last_name: professional.lastName,
      photo: photoUrl(photoBase, professional.photoName),
      profession: profile?.profession ?? '',
      registration_number: profile?.registrationNumber ?? '',
    },
    patient: { id: patient.id, first_name: patient.firstName, last_name: patient.lastName },
    payment_reference: appointment.paymentReference,
    // A paid consultation (decision 0051): its price as booked (null: free) and how it is paid.
    price_cents: appointment.priceCents,
    payment: appointment.priceCents === null
      ? null
      : {
          kind: appointment.creditId !== null ? 'credit' : 'purchase',
          purchase_id: appointment.purchaseId,
          method: purchase?.method ?? null,
          status: purchase?.status ?? null,
          // While the time is held: until when, and the card's payment page (a PIX code is on the purchase's page).
          hold_expires_at: awaiting && appointment.holdExpiresAt ? instant(appointment.holdExpiresAt) : null,
          checkout_url: awaiting && purchase?.method === 'card' ? purchase.checkoutUrl : null,
        },
    cancellation,
    created_at: instant(appointment.createdAt),
    cancelled_at: appointment.cancelledAt ? instant(appointment.cancelledAt) : null,
    cancelled_by: appointment.cancelledBy,
    refund: appointment.refund,
  }
}

/** The availability in weekday order, every day present. */
function serializeAvailability(availability: WeeklyAvailability) {
  return Object.fromEntries(
    WEEKDAYS.map((day) => [day, { enabled: availability[day]?.enabled ?? false, slots: (availability[day]?.slots ?? []).map(({ start, end }) => ({ start, end })) }]),
  ) as WeeklyAvailability
}

export function serializeSchedule(rules: ScheduleRules, exceptions: DateException[]) {
  return {
    time_zone: rules.timeZone,
    consultation_minutes: rules.consultationMinutes,
    buffer_minutes: rules.bufferMinutes,
    minimum_notice_hours: rules.minimumNoticeHours,
    horizon_days: rules.horizonDays,
    availability: serializeAvailability(rules.availability),
    exceptions: exceptions.map(({ date, slots }) => ({ date, slots: slots.map(({ start, end }) => ({ start, end })) })),
  }
}
