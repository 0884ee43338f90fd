import { asc, count, desc, eq, gt } from 'drizzle-orm'
import { z } from 'zod'
import { CONTENT_LANGUAGES, draftTextField, MISSING_LANGUAGE_MESSAGE, type DraftText } from '#server/content/languages.ts'
import type { Database, Writer } from '#server/db/client.ts'
import { questionnaireQuestions, questionnaireResults, questionnaireVersions, type LocalizedText, type QuestionOption } from '#server/db/schema.ts'
import { validationError, type FieldErrors } from '#server/http/errors.ts'
import { charField, tooManyElements, toFieldErrors } from '#server/http/fields.ts'
import type { VersionRow } from '#server/questionnaire/repository.ts'
import { MAX_ANSWER, MIN_ANSWER } from '#server/questionnaire/scoring.ts'

/**
 * The question bank's versions as the admin content editor makes them (decision 0068), pure: a
 * draft is a copy of the current version under a new version string, edited; publishing inserts it
 * as a new version (the old ones and their results never change). Field errors are named as the
 * editor's form names its inputs (conform's `questions[3].text.en`).
 */

/** A version string: lowercase letters and digits in parts joined by "." or "-" ("2026.2"), at most 20 characters. */
export const VERSION_PATTERN = /^[0-9a-z]+(?:[.-][0-9a-z]+)*$/
export const VERSION_MAX_LENGTH = 20
export const VERSION_MESSAGE = 'Enter a version of at most 20 lowercase letters and digits, in parts joined by "." or "-" (2026.2).'
export const VERSION_TAKEN = 'This version already exists: choose another.'
export const VERSION_PUBLISHED = 'This version is published: it cannot change. Start a new version instead.'

/** A question's code: lowercase letters, digits and "_", starting with a letter (answers are stored by it). */
const CODE_PATTERN = /^[a-z][a-z0-9_]*$/
const CODE_MAX_LENGTH = 64
const CODE_MESSAGE = 'Use lowercase letters, digits and "_", starting with a letter.'
export const CODE_REPEATED = 'Another question of this version has this code.'

export const MAX_QUESTIONS = 120
const OPTION_COUNT = MAX_ANSWER - MIN_ANSWER + 1
const TITLE_MAX_LENGTH = 150
const DESCRIPTION_MAX_LENGTH = 1000
const QUESTION_TEXT_MAX_LENGTH = 500
const OPTION_LABEL_MAX_LENGTH = 100
const MIN_MINUTES = 1
const MAX_MINUTES = 120
/** A draft's JSON under content_drafts' CHECK (256 KiB), with room to spare. */
const MAX_DRAFT_BYTES = 240_000
const DRAFT_TOO_LARGE = 'The questionnaire is too long to keep: shorten its texts or remove questions.'
const NO_QUESTIONS = 'A questionnaire needs at least one question.'
const PILLAR_WITHOUT_QUESTIONS = 'Every pillar needs at least one question: its score is the mean of its questions.'
const UNKNOWN_PILLAR = 'Choose one of the pillars.'

/**
 * A submission may name the version that was current until less than this long ago: a patient who
 * started the assessment before a new version was published keeps their answers (the app keeps an
 * unfinished assessment for 7 days).
 */
export const SUPERSEDED_VERSION_GRACE_MS = 7 * 24 * 3600_000

type DraftQuestion = { code: string; pillar: string; text: DraftText; options: DraftText[]; reverse: boolean }
export type QuestionnaireDraft = { title: DraftText; description: DraftText; estimated_minutes: number; questions: DraftQuestion[] }

const REQUIRED = 'This field is required.'

/** zod's issues as field errors by the input's full name (the form shows each on its own input). */
const fieldErrorsOf = (error: z.ZodError): FieldErrors => toFieldErrors(error, Infinity)

const minutesField = z.unknown().transform((value, context) => {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : ''
  if (value === undefined || value === null || text === '') {
    context.addIssue({ code: 'custom', message: REQUIRED })
    return z.NEVER
  }
  if (!/^\d{1,4}$/.test(text)) {
    context.addIssue({ code: 'custom', message: 'A valid integer is required.' })
    return z.NEVER
  }
  const minutes = Number(text)
  if (minutes < MIN_MINUTES || minutes > MAX_MINUTES) {
    context.addIssue({ code: 'custom', message: `Ensure this value is from ${MIN_MINUTES} to ${MAX_MINUTES}.` })
    return z.NEVER
  }
  return minutes
})

