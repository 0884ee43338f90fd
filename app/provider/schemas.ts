import { z } from 'zod'

/** The signed-in user of SPEC §3, as /users/me/ returns it. */
export const sessionUserSchema = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  groups: z.array(z.string()),
  photo: z.string().nullable().optional().transform((value) => value ?? null),
  first_name: z.string().nullable().optional().transform((value) => value ?? ''),
  last_name: z.string().nullable().optional().transform((value) => value ?? ''),
})
export type SessionUser = z.infer<typeof sessionUserSchema>

const localizedText = z.object({ pt: z.string(), en: z.string(), es: z.string() })

export const pillarSchema = z.object({
  id: z.number(),
  slug: z.string(),
  order: z.number(),
  icon: z.string(),
  position: z.enum(['left', 'right']),
  name: localizedText,
  description: localizedText,
})
export type Pillar = z.infer<typeof pillarSchema>
export const pillarListSchema = z.array(pillarSchema)

export const loginResponseSchema = z.object({
  access: z.string().min(1),
  refresh: z.string().min(1),
  user_id: z.number(),
  username: z.string(),
  email: z.string(),
  groups: z.array(z.string()),
  photo: z.string().nullable().optional().transform((value) => value ?? null),
  first_name: z.string().nullable().optional().transform((value) => value ?? ''),
  last_name: z.string().nullable().optional().transform((value) => value ?? ''),
})

/** The refresh response is checked by hand: a missing access has its own SPEC §8 message. */
export const refreshResponseSchema = z.object({ access: z.string().optional() }).passthrough()

export const googleLoginResponseSchema = z.object({
  success: z.boolean(),
  tokens: z.object({ access: z.string(), refresh: z.string() }).optional(),
  user: z
    .object({
      id: z.number(),
      email: z.string(),
      username: z.string(),
      first_name: z.string().nullable().optional().transform((value) => value ?? ''),
      last_name: z.string().nullable().optional().transform((value) => value ?? ''),
      groups: z.array(z.string()),
      photo: z.string().nullable().optional().transform((value) => value ?? null),
    })
    .optional(),
  message: z.string().optional(),
  is_new_user: z.boolean().optional(),
})

export const detailSchema = z.object({ detail: z.string().optional() }).passthrough()

export const profileSchema = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  first_name: z.string().nullable().transform((value) => value ?? ''),
  last_name: z.string().nullable().transform((value) => value ?? ''),
  photo: z.string().nullable().optional().transform((value) => value ?? null),
  phone: z.string().nullable().optional().transform((value) => value ?? ''),
  birth_date: z.string().nullable().optional().transform((value) => value ?? ''),
  bio: z.string().nullable().optional().transform((value) => value ?? ''),
  groups: z.array(z.string()),
  email_verified: z.boolean().optional(),
  date_joined: z.string().optional(),
})
export type Profile = z.infer<typeof profileSchema>

export const personSchema = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  first_name: z.string().nullable().transform((value) => value ?? ''),
  last_name: z.string().nullable().transform((value) => value ?? ''),
  photo: z.string().nullable().optional().transform((value) => value ?? null),
  specialty: z.string().nullable().optional(),
  groups: z.array(z.string()).optional(),
  is_active: z.boolean().optional(),
  date_joined: z.string().optional(),
})
export type Person = z.infer<typeof personSchema>

export function paginated<Item extends z.ZodType>(item: Item) {
  return z.object({
    count: z.number(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  })
}

export const userStatsSchema = z.object({
  total: z.number(),
  active: z.number(),
  by_group: z.object({ admin: z.number(), profissional: z.number(), paciente: z.number() }),
})
