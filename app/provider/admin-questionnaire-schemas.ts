import { z } from 'zod'

/** The question bank's versions in the admin content editor, as the provider answers them (decision 0068). */

const text = z.object({ pt: z.string(), en: z.string(), es: z.string() })
const count = z.number().int().nonnegative()

export const questionnaireVersionListSchema = z.object({
  items: z.array(
    z.object({
      version: z.string(),
      current: z.boolean(),
      published_at: z.string(),
      title: text,
      estimated_minutes: z.number().int(),
      question_count: count,
      result_count: count,
    }),
  ),
  new_drafts: z.array(z.object({ version: z.string(), title: text, question_count: count, updated_at: z.string() })),
})

const question = z.object({ code: z.string(), pillar: z.string(), text, options: z.array(text), reverse: z.boolean() })
const body = { title: text, description: text, estimated_minutes: z.number().int(), questions: z.array(question) }

export const questionnaireDraftSchema = z.object({ ...body, updated_at: z.string() })

export const publishedQuestionnaireSchema = z.object({
  ...body,
  version: z.string(),
  current: z.boolean(),
  published_at: z.string(),
  questions: z.array(question.extend({ order: z.number().int() })),
})

export const questionnaireVersionSchema = z.object({
  version: z.string(),
  published: publishedQuestionnaireSchema.nullable(),
  draft: questionnaireDraftSchema.nullable(),
  pillars: z.array(z.object({ slug: z.string(), name: text })),
})

export const newQuestionnaireDraftSchema = z.object({ version: z.string(), draft: questionnaireDraftSchema, copied_from: z.string() })
