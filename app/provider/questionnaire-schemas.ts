import { z } from 'zod'

const localizedText = z.object({ pt: z.string(), en: z.string(), es: z.string() })
const text = () => z.string().nullable().optional().transform((value) => value ?? '')

const questionSchema = z.object({
  id: z.number(),
  code: z.string(),
  order: z.number(),
  reverse: z.boolean().optional(),
  text: localizedText,
  options: z.array(z.object({ value: z.number(), label: localizedText })),
})

export const definitionSchema = z.object({
  version: z.string(),
  title: localizedText,
  description: localizedText,
  estimated_minutes: z.number().optional(),
  question_count: z.number().optional(),
  scale: z.object({ min: z.number(), max: z.number() }),
  pillars: z.array(z.object({ slug: z.string(), order: z.number(), name: localizedText, questions: z.array(questionSchema) })),
})
export type Definition = z.infer<typeof definitionSchema>

const patientSummarySchema = z.object({ id: z.number(), username: z.string(), first_name: text(), last_name: text() })

export const resultSummarySchema = z.object({
  id: z.number(),
  version: z.string(),
  submitted_at: z.string(),
  scores: z.record(z.string(), z.number()),
  focus_pillars: z.array(z.string()),
})

export const resultSchema = resultSummarySchema.extend({
  answers: z.record(z.string(), z.number()),
  patient: patientSummarySchema.optional(),
})

export const sharedResultSchema = resultSummarySchema.extend({ shared_at: z.string(), patient: patientSummarySchema })

export const pageOf = <Item extends z.ZodType>(item: Item) =>
  z.object({ count: z.number(), next: z.string().nullable(), previous: z.string().nullable(), results: z.array(item) })

export const trendsSchema = z.object({
  count: z.number(),
  pillars: z.array(
    z.object({
      slug: z.string(),
      latest: z.number().nullable(),
      change: z.number().nullable(),
      series: z.array(z.object({ id: z.number(), submitted_at: z.string(), score: z.number() })),
    }),
  ),
})

export const shareListSchema = z.object({
  questionnaire: z.number(),
  professionals: z.array(
    z.object({
      id: z.number(),
      username: z.string(),
      first_name: text(),
      last_name: text(),
      email: text(),
      specialty: text(),
      shared_at: z.string(),
    }),
  ),
})
export type ShareList = z.infer<typeof shareListSchema>
