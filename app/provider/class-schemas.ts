import { z } from 'zod'
import { localized } from './product-schemas.ts'
import { paginated } from './schemas.ts'

/**
 * Live classes as the provider answers them (docs/decisions/0058-live-classes.md, "API"). Never a
 * meeting link in a session; the join call's answer carries it. Unknown extra fields are ignored.
 */

const id = z.number().int().positive()
const instant = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'an instant')

const LIVE_CLASS_ACCESS = ['free', 'members'] as const

export const liveClassSchema = z.object({
  id,
  slug: z.string(),
  pillar: z.string(),
  pillar_id: z.number().int().nullable().optional(),
  title: localized,
  description: localized,
  teacher: z.object({
    id,
    first_name: z.string(),
    last_name: z.string(),
    photo: z.string().nullable().optional().transform((value) => value ?? null),
    profession: z.string().nullable().optional().transform((value) => value ?? ''),
  }),
  starts_at: instant,
  ends_at: instant,
  duration_minutes: z.number().int().positive(),
  seats: z.number().int().nonnegative(),
  seats_left: z.number().int().nonnegative(),
  access: z.enum(LIVE_CLASS_ACCESS),
  /** The caller may ask for the meeting's link now (inside the window, with access). */
  can_join_now: z.boolean(),
  join_opens_at: instant,
  /** The caller holds a seat. */
  reserved: z.boolean(),
  /** The caller has no access (a members' class without a plan or a program). */
  locked: z.boolean(),
  cancelled: z.boolean(),
})
export type LiveClass = z.infer<typeof liveClassSchema>

export const liveClassPageSchema = paginated(liveClassSchema)

/** The meeting's link, inside the window; the class's teacher also gets the host's. */
export const joinAnswerSchema = z.object({
  join_url: z.string(),
  opens_at: instant,
  closes_at: instant,
  start_url: z.string().optional(),
})
