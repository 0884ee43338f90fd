import { addDays } from '#server/dates.ts'
import type { LocalizedText } from '#server/db/schema.ts'
import { photoUrl } from '#server/users/serializers.ts'
import type { UserRow } from '#server/users/repository.ts'
import { programProgress } from '#server/questionnaire/program.ts'
import type { GoalRow, ProgramRow } from '#server/questionnaire/program-repository.ts'
import type { PillarRow, QuestionRow, ResultRow, VersionRow } from '#server/questionnaire/repository.ts'

/** The JSON shapes of the questionnaire endpoints (documented in server/README.md). */

// jsonb keeps keys in its own order; answer in the product's order (pt, en, es).
export const localized = (text: LocalizedText) => ({ pt: text.pt, en: text.en, es: text.es })

/** A record with its keys in the given order (unknown keys last), since jsonb reorders them. */
function inOrder<T>(record: Record<string, T>, order: string[]): Record<string, T> {
  const result: Record<string, T> = {}
  for (const key of order) if (Object.hasOwn(record, key)) result[key] = record[key]!
  for (const key of Object.keys(record)) if (!Object.hasOwn(result, key)) result[key] = record[key]!
  return result
}

export function serializeQuestionnaire(version: VersionRow, pillars: PillarRow[], questions: QuestionRow[]) {
  return {
    version: version.version,
    current: version.isCurrent,
    title: localized(version.title),
    description: localized(version.description),
    estimated_minutes: version.estimatedMinutes,
    question_count: questions.length,
    scale: { min: 0, max: 4 },
    pillars: pillars
      .map((pillar) => ({
        slug: pillar.slug,
        order: pillar.order,
        name: localized(pillar.name),
        questions: questions
          .filter((question) => question.pillarSlug === pillar.slug)
          .map((question) => ({
            id: question.id,
            code: question.code,
            order: question.order,
            reverse: question.reverse,
            text: localized(question.text),
            options: question.options.map((option) => ({ value: option.value, label: localized(option.label) })),
          })),
      }))
      .filter((pillar) => pillar.questions.length > 0),
  }
}

const serializePatientSummary = (user: UserRow) => ({
  id: user.id,
  username: user.username,
  first_name: user.firstName,
  last_name: user.lastName,
})

/** The list item of a result: no answers. */
export function serializeResultSummary(result: ResultRow, pillarOrder: string[]) {
  return {
    id: result.id,
    version: result.version,
    submitted_at: result.submittedAt.toISOString(),
    scores: inOrder(result.scores, pillarOrder),
    focus_pillars: result.focusPillars,
  }
}

/** One result in full: submit, latest and detail. */
export function serializeResult(result: ResultRow, patient: UserRow, pillarOrder: string[], codeOrder: string[]) {
  return {
    ...serializeResultSummary(result, pillarOrder),
    answers: inOrder(result.answers, codeOrder),
    patient: serializePatientSummary(patient),
  }
}

export function serializeSharedResult(result: ResultRow, patient: UserRow, sharedAt: Date, pillarOrder: string[]) {
  return { ...serializeResultSummary(result, pillarOrder), shared_at: sharedAt.toISOString(), patient: serializePatientSummary(patient) }
}

export function serializeShareList(resultId: number, shares: { user: UserRow; sharedAt: Date }[], photoBase: string) {
  return {
    questionnaire: resultId,
    professionals: shares.map(({ user, sharedAt }) => ({
      id: user.id,
      username: user.username,
      first_name: user.firstName,
      last_name: user.lastName,
      email: user.email,
      photo: photoUrl(photoBase, user.photoName),
      specialty: user.specialty,
      shared_at: sharedAt.toISOString(),
    })),
  }
}

/** Per pillar, the scores of every submission, oldest first, and the change from the one before. */
/** `results`: the newest submissions, oldest first; `total`: how many there are in all. */
export function serializeTrends(results: ResultRow[], total: number, pillarOrder: string[]) {
  return {
    count: total,
    pillars: pillarOrder.map((slug) => {
      const series = results
        .filter((result) => typeof result.scores[slug] === 'number')
        .map((result) => ({ id: result.id, submitted_at: result.submittedAt.toISOString(), score: result.scores[slug]! }))
      const latest = series.at(-1)?.score ?? null
      const previous = series.at(-2)?.score ?? null
      return { slug, latest, change: latest !== null && previous !== null ? latest - previous : null, series }
    }),
  }
}

export function serializeGoal(goal: GoalRow) {
  return {
    id: goal.id,
    week: goal.week,
    pillar: goal.pillarSlug,
    level: goal.level,
    focus: goal.focus,
    text: localized(goal.text),
    done: goal.done,
    done_at: goal.doneAt?.toISOString() ?? null,
  }
}

/** A program without its weekly schedule (what a patient's professional reads); `today` as below. */
export function serializeProgramSummary(program: ProgramRow, goals: GoalRow[], today: string) {
  const { currentWeek, finished } = programProgress(program.startsOn, program.weeks, today)
  return {
    id: program.id,
    created_at: program.createdAt.toISOString(),
    source: program.source,
    questionnaire: program.resultId,
    starts_on: program.startsOn,
    ends_on: addDays(program.startsOn, 7 * program.weeks - 1),
    weeks: program.weeks,
    current_week: currentWeek,
    finished,
    focus_pillars: program.focusPillars,
    pillars_order: program.pillarsOrder,
    progress: { done: goals.filter((goal) => goal.done).length, total: goals.length },
  }
}

/** A program with its weekly schedule; `today` (YYYY-MM-DD, São Paulo) places the current week. */
export function serializeProgram(program: ProgramRow, goals: GoalRow[], today: string) {
  return {
    ...serializeProgramSummary(program, goals, today),
    schedule: Array.from({ length: program.weeks }, (_, index) => ({
      week: index + 1,
      starts_on: addDays(program.startsOn, 7 * index),
      ends_on: addDays(program.startsOn, 7 * index + 6),
      goals: goals.filter((goal) => goal.week === index + 1).map(serializeGoal),
    })),
  }
}
