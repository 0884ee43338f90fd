import { z } from 'zod'
import { DEFAULT_TIME_ZONE, isTimeZone } from '#app/domain/time-zones.ts'

/** A text the provider may send as null or leave out (docs/product.md §3: "empty string if missing"). */
export const text = () => z.string().nullable().optional().transform((value) => value ?? '')
/** A URL or nothing. */
export const optionalUrl = () => z.string().nullable().optional().transform((value) => value ?? null)

/** The user's time zone (a profile setting): America/Sao_Paulo when missing or not one we know. */
const timeZone = () =>
  z
    .string()
    .nullable()
    .optional()
    .transform((value): string => (value && isTimeZone(value) ? value : DEFAULT_TIME_ZONE))

/** The signed-in user of docs/product.md §3, as /users/me/ returns it, plus the time zone times are shown in. */
export const sessionUserSchema = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  groups: z.array(z.string()),
  photo: optionalUrl(),
  first_name: text(),
  last_name: text(),
  /** The user's IANA time zone (decision 0023): America/Sao_Paulo when left out or unknown. */
  time_zone: timeZone(),
})
export type SessionUser = z.infer<typeof sessionUserSchema>

/** What a sign-in answers and the session keeps (app/session/session.server.ts): both tokens and the user. */
export type SignedInSession = { access: string; refresh: string; user: SessionUser }

const localizedText = z.object({ pt: z.string(), en: z.string(), es: z.string() })

const pillarSchema = z.object({
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
  photo: optionalUrl(),
  first_name: text(),
  last_name: text(),
  time_zone: timeZone(),
})

/** The refresh response is checked by hand: a missing access has its own docs/product.md §8 message. */
export const refreshResponseSchema = z.object({ access: z.string().optional() }).passthrough()

export const googleLoginResponseSchema = z.object({
  success: z.boolean(),
  tokens: z.object({ access: z.string(), refresh: z.string() }).optional(),
  user: z
    .object({
      id: z.number(),
      email: z.string(),
      username: z.string(),
      first_name: text(),
      last_name: text(),
      groups: z.array(z.string()),
      photo: optionalUrl(),
      time_zone: timeZone(),
    })
    .optional(),
  message: z.string().optional(),
  is_new_user: z.boolean().optional(),
})

export const detailSchema = z.object({ detail: z.string().optional() }).passthrough()

/** A password change ends every other session and answers with the new pair of the current one. */
export const passwordChangedSchema = z.object({ detail: z.string().optional(), access: z.string().optional(), refresh: z.string().optional() }).passthrough()

export const profileSchema = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  first_name: text(),
  last_name: text(),
  photo: optionalUrl(),
  phone: text(),
  birth_date: text(),
  bio: text(),
  time_zone: timeZone(),
  groups: z.array(z.string()),
  email_verified: z.boolean().optional(),
  date_joined: z.string().optional(),
})
export type Profile = z.infer<typeof profileSchema>

export const personSchema = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  first_name: text(),
  last_name: text(),
  photo: optionalUrl(),
  specialty: z.string().nullable().optional(),
  groups: z.array(z.string()).optional(),
  is_active: z.boolean().optional(),
  date_joined: z.string().optional(),
})

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