const questionSchema = z.object({
  code: charField({ maxLength: CODE_MAX_LENGTH }).pipe(z.string().regex(CODE_PATTERN, CODE_MESSAGE)),
  pillar: charField({ maxLength: 50 }),
  text: draftTextField(QUESTION_TEXT_MAX_LENGTH),
  options: z.array(draftTextField(OPTION_LABEL_MAX_LENGTH)).length(OPTION_COUNT, `Every question has exactly ${OPTION_COUNT} options.`),
  reverse: z.boolean().default(false),
})

/** A list bounded before any element is parsed: a huge list costs one comparison. */
const questionsField = z.unknown().superRefine((value, context) => {
  if (value === undefined || value === null) context.addIssue({ code: 'custom', message: REQUIRED })
  else if (!Array.isArray(value)) context.addIssue({ code: 'custom', message: 'Expected a list of items.' })
  else if (value.length > MAX_QUESTIONS) context.addIssue({ code: 'custom', message: tooManyElements(MAX_QUESTIONS) })
})

const draftSchema = z.object({
  title: draftTextField(TITLE_MAX_LENGTH),
  description: draftTextField(DESCRIPTION_MAX_LENGTH),
  estimated_minutes: minutesField,
  questions: questionsField.pipe(z.array(questionSchema)),
})

/**
 * A draft as the editor sends it: each text bounded (a language may be empty), the questions at
 * most MAX_QUESTIONS with five option labels each, codes well formed and unique, the whole small
 * enough to keep. A 400 names each wrong input.
 */
export function parseDraft(raw: unknown): QuestionnaireDraft {
  const parsed = draftSchema.safeParse(raw)
  if (!parsed.success) throw validationError(fieldErrorsOf(parsed.error))
  const draft = parsed.data as QuestionnaireDraft
  const errors: FieldErrors = {}
  const seen = new Set<string>()
  draft.questions.forEach((question, index) => {
    if (seen.has(question.code)) errors[`questions[${index}].code`] = [CODE_REPEATED]
    seen.add(question.code)
  })
  if (Object.keys(errors).length > 0) throw validationError(errors)
  if (Buffer.byteLength(JSON.stringify(draft)) > MAX_DRAFT_BYTES) throw validationError({ questions: [DRAFT_TOO_LARGE] })
  return draft
}

/** Every text of a draft by its input's name: the version's, each question's and each option label. */
function draftTexts(draft: QuestionnaireDraft): Record<string, DraftText> {
  const texts: Record<string, DraftText> = { title: draft.title, description: draft.description }
  draft.questions.forEach((question, index) => {
    texts[`questions[${index}].text`] = question.text
    question.options.forEach((option, value) => (texts[`questions[${index}].options[${value}]`] = option))
  })
  return texts
}

/**
 * Why a draft cannot be published yet: each text's missing languages (`questions[3].text.es`), a
 * question on a pillar that does not exist, no question at all, or a pillar left without questions
 * (a pillar's score is the mean of its questions; the result pages show every pillar).
 */
export function publishProblems(draft: QuestionnaireDraft, pillarSlugs: readonly string[]): FieldErrors {
  const errors: FieldErrors = {}
  for (const [field, text] of Object.entries(draftTexts(draft))) {
    for (const language of CONTENT_LANGUAGES) if (!text[language]?.trim()) errors[`${field}.${language}`] = [MISSING_LANGUAGE_MESSAGE]
  }
  const known = new Set(pillarSlugs)
  draft.questions.forEach((question, index) => {
    if (!known.has(question.pillar)) errors[`questions[${index}].pillar`] = [UNKNOWN_PILLAR]
  })
  if (draft.questions.length === 0) errors.questions = [NO_QUESTIONS]
  else {
    const empty = pillarSlugs.filter((slug) => !draft.questions.some((question) => question.pillar === slug))
    if (empty.length > 0) errors.questions = [`${PILLAR_WITHOUT_QUESTIONS} (${empty.join(', ')})`]
  }
  return errors
}

type VersionLike = { title: LocalizedText; description: LocalizedText; estimatedMinutes: number }
type QuestionLike = { code: string; pillarSlug: string; order: number; text: LocalizedText; options: QuestionOption[]; reverse: boolean }

const text = (value: LocalizedText): DraftText => ({ pt: value.pt, en: value.en, es: value.es })

/** A new version's first draft: a copy of a published version (its texts, minutes and every question in order). */
export function draftFromVersion(version: VersionLike, questions: readonly QuestionLike[]): QuestionnaireDraft {
  return {
    title: text(version.title),
    description: text(version.description),
    estimated_minutes: version.estimatedMinutes,
    questions: [...questions]
      .sort((a, b) => a.order - b.order)
      .map((question) => ({
        code: question.code,
        pillar: question.pillarSlug,
        text: text(question.text),
        options: [...question.options].sort((a, b) => a.value - b.value).map((option) => text(option.label)),
        reverse: question.reverse,
      })),
  }
}

