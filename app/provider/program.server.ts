import { type SignedInCaller } from './fetch.server.ts'
import { z } from 'zod'
import { ProviderError } from './errors.ts'

const localized = z.object({ pt: z.string(), en: z.string(), es: z.string() })

const goalSchema = z.object({
  id: z.number(),
  week: z.number(),
  pillar: z.string(),
  level: z.number(),
  focus: z.boolean(),
  text: localized,
  done: z.boolean(),
  done_at: z.string().nullable(),
})

export const programSchema = z.object({
  id: z.number(),
  created_at: z.string(),
  source: z.enum(['questionnaire', 'selection']),
  questionnaire: z.number().nullable(),
  starts_on: z.string(),
  ends_on: z.string(),
  weeks: z.number(),
  current_week: z.number(),
  finished: z.boolean(),
  focus_pillars: z.array(z.string()),
  pillars_order: z.array(z.string()),
  progress: z.object({ done: z.number(), total: z.number() }),
  schedule: z.array(z.object({ week: z.number(), starts_on: z.string(), ends_on: z.string(), goals: z.array(goalSchema) })),
})
type Program = z.infer<typeof programSchema>

/** The patient's current program, or null when there is none yet (the provider's 404). */
export async function getProgram(auth: SignedInCaller): Promise<Program | null> {
  try {
    return await auth.call('/program/', programSchema)
  } catch (error) {
    if (error instanceof ProviderError && error.status === 404) return null
    throw error
  }
}

export const createProgram = (auth: SignedInCaller, body: { weeks?: number; focus_pillars?: string[] }) =>
  auth.call('/program/', programSchema, { method: 'POST', json: body })

export const setGoalDone = (auth: SignedInCaller, goalId: number, done: boolean) =>
  auth.call(`/program/goals/${goalId}/`, goalSchema, { method: 'POST', json: { done } })
