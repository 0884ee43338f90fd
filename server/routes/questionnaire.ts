import { z } from 'zod'
import { recordHealthViews } from '#server/audit/health-views.ts'
import { authenticate, authenticateWithRole, roleOf, type Caller } from '#server/auth/authenticate.ts'
import { idParam, type Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { ApiError, notFound, permissionDenied, validationError } from '#server/http/errors.ts'
import { idField, pythonTypeName, tooManyElements, validate } from '#server/http/fields.ts'
import { checkId } from '#server/http/ids.ts'
import { paginate, PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import { parseAnswers } from '#server/questionnaire/answers.ts'
import {
  activeProfessionalIds,
  addShares,
  countResultsOf,
  countSharedWith,
  currentVersion,
  findResult,
  findVersion,
  insertResult,
  isDatabaseId,
  isSharedWith,
  latestResultOf,
  pillarsInOrder,
  questionCodesByVersion,
  recentResultsOldestFirst,
  questionsOf,
  removeShare,
  resultsOf,
  sharedWith,
  sharesOf,
  type ResultRow,
} from '#server/questionnaire/repository.ts'
import { scoreSubmission } from '#server/questionnaire/scoring.ts'
import { submittableVersion } from '#server/questionnaire/versions.ts'
import {
  serializeQuestionnaire,
  serializeResult,
  serializeResultSummary,
  serializeSharedResult,
  serializeShareList,
  serializeTrends,
} from '#server/questionnaire/serializers.ts'
import type { Services } from '#server/services.ts'
import { findUserById } from '#server/users/repository.ts'

const REQUIRED = 'This field is required.'
const NOT_NULL = 'This field may not be null.'

/** At most this many professionals in one share call; the app offers a handful. */
const MAX_SHARE_TARGETS = 100
/** A submission's answers object: the questionnaire has a few dozen questions. */
const MAX_ANSWER_KEYS = 200
/** Trends chart the newest this many submissions (two years of monthly ones); older ones stay in the paged history. */
const TREND_SUBMISSIONS = 24

/** A pk as DRF echoes it in a message, cut short: the value may be megabytes of digits. */
const echo = (value: unknown) => {
  const text = String(value)
  return text.length > 20 ? `${text.slice(0, 20)}…` : text
}

/**
 * A PrimaryKeyRelatedField(many=True): a non-empty list of ids (integers or integer strings),
 * at most MAX_SHARE_TARGETS long (checked before any element is), repeats dropped, order kept.
 */
function parseIdList(value: unknown): { ids: number[] } | { error: string } {
  if (value === undefined) return { error: REQUIRED }
  if (value === null) return { error: NOT_NULL }
  if (!Array.isArray(value)) return { error: `Expected a list of items but got type "${pythonTypeName(value)}".` }
  if (value.length === 0) return { error: 'This list may not be empty.' }
  if (value.length > MAX_SHARE_TARGETS) return { error: tooManyElements(MAX_SHARE_TARGETS) }
  const ids = new Set<number>()
  for (const item of value) {
    const checked = typeof item === 'number' || typeof item === 'string' ? checkId(item) : undefined
    if (!checked || ('problem' in checked && checked.problem === 'not-integer')) {
      return { error: `Incorrect type. Expected pk value, received ${pythonTypeName(item)}.` }
    }
    // Out of the id range, no row can have it: DRF's answer for a pk with no object.
    if ('problem' in checked) return { error: `Invalid pk "${echo(item)}" - object does not exist.` }
    ids.add(checked.id)
  }
  return { ids: [...ids] }
}

const resultIdField = z.object({ questionnaire: idField() })

// The query and form shapes the handlers check, built once (a zod schema compiles its parser on first use).
const questionnaireProfessionalQuery = z.object({ questionnaire: idField(), professional: idField() })
const patientQuery = z.object({ patient: idField() })

/**
 * The health assessment (docs/product.md §7 Questionnaire): the versioned question bank, submissions
 * scored per pillar, history and trends, and sharing a result with professionals (docs/product.md §6).
 */
export function registerQuestionnaireRoutes(api: Api, services: Services): void {
  const { db, clock, config } = services

  const pillarOrder = async () => (await pillarsInOrder(db)).map((pillar) => pillar.slug)

  async function definition(version: string | undefined) {
    const row = version === undefined ? await currentVersion(db) : await findVersion(db, version)
    if (!row) throw notFound()
    return serializeQuestionnaire(row, await pillarsInOrder(db), await questionsOf(db, row.version))
  }

  async function fullResult(result: ResultRow) {
    const [patient, order, codes] = await Promise.all([findUserById(db, result.userId), pillarOrder(), questionCodesByVersion(db, [result.version])])
    return serializeResult(result, patient!, order, codes.get(result.version) ?? [])
  }

  /**
   * A result the caller may read: the owner's, one shared with the calling professional, or any
   * for an admin. Anything else is 404, so nobody learns which ids exist.
   */
  async function readableResult(caller: Caller, id: number): Promise<ResultRow> {
    const result = isDatabaseId(id) ? await findResult(db, id) : undefined
    if (!result) throw notFound()
    if (result.userId === caller.user.id) return result
    const role = roleOf(caller.groups)
    if (role === 'admin') return result
    if (role === 'profissional' && (await isSharedWith(db, result.id, caller.user.id))) return result
    throw notFound()
  }

  /** Only the owner manages a result's shares; others who can read it get 403, the rest 404. */
  async function ownedResult(caller: Caller, id: number): Promise<ResultRow> {
    const result = await readableResult(caller, id)
    if (result.userId !== caller.user.id) throw permissionDenied()
    return result
  }

  const shareList = async (resultId: number) => serializeShareList(resultId, await sharesOf(db, resultId), config.providerPublicUrl)

  // The question bank is public content, like the pillars: the app may show it before sign-in.
  api.endpoint('/questionnaire/', {
    GET: async (c) => c.json(await definition(undefined)),
  })

  // The "get" of docs/product.md §7: the questionnaire definition, the current one or `?version=` (old results
  // keep their own questions).
  api.endpoint('/questionnaire/get/', {
    GET: async (c) => {
      const version = c.req.query('version')?.trim()
      return c.json(await definition(version ? version : undefined))
    },
  })

  api.endpoint('/questionnaire/submit/', {
    POST: async (c) => {
      const { user } = await authenticateWithRole(c, services, 'paciente')
      const fields = await readFields(c.req.raw)
      const errors: Record<string, unknown> = {}

      // The current version, or the one it replaced within the grace period: a patient who started
      // before a new version was published keeps their answers, scored with their version's
      // questions (decision 0068).
      const version = fields.version
      const current = typeof version === 'string' && version.trim() !== '' ? await submittableVersion(db, version.trim(), clock()) : undefined
      if (version === undefined) errors.version = [REQUIRED]
      else if (version === null) errors.version = [NOT_NULL]
      else if (typeof version !== 'string') errors.version = ['Not a valid string.']
      else if (!current) {
        const latest = await currentVersion(db)
        errors.version = [`"${version}" is not the current questionnaire version${latest ? ` ("${latest.version}")` : ''}.`]
      }

      const raw = fields.answers
      let answers: Record<string, number> | undefined
      if (raw === undefined) errors.answers = [REQUIRED]
      else if (raw === null) errors.answers = [NOT_NULL]
      else if (typeof raw !== 'object' || Array.isArray(raw)) errors.answers = [`Expected a dictionary of items but got type "${pythonTypeName(raw)}".`]
      else if (Object.keys(raw).length > MAX_ANSWER_KEYS) errors.answers = [tooManyElements(MAX_ANSWER_KEYS)]
      else if (current && errors.version === undefined) {
        const questions = await questionsOf(db, current.version)
        const parsed = parseAnswers(
          questions.map((question) => question.code),
          raw as Record<string, unknown>,
        )
        if (parsed.ok) answers = parsed.answers
        else errors.answers = parsed.errors
      }
      if (Object.keys(errors).length > 0 || !answers || !current) throw new ApiError(400, errors)

      const questions = await questionsOf(db, current.version)
      const order = await pillarOrder()
      const { scores, focusPillars } = scoreSubmission(
        questions.map((question) => ({ code: question.code, pillar: question.pillarSlug, reverse: question.reverse })),
        answers,
        order,
      )
      const result = await insertResult(db, {
        userId: user.id,
        version: current.version,
        submittedAt: new Date(clock()),
        answers,
        scores,
        focusPillars,
      })
      return c.json(await fullResult(result), 201)
    },
  })

  api.endpoint('/questionnaire/results/', {
    GET: async (c) => {
      const { user } = await authenticateWithRole(c, services, 'paciente')
      const page = paginate(c, await countResultsOf(db, user.id))
      const [rows, order] = await Promise.all([resultsOf(db, user.id, page), pillarOrder()])
      return c.json(page.envelope(rows.map((row) => serializeResultSummary(row, order))))
    },
  })

  api.endpoint('/questionnaire/latest/', {
    GET: async (c) => {
      const { user } = await authenticateWithRole(c, services, 'paciente')
      const latest = await latestResultOf(db, user.id)
      if (!latest) throw notFound()
      return c.json(await fullResult(latest))
    },
  })

  api.endpoint('/questionnaire/trends/', {
    GET: async (c) => {
      const { user } = await authenticateWithRole(c, services, 'paciente')
      const [results, total, order] = await Promise.all([recentResultsOldestFirst(db, user.id, TREND_SUBMISSIONS), countResultsOf(db, user.id), pillarOrder()])
      return c.json(serializeTrends(results, total, order), 200, { 'Cache-Control': PRIVATE_NO_STORE })
    },
  })

  api.endpoint('/questionnaire/:id{[0-9]+}/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      const result = await readableResult(caller, idParam(c, 'id'))
      // A professional's or an admin's read of someone's result is kept in the audit log (decision 0059).
      await recordHealthViews(db, caller, [{ targetType: 'questionnaire_result', targetId: result.id, patientId: result.userId }], clock())
      return c.json(await fullResult(result))
    },
  })

  api.endpoint('/questionnaire/share/', {
    POST: async (c) => {
      const caller = await authenticate(c, services)
      const fields = await readFields(c.req.raw)
      const professionals = parseIdList(fields.professionals)
      const id = resultIdField.safeParse({ questionnaire: fields.questionnaire })
      const errors: Record<string, string[]> = {}
      if (!id.success) errors.questionnaire = [id.error.issues[0]!.message]
      if ('error' in professionals) errors.professionals = [professionals.error]
      if (!id.success || 'error' in professionals) throw validationError(errors)

      const result = await ownedResult(caller, id.data.questionnaire)
      const valid = await activeProfessionalIds(db, professionals.ids)
      const invalid = professionals.ids.filter((professionalId) => !valid.has(professionalId))
      if (invalid.length > 0) throw validationError({ professionals: invalid.map((professionalId) => `Invalid pk "${professionalId}" - object does not exist.`) })

      await addShares(db, result.id, professionals.ids, new Date(clock()))
      return c.json(await shareList(result.id))
    },
  })

  api.endpoint('/questionnaire/share/professionals/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      const { questionnaire } = validate(resultIdField, { questionnaire: c.req.query('questionnaire') })
      const result = await ownedResult(caller, questionnaire)
      return c.json(await shareList(result.id))
    },
  })

  api.endpoint('/questionnaire/share/remove/', {
    POST: async (c) => {
      const caller = await authenticate(c, services)
      const fields = await readFields(c.req.raw)
      const { questionnaire, professional } = validate(questionnaireProfessionalQuery, {
        questionnaire: fields.questionnaire,
        professional: fields.professional,
      })
      const result = await ownedResult(caller, questionnaire)
      // Removing a share that does not exist is not an error: the end state is what was asked.
      await removeShare(db, result.id, professional)
      return c.json(await shareList(result.id))
    },
  })

  api.endpoint('/questionnaire/shared-with-me/', {
    GET: async (c) => {
      const caller = await authenticateWithRole(c, services, 'profissional')
      const { user } = caller
      const patientParam = c.req.query('patient')
      const patientFilter = patientParam === undefined ? undefined : validate(patientQuery, { patient: patientParam }).patient
      const page = paginate(c, await countSharedWith(db, user.id, patientFilter))
      const [rows, order] = await Promise.all([sharedWith(db, user.id, { patientId: patientFilter, ...page }), pillarOrder()])
      await recordHealthViews(db, caller, rows.map((row) => ({ targetType: 'questionnaire_result', targetId: row.result.id, patientId: row.result.userId })), clock())
      return c.json(page.envelope(rows.map((row) => serializeSharedResult(row.result, row.patient, row.sharedAt, order))))
    },
  })
}
