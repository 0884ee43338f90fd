import { z } from 'zod'
import { localized } from './product-schemas.ts'
import { paginated } from './schemas.ts'

/**
 * The admin's live classes as the provider answers them (decisions 0064 and 0067): a class with
 * its seats taken and its state, never its meeting's links; a draft as it was typed (any field
 * may be empty or absent). Unknown extra fields are ignored.
 */

const instant = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'an instant')
const nullable = <Schema extends z.ZodType>(schema: Schema) => schema.nullable().optional().transform((value) => value ?? null)
const draftText = z
  .object({ pt: z.string().optional(), en: z.string().optional(), es: z.string().optional() })
  .optional()
  .transform((text) => ({ pt: text?.pt ?? '', en: text?.en ?? '', es: text?.es ?? '' }))

const ADMIN_CLASS_STATES = ['scheduled', 'started', 'cancelled'] as const

export const adminClassSchema = z.object({
  id: z.number().int().positive(),
  slug: z.string(),
  pillar: z.string(),
  title: localized,
  description: localized,
  teacher: z.object({ id: z.number().int(), first_name: z.string(), last_name: z.string() }),
  starts_at: instant,
  ends_at: instant,
  duration_minutes: z.number().int(),
  seats: z.number().int(),
  seats_taken: z.number().int(),
  access: z.enum(['free', 'members']),
  state: z.enum(ADMIN_CLASS_STATES),
  cancelled_at: instant.nullable(),
  has_meeting: z.boolean(),
})
export type AdminClass = z.infer<typeof adminClassSchema>

export const classDraftSchema = z.object({
  title: draftText,
  description: draftText,
  pillar: nullable(z.string()),
  teacher_id: nullable(z.number().int()),
  starts_at: nullable(instant),
  duration_minutes: nullable(z.number().int()),
  seats: nullable(z.number().int()),
  access: nullable(z.enum(['free', 'members'])),
  updated_at: instant,
})
export type ClassDraft = z.infer<typeof classDraftSchema>

export const adminClassPageSchema = paginated(adminClassSchema.extend({ draft: z.object({ updated_at: instant }).nullable() })).extend({
  new_drafts: z.array(classDraftSchema.extend({ key: z.string() })),
})

export const adminClassDetailSchema = z.object({ published: adminClassSchema.nullable(), draft: classDraftSchema.nullable() })

export const scheduleAnswerSchema = adminClassSchema.extend({ notified: z.number().int(), meeting_updated: z.boolean().nullable() })
export const cancelAnswerSchema = adminClassSchema.extend({ notified: z.number().int(), meeting_deleted: z.boolean().nullable() })
