import { z } from 'zod'
import { refundDeadlineSchema } from './purchase-schemas.ts'
import { optionalUrl, paginated, text } from './schemas.ts'

/**
 * The appointment shapes of docs/decisions/0023-appointments-api.md, as the provider sends them.
 * Instants cross the wire in UTC with a `Z`; the app converts them to wall times in
 * app/domain/appointments.ts only.
 */

/** An ISO 8601 instant in UTC (`2026-12-01T12:00:00.000Z`). */
export const INSTANT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?Z$/
/** A calendar date (YYYY-MM-DD). */
const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/
export const instant = () => z.string().regex(INSTANT_PATTERN).refine((value) => !Number.isNaN(Date.parse(value)))


export const appointmentStatuses = ['awaiting_payment', 'scheduled', 'confirmed', 'completed', 'cancelled', 'no_show'] as const
export type AppointmentStatus = (typeof appointmentStatuses)[number]

/** A directory entry: an accredited professional with a schedule. */
export const bookableProfessionalSchema = z.object({
  id: z.number(),
  first_name: text(),
  last_name: text(),
  photo: optionalUrl(),
  profession: text(),
  registration_number: text(),
  pillars: z.array(z.string()).default([]),
  languages: z.array(z.string()).default([]),
  bio: text(),
  consultation_minutes: z.number().int().positive(),
  price_cents: z.number().int().nonnegative(),
  currency: z.string().default('BRL'),
  time_zone: z.string(),
  next_free_time: instant().nullable().optional().transform((value) => value ?? null),
})
export type BookableProfessional = z.infer<typeof bookableProfessionalSchema>

const slotSchema = z.object({ start: instant(), end: instant() })

export const availabilitySchema = z.object({
  professional_id: z.number(),
  /** The professional's directory entry, so the booking page needs no second call. */
  professional: bookableProfessionalSchema.optional(),
  time_zone: z.string(),
  consultation_minutes: z.number().int().positive(),
  /** Asked in a zone (the patient's): every date with free times and its count… */
  days: z
    .array(z.object({ date: z.string().regex(ISO_DATE_PATTERN), count: z.number().int().positive() }))
    .max(100)
    .optional(),
  /** …the date whose times `slots` holds (the one asked for when it has some, else the first). */
  date: z.string().regex(ISO_DATE_PATTERN).nullable().optional(),
  slots: z.array(slotSchema),
  /** The patient's unused consultation credits that book this professional (decision 0051). */
  credits_available: z.number().int().nonnegative().optional(),
})
export type Availability = z.infer<typeof availabilitySchema>

export const appointmentSchema = z.object({
  id: z.number(),
  status: z.enum(appointmentStatuses),
  start_time: instant(),
  end_time: instant(),
  /** The professional's. */
  time_zone: z.string(),
  notes: text(),
  shared_notes: text(),
  /** The professional's own notes: only their professional and admins get them. */
  private_notes: text().optional(),
  professional: z.object({
    id: z.number(),
    first_name: text(),
    last_name: text(),
    photo: optionalUrl(),
    profession: text(),
    registration_number: text(),
  }),
  patient: z.object({ id: z.number(), first_name: text(), last_name: text() }),
  payment_reference: z.string().nullable().optional().transform((value) => value ?? null),
  /** A paid consultation (decision 0051): its price as booked; null when it is free. */
  price_cents: z.number().int().nonnegative().nullable().optional().transform((value) => value ?? null),
  /** How it is paid: a package's credit, or its own purchase (while held: until when, and a card's page). */
  payment: z
    .object({
      kind: z.enum(['credit', 'purchase']),
      purchase_id: z.number().int().positive().nullable(),
      method: z.enum(['pix', 'card']).nullable(),
      status: z.string().nullable(),
      hold_expires_at: instant().nullable(),
      checkout_url: z.string().url().nullable(),
    })
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  /** What cancelling it now would give back to the caller; null when nothing paid is at stake. */
  cancellation: z
    .object({ refund_cents: z.number().int().nonnegative(), reason: z.string(), credit_returned: z.boolean(), deadline: refundDeadlineSchema })
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  created_at: z.string(),
  cancelled_at: z.string().nullable().optional().transform((value) => value ?? null),
  cancelled_by: z.enum(['patient', 'professional', 'admin']).nullable().optional().transform((value) => value ?? null),
  refund: z.enum(['full', 'none']).nullable().optional().transform((value) => value ?? null),
})
export type Appointment = z.infer<typeof appointmentSchema>

export const appointmentPageSchema = paginated(appointmentSchema)

export const consultationSchema = z.object({
  appointment_id: z.number(),
  status: z.enum(appointmentStatuses),
  opens_at: instant(),
  closes_at: instant(),
  is_open: z.boolean(),
  meeting_link: z.string().nullable().optional().transform((value) => value ?? null),
  shared_notes: text(),
})

export const professionalDashboardSchema = z.object({
  time_zone: z.string(),
  start: z.string(),
  end: z.string(),
  appointments: z.array(appointmentSchema),
  /** At most 500 come (decision 0032): true when some cancelled ones were left out. */
  truncated: z.boolean().optional(),
  /** The Google Calendar's state (decision 0025), so the dashboard needs no second call to know it. */
  calendar: z.object({ calendar_enabled: z.boolean(), token_valid: z.boolean() }).optional(),
})