/** The rows a complete draft becomes: the version's and its questions' (order from 1, options valued 0-4). */
export function versionRows(version: string, draft: QuestionnaireDraft) {
  return {
    version: { version, title: text(draft.title), description: text(draft.description), estimatedMinutes: draft.estimated_minutes },
    questions: draft.questions.map((question, index) => ({
      version,
      code: question.code,
      pillarSlug: question.pillar,
      order: index + 1,
      text: text(question.text),
      options: question.options.map((label, value) => ({ value: MIN_ANSWER + value, label: text(label) })),
      reverse: question.reverse,
    })),
  }
}

/**
 * Whether a submission may name this version: the current one, or the one it replaced less than
 * SUPERSEDED_VERSION_GRACE_MS ago (`replacedAt`: when the next version was published; undefined
 * when none was).
 */
export function acceptsAnswers(version: { isCurrent: boolean }, replacedAt: Date | undefined, now: number): boolean {
  if (version.isCurrent) return true
  return replacedAt !== undefined && now - replacedAt.getTime() < SUPERSEDED_VERSION_GRACE_MS
}

// The database side: the editor's list, a draft started as a copy, and publishing.

type VersionSummary = { row: VersionRow; questionCount: number; resultCount: number }

/** Every published version, the current one first, then the newest, with its number of questions and of results answered with it. */
export async function listVersions(db: Database): Promise<VersionSummary[]> {
  const [rows, questionCounts, resultCounts] = await Promise.all([
    db.select().from(questionnaireVersions).orderBy(desc(questionnaireVersions.isCurrent), desc(questionnaireVersions.publishedAt), desc(questionnaireVersions.version)),
    db.select({ version: questionnaireQuestions.version, total: count() }).from(questionnaireQuestions).groupBy(questionnaireQuestions.version),
    db.select({ version: questionnaireResults.version, total: count() }).from(questionnaireResults).groupBy(questionnaireResults.version),
  ])
  const questionsBy = new Map(questionCounts.map((row) => [row.version, Number(row.total)]))
  const resultsBy = new Map(resultCounts.map((row) => [row.version, Number(row.total)]))
  return rows.map((row) => ({ row, questionCount: questionsBy.get(row.version) ?? 0, resultCount: resultsBy.get(row.version) ?? 0 }))
}

/**
 * The version a submission names, when it still takes answers (acceptsAnswers): the current one,
 * or the one it replaced within the grace period. Undefined otherwise (unknown, or replaced long ago).
 */
export async function submittableVersion(db: Database, name: string, now: number): Promise<VersionRow | undefined> {
  const [row] = await db.select().from(questionnaireVersions).where(eq(questionnaireVersions.version, name))
  if (!row) return undefined
  if (row.isCurrent) return row
  const [next] = await db
    .select({ publishedAt: questionnaireVersions.publishedAt })
    .from(questionnaireVersions)
    .where(gt(questionnaireVersions.publishedAt, row.publishedAt))
    .orderBy(asc(questionnaireVersions.publishedAt))
    .limit(1)
  return acceptsAnswers(row, next?.publishedAt, now) ? row : undefined
}

/**
 * Publishes a complete draft as a new version, in the caller's transaction: the version's row (its
 * primary key decides that the version string is new: a taken one is a 400), its questions, the
 * switch of `is_current` to it (the old current cleared first: the partial unique index allows
 * one), and nothing else: results keep their version. Returns the previous current version.
 */
export async function insertCurrentVersion(tx: Writer, version: string, draft: QuestionnaireDraft, now: number): Promise<{ row: VersionRow; previous: string | null }> {
  const rows = versionRows(version, draft)
  const [inserted] = await tx
    .insert(questionnaireVersions)
    .values({ ...rows.version, isCurrent: false, publishedAt: new Date(now) })
    .onConflictDoNothing()
    .returning()
  if (!inserted) throw validationError({ version: [VERSION_TAKEN] })
  if (rows.questions.length > 0) await tx.insert(questionnaireQuestions).values(rows.questions)
  const cleared = await tx.update(questionnaireVersions).set({ isCurrent: false }).where(eq(questionnaireVersions.isCurrent, true)).returning({ version: questionnaireVersions.version })
  const [row] = await tx.update(questionnaireVersions).set({ isCurrent: true }).where(eq(questionnaireVersions.version, version)).returning()
  return { row: row!, previous: cleared[0]?.version ?? null }
}
