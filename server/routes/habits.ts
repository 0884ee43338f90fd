import { z } from 'zod'
import { authenticateWithRole } from '#server/auth/authenticate.ts'
import { WEEKDAYS, type HabitFrequency, type Weekday } from '#server/db/schema.ts'
import { addDays, daysBetween, localDateOf } from '#server/dates.ts'
import { habitDetail, habitSummary, pillarRates, HEAT_MAP_DAYS, TRACKABLE_DAYS } from '#server/habits/serializers.ts'
import {
  clearDay,
  countHabits,
  deleteHabit,
  entriesOf,
  findOwnHabit,
  habitsOf,
  insertHabit,
  trackDay,
  updateHabit,
  withHabitCounts,
  type HabitChanges,
  type HabitEntryRow,
  type HabitRow,
} from '#server/habits/repository.ts'
import { suggestionsFor } from '#server/habits/suggestions.ts'
import { idParam, type AppContext, type Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { apiError, fieldError, notFound, validationError, type FieldErrors } from '#server/http/errors.ts'
import { paginate, PRIVATE_NO_STORE, type PageSizes } from '#server/http/pagination.ts'
import { booleanField, charField, choiceField, dateField, listField, toFieldErrors, validate } from '#server/http/fields.ts'
import { currentProgramOf, goalsOf } from '#server/questionnaire/program-repository.ts'
import { pillarsInOrder } from '#server/questionnaire/repository.ts'
import type { Services } from '#server/services.ts'

/** A patient keeps at most this many active habits: enough for six pillars, bounded for the pages that list them. */
const MAX_ACTIVE_HABITS = 30
/**
 * And at most this many in all, archived ones included (decision 0032): years of habits tried and
 * put away, and a bound on what one patient can store. Past it, an archived habit must be deleted.
 */
const MAX_HABITS = 200
/** Pages of habits: one page holds every active habit (the habits page and the dashboard read one). */
const HABIT_PAGE_SIZES: PageSizes = { defaultSize: MAX_ACTIVE_HABITS, maxSize: MAX_ACTIVE_HABITS }
const MAX_TARGET = 100_000
/** A completions query spans at most this many days. */
const MAX_RANGE_DAYS = 400

const FREQUENCIES = ['daily', 'weekdays', 'weekly'] as const
const STATUSES = ['done', 'not_done', 'skipped', 'none'] as const
const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/

/** An optional decimal in (0, max]: "8", 8, "2.5"; null or "" clear it. */
function optionalAmount({ max, positive }: { max: number; positive: boolean }) {
  return z.unknown().transform((value, context): number | null => {
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return null
    const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim().replace(',', '.') : ''
    if (!/^\d{1,9}(\.\d{1,3})?$/.test(text)) {
      context.addIssue({ code: 'custom', message: 'A valid number is required.' })
      return z.NEVER
    }
    const number = Number(text)
    if (positive ? number <= 0 : number < 0) context.addIssue({ code: 'custom', message: `Ensure this value is greater than ${positive ? '' : 'or equal to '}0.` })
    else if (number > max) context.addIssue({ code: 'custom', message: `Ensure this value is less than or equal to ${max}.` })
    else return number
    return z.NEVER
  })
}

const reminderField = z.unknown().transform((value, context): string | null => {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return null
  if (typeof value === 'string' && HH_MM.test(value.trim())) return value.trim()
  context.addIssue({ code: 'custom', message: 'Time has wrong format. Use HH:MM.' })
  return z.NEVER
})

const timesField = z.unknown().transform((value, context): number => {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : ''
  if (/^[1-7]$/.test(text)) return Number(text)
  context.addIssue({ code: 'custom', message: value === undefined || value === '' ? 'This field is required.' : 'Ensure this value is an integer from 1 to 7.' })
  return z.NEVER
})

const habitFields = {
  name: charField({ maxLength: 120 }),
  pillar: charField({ maxLength: 50 }),
  frequency: choiceField(FREQUENCIES),
  weekdays: listField(choiceField(WEEKDAYS), { maxLength: 7 }),
  times_per_week: timesField,
  target: optionalAmount({ max: MAX_TARGET, positive: true }),
  unit: charField({ maxLength: 30, allowBlank: true }),
  reminder_time: reminderField,
}

const createSchema = z.object({
  ...habitFields,
  weekdays: habitFields.weekdays.optional(),
  times_per_week: habitFields.times_per_week.optional(),
  unit: habitFields.unit.optional(),
  reminder_time: habitFields.reminder_time.optional(),
  target: habitFields.target.optional(),
})

const updateSchema = z.object({
  name: habitFields.name.optional(),
  pillar: habitFields.pillar.optional(),
  frequency: habitFields.frequency.optional(),
  weekdays: habitFields.weekdays.optional(),
  times_per_week: habitFields.times_per_week.optional(),
  target: habitFields.target.optional(),
  unit: habitFields.unit.optional(),
  reminder_time: habitFields.reminder_time.optional(),
  archived: booleanField().optional(),
})

const trackSchema = z.object({
  date: dateField(),
  status: choiceField(STATUSES),
  amount: optionalAmount({ max: MAX_TARGET * 10, positive: false }).optional(),
})

/** Forms send one field per weekday chosen (`weekdays=monday&weekdays=friday`) or one value; JSON a list. */
function asList(value: unknown): unknown {
  return typeof value === 'string' ? (value.trim() === '' ? [] : [value]) : value
}

/** The frequency the fields describe, with the field errors of a partial one. */
function frequencyOf(kind: (typeof FREQUENCIES)[number], weekdays: Weekday[] | undefined, times: number | undefined, errors: FieldErrors): HabitFrequency | undefined {
  if (kind === 'daily') return { kind }
  if (kind === 'weekly') {
    if (times === undefined) errors.times_per_week = ['This field is required.']
    return times === undefined ? undefined : { kind, times }
  }
  const days = WEEKDAYS.filter((day) => weekdays?.includes(day))
  if (days.length === 0) {
    errors.weekdays = ['Choose at least one weekday.']
    return undefined
  }
  return { kind, days }
}

const tooManyActive = () => apiError(400, `You can keep at most ${MAX_ACTIVE_HABITS} active habits. Archive one first.`, { code: 'too_many_habits' })
const tooManyInAll = () => apiError(400, `You can keep at most ${MAX_HABITS} habits, archived ones included. Delete an archived habit first.`, { code: 'too_many_habits_total' })

/** Each habit's entries, from entries read for several habits at once. */
function entriesByHabit(entries: HabitEntryRow[]): (habit: HabitRow) => HabitEntryRow[] {
  const byHabit = new Map<number, HabitEntryRow[]>()
  for (const entry of entries) {
    const list = byHabit.get(entry.habitId)
    if (list) list.push(entry)
    else byHabit.set(entry.habitId, [entry])
  }
  return (habit) => byHabit.get(habit.id) ?? []
}

// The query and form shapes the handlers check, built once (a zod schema compiles its parser on first use).
const archivedQuery = z.object({ archived: booleanField().optional() })
const fromToQuery = z.object({ from: dateField(), to: dateField() })

export function registerHabitRoutes(api: Api, services: Services): void {
  const { db, clock } = services
  const caller = (c: AppContext) => authenticateWithRole(c, services, 'paciente')
  const todayOf = (timeZone: string) => localDateOf(clock(), timeZone)
  const dayOf = (timeZone: string) => ({ today: todayOf(timeZone), timeZone })

  /** A pillar slug that exists, checked beside the other fields' errors (a string the field took, else nothing to say). */
  async function checkPillar(raw: unknown, errors: FieldErrors): Promise<void> {
    if (errors.pillar || typeof raw !== 'string' || raw.trim() === '') return
    const slug = raw.trim()
    if (!(await pillarsInOrder(db)).some((pillar) => pillar.slug === slug)) errors.pillar = [`"${slug.slice(0, 40)}" is not a valid choice.`]
  }

  async function ownHabit(c: AppContext, userId: number): Promise<HabitRow> {
    const habit = await findOwnHabit(db, userId, idParam(c, 'id'))
    if (!habit) throw notFound()
    return habit
  }

  /** Lists' habits with their days, streaks and strength (one read of their entries). */
  async function summariesOf(list: HabitRow[], day: { today: string; timeZone: string }) {
    const entriesOfHabit = entriesByHabit(await entriesOf(db, list.map((habit) => habit.id), '0001-01-01', day.today))
    return list.map((habit) => habitSummary(habit, entriesOfHabit(habit), day))
  }

  /** A user's active habits: the limit keeps them bounded, and so does every read of them. */
  const activeHabitsOf = (userId: number, pillarSlug?: string) => habitsOf(db, userId, { pillarSlug, limit: MAX_ACTIVE_HABITS })

  /** A habit with its last days, streaks and strength, as of the user's today. */
  async function detailOf(habit: HabitRow, timeZone: string) {
    const day = dayOf(timeZone)
    return habitDetail(habit, await entriesOf(db, [habit.id], habit.createdOn, day.today), day)
  }

  api.endpoint('/habits/', {
    GET: async (c) => {
      const { user } = await caller(c)
      const day = dayOf(user.timeZone)
      const archived = validate(archivedQuery, { archived: c.req.query('archived')?.trim() || undefined }).archived ?? false
      // Pages of a fixed size, read with LIMIT/OFFSET: the answer's cost does not grow with what the user stored.
      const counts = await countHabits(db, user.id)
      const page = paginate(c, archived ? counts.total - counts.active : counts.active, HABIT_PAGE_SIZES)
      const list = await habitsOf(db, user.id, { archived, limit: page.limit, offset: page.offset })
      return c.json({ today: day.today, time_zone: user.timeZone, ...page.envelope(await summariesOf(list, day)) })
    },

    POST: async (c) => {
      const { user } = await caller(c)
      const fields = await readFields(c.req.raw)
      const parsed = createSchema.safeParse({ ...fields, weekdays: asList(fields.weekdays) })
      const errors: FieldErrors = parsed.success ? {} : toFieldErrors(parsed.error)
      const input = parsed.success ? parsed.data : undefined
      await checkPillar(fields.pillar, errors)
      const frequency = input ? frequencyOf(input.frequency, input.weekdays, input.times_per_week, errors) : undefined
      if (!input || !frequency || Object.keys(errors).length > 0) throw validationError(errors)
      const day = dayOf(user.timeZone)
      const habit = await withHabitCounts(db, user.id, async (tx, counts) => {
        if (counts.active >= MAX_ACTIVE_HABITS) throw tooManyActive()
        if (counts.total >= MAX_HABITS) throw tooManyInAll()
        return insertHabit(tx, {
          userId: user.id,
          pillarSlug: input.pillar,
          name: input.name,
          frequency,
          target: input.target ?? null,
          unit: input.target ? (input.unit ?? '') : '',
          reminderTime: input.reminder_time ?? null,
          createdOn: day.today,
        })
      })
      return c.json(habitSummary(habit, [], day), 201)
    },
  })

  api.endpoint('/habits/:id{[0-9]+}/', {
    GET: async (c) => {
      const { user } = await caller(c)
      return c.json(await detailOf(await ownHabit(c, user.id), user.timeZone))
    },

    PATCH: async (c) => {
      const { user } = await caller(c)
      const habit = await ownHabit(c, user.id)
      const fields = await readFields(c.req.raw)
      const parsed = updateSchema.safeParse({ ...fields, weekdays: fields.weekdays === undefined ? undefined : asList(fields.weekdays) })
      const errors: FieldErrors = parsed.success ? {} : toFieldErrors(parsed.error)
      const input = parsed.success ? parsed.data : undefined
      await checkPillar(fields.pillar, errors)
      const changes: HabitChanges = {}
      if (input?.frequency !== undefined) {
        const frequency = frequencyOf(input.frequency, input.weekdays, input.times_per_week, errors)
        if (frequency) changes.frequency = frequency
      }
      if (!input || Object.keys(errors).length > 0) throw validationError(errors)
      if (input.name !== undefined) changes.name = input.name
      if (input.pillar !== undefined) changes.pillarSlug = input.pillar
      if (input.target !== undefined) changes.target = input.target
      if (input.unit !== undefined) changes.unit = input.unit
      // A unit means nothing without a target.
      if ((changes.target === undefined ? habit.target : changes.target) === null) changes.unit = ''
      if (input.reminder_time !== undefined) changes.reminderTime = input.reminder_time
      if (input.archived !== undefined && input.archived !== (habit.archivedAt !== null)) changes.archivedAt = input.archived ? new Date(clock()) : null
      // Restoring counts against the active limit, under the same lock as creating.
      const updated =
        changes.archivedAt === null
          ? await withHabitCounts(db, user.id, async (tx, counts) => {
              if (counts.active >= MAX_ACTIVE_HABITS) throw tooManyActive()
              return updateHabit(tx, habit.id, changes)
            })
          : await updateHabit(db, habit.id, changes)
      return c.json(await detailOf(updated, user.timeZone))
    },

    DELETE: async (c) => {
      const { user } = await caller(c)
      await deleteHabit(db, (await ownHabit(c, user.id)).id)
      return c.body(null, 204)
    },
  })

  api.endpoint('/habits/:id{[0-9]+}/track/', {
    POST: async (c) => {
      const { user } = await caller(c)
      const habit = await ownHabit(c, user.id)
      const input = validate(trackSchema, await readFields(c.req.raw))
      const today = todayOf(user.timeZone)
      // Today and the week before it, in the user's zone: older days are history, later ones not lived yet.
      const earliest = addDays(today, -(TRACKABLE_DAYS - 1))
      if (input.date > today || input.date < earliest) throw fieldError('date', `Only the last ${TRACKABLE_DAYS} days (from ${earliest} to ${today}) can be tracked.`)
      if (input.date < habit.createdOn) throw fieldError('date', `This habit starts on ${habit.createdOn}.`)
      if (habit.archivedAt) throw apiError(400, 'An archived habit cannot be tracked.', { code: 'habit_archived' })
      if (input.status === 'none') await clearDay(db, habit.id, input.date)
      else await trackDay(db, habit.id, { date: input.date, status: input.status, amount: input.status === 'skipped' ? null : (input.amount ?? null) }, new Date(clock()))
      const entries = await entriesOf(db, [habit.id], habit.createdOn, today)
      return c.json(habitSummary(habit, entries, { today, timeZone: user.timeZone }))
    },
  })

  api.endpoint('/habits/:id{[0-9]+}/completions/', {
    GET: async (c) => {
      const { user } = await caller(c)
      const habit = await ownHabit(c, user.id)
      const today = todayOf(user.timeZone)
      const raw = { from: c.req.query('from')?.trim() || addDays(today, -(HEAT_MAP_DAYS - 1)), to: c.req.query('to')?.trim() || today }
      const range = validate(fromToQuery, raw)
      if (range.from > range.to) throw fieldError('from', 'Must be on or before "to".')
      if (addDays(range.from, MAX_RANGE_DAYS) < range.to) throw fieldError('to', `A range spans at most ${MAX_RANGE_DAYS} days.`)
      const entries = await entriesOf(db, [habit.id], range.from, range.to)
      return c.json({ habit_id: habit.id, from: range.from, to: range.to, results: entries.map((entry) => ({ date: entry.date, status: entry.status, amount: entry.amount })) })
    },
  })

  api.endpoint('/habits/stats/', {
    GET: async (c) => {
      const { user } = await caller(c)
      const day = dayOf(user.timeZone)
      const list = await activeHabitsOf(user.id)
      const byHabit = entriesByHabit(await entriesOf(db, list.map((habit) => habit.id), '0001-01-01', day.today))
      return c.json(
        {
          today: day.today,
          habits: list.map((habit) => habitDetail(habit, byHabit(habit), day, { heatMap: false })),
          pillars: pillarRates(list.map((habit) => ({ habit, entries: byHabit(habit) })), day),
        },
        200,
        { 'Cache-Control': PRIVATE_NO_STORE },
      )
    },
  })

  api.endpoint('/habits/pillar/:id{[0-9]+}/', {
    GET: async (c) => {
      const { user } = await caller(c)
      const pillar = (await pillarsInOrder(db)).find((row) => row.id === idParam(c, 'id'))
      if (!pillar) throw notFound()
      const day = dayOf(user.timeZone)
      const list = await activeHabitsOf(user.id, pillar.slug)
      return c.json({
        pillar: { id: pillar.id, slug: pillar.slug },
        results: await summariesOf(list, day),
        suggestions: suggestionsFor([pillar.slug], []),
      })
    },
  })

  api.endpoint('/habits/suggestions/', {
    GET: async (c) => {
      const { user } = await caller(c)
      const program = await currentProgramOf(db, user.id)
      const focus = program ? program.focusPillars : []
      const weekGoals = program ? (await goalsOf(db, program.id)).filter((goal) => goal.week === currentWeek(program.startsOn, todayOf(user.timeZone), program.weeks)) : []
      const existing = new Set((await activeHabitsOf(user.id)).map((habit) => habit.name.toLocaleLowerCase()))
      return c.json({
        focus_pillars: focus,
        results: suggestionsFor(focus, weekGoals).filter((suggestion) => !Object.values(suggestion.name).some((name) => existing.has(name.toLocaleLowerCase()))),
      })
    },
  })
}

/** The program week `today` falls in (1 to weeks). */
function currentWeek(startsOn: string, today: string, weeks: number): number {
  const days = daysBetween(startsOn, today)
  return Math.min(weeks, Math.max(1, Math.floor(days / 7) + 1))
}

