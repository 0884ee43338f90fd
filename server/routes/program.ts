import { z } from 'zod'
import { authenticateWithRole } from '#server/auth/authenticate.ts'
import { saoPauloDate } from '#server/dates.ts'
import { idParam, type Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { apiError, notFound, validationError, type FieldErrors } from '#server/http/errors.ts'
import { booleanField, tooManyElements, validate } from '#server/http/fields.ts'
import { GOAL_LIBRARY } from '#server/questionnaire/goal-library.ts'
import { MAX_WEEKS, MIN_WEEKS, planProgram } from '#server/questionnaire/program.ts'
import { currentProgramOf, findOwnGoal, goalsOf, insertProgram, setGoalDone } from '#server/questionnaire/program-repository.ts'
import { latestResultOf, pillarsInOrder } from '#server/questionnaire/repository.ts'
import { serializeGoal, serializeProgram } from '#server/questionnaire/serializers.ts'
import type { Services } from '#server/services.ts'

const listTypeName = (value: unknown) =>
  typeof value === 'string' ? 'str' : typeof value === 'number' ? (Number.isInteger(value) ? 'int' : 'float') : typeof value === 'boolean' ? 'bool' : 'dict'

/** `weeks`: optional, an integer from 8 to 12 (null or "" mean "choose for me"). */
function parseWeeks(value: unknown): { weeks?: number } | { error: string } {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return {}
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : ''
  if (!/^-?\d{1,9}$/.test(text)) return { error: 'A valid integer is required.' }
  const weeks = Number(text)
  if (weeks < MIN_WEEKS) return { error: `Ensure this value is greater than or equal to ${MIN_WEEKS}.` }
  if (weeks > MAX_WEEKS) return { error: `Ensure this value is less than or equal to ${MAX_WEEKS}.` }
  return { weeks }
}

// Six pillars exist; a longer list is a mistake or an attack, refused before it is looked at.
const MAX_FOCUS_CHOICES = 20

/** `focus_pillars`: optional, a non-empty list of pillar slugs (a MultipleChoiceField); order kept, repeats dropped. */
function parseFocusPillars(value: unknown, known: string[]): { focus?: string[] } | { error: string[] } {
  if (value === undefined || value === null) return {}
  if (!Array.isArray(value)) return { error: [`Expected a list of items but got type "${listTypeName(value)}".`] }
  if (value.length === 0) return { error: ['This selection may not be empty.'] }
  if (value.length > MAX_FOCUS_CHOICES) return { error: [tooManyElements(MAX_FOCUS_CHOICES)] }
  const invalid = value.filter((item) => typeof item !== 'string' || !known.includes(item))
  if (invalid.length > 0) return { error: invalid.map((item) => `"${typeof item === 'string' ? item : JSON.stringify(item)}" is not a valid choice.`) }
  return { focus: [...new Set(value as string[])] }
}

// The query and form shapes the handlers check, built once (a zod schema compiles its parser on first use).
const doneForm = z.object({ done: booleanField() })

/** The personalised 8-12 week program (docs/product.md §1, §9), built from the latest assessment or the chosen pillars. */
export function registerProgramRoutes(api: Api, services: Services): void {
  const { db, clock } = services
  const today = () => saoPauloDate(clock())

  api.endpoint('/program/', {
    GET: async (c) => {
      const { user } = await authenticateWithRole(c, services, 'paciente')
      const program = await currentProgramOf(db, user.id)
      if (!program) throw notFound()
      return c.json(serializeProgram(program, await goalsOf(db, program.id), today()))
    },

    POST: async (c) => {
      const { user } = await authenticateWithRole(c, services, 'paciente')
      const fields = await readFields(c.req.raw)
      // Only pillars with goals in the library can be part of a program.
      const allPillars = (await pillarsInOrder(db)).map((pillar) => pillar.slug).filter((slug) => slug in GOAL_LIBRARY)

      const weeks = parseWeeks(fields.weeks)
      const chosen = parseFocusPillars(fields.focus_pillars, allPillars)
      const errors: FieldErrors = {}
      if ('error' in weeks) errors.weeks = [weeks.error]
      if ('error' in chosen) errors.focus_pillars = chosen.error
      if ('error' in weeks || 'error' in chosen) throw validationError(errors)

      const latest = await latestResultOf(db, user.id)
      const focusPillars = chosen.focus ?? latest?.focusPillars.filter((slug) => allPillars.includes(slug))
      if (!focusPillars || focusPillars.length === 0) {
        throw apiError(409, 'There is no questionnaire result to build the program from. Submit the questionnaire or choose the focus pillars.')
      }

      const plan = planProgram({ focusPillars, allPillars, scores: latest?.scores, weeks: weeks.weeks })
      const { program, goals } = await insertProgram(
        db,
        {
          userId: user.id,
          resultId: latest?.id ?? null,
          source: chosen.focus ? 'selection' : 'questionnaire',
          createdAt: new Date(clock()),
          startsOn: today(),
          weeks: plan.weeks,
          focusPillars: plan.focusPillars,
          pillarsOrder: plan.pillarsOrder,
        },
        plan.schedule.flatMap(({ week, goals }) =>
          goals.map((goal, position) => ({
            week,
            position,
            pillarSlug: goal.pillar,
            level: goal.level,
            focus: goal.focus,
            text: GOAL_LIBRARY[goal.pillar]![goal.level - 1]!,
          })),
        ),
      )
      return c.json(serializeProgram(program, goals, today()), 201)
    },
  })

  api.endpoint('/program/goals/:id{[0-9]+}/', {
    POST: async (c) => {
      const { user } = await authenticateWithRole(c, services, 'paciente')
      // Someone else's goal is as unknown as a missing one.
      const goal = await findOwnGoal(db, user.id, idParam(c, 'id'))
      if (!goal) throw notFound()
      const { done } = validate(doneForm, { done: (await readFields(c.req.raw)).done })
      return c.json(serializeGoal(await setGoalDone(db, goal, done, new Date(clock()))))
    },
  })
}
