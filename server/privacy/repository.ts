import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm'
import type { Database, Writer } from '#server/db/client.ts'
import {
  consentRecords,
  professionalPatients,
  professionalProfiles,
  questionnaireResults,
  questionnaireShares,
  users,
  type ConsentDocument,
  type ConsentSource,
  type CookieCategories,
} from '#server/db/schema.ts'
import { SIGNUP_DOCUMENT_VERSIONS, type ConsentRecordView } from '#server/privacy/consents.ts'

/**
 * The privacy area's reads and writes (decision 0060): the consent record, and who can see a
 * patient's results.
 */

type NewConsent = { userId: number; document: ConsentDocument; version: string; granted: boolean; source: ConsentSource; categories: CookieCategories | null; at: number }

/** Appends one record (the table refuses any change to it afterwards). */
export async function appendConsent(db: Writer, consent: NewConsent): Promise<ConsentRecordView> {
  const [row] = await db
    .insert(consentRecords)
    .values({ userId: consent.userId, document: consent.document, version: consent.version, granted: consent.granted, source: consent.source, categories: consent.categories, recordedAt: new Date(consent.at) })
    .returning()
  return row!
}

/** A registration's acceptance of the terms and the privacy policy in force (source "signup"). */
export async function recordSignupConsents(db: Writer, userId: number, at: number): Promise<void> {
  await db.insert(consentRecords).values(
    (['terms', 'privacy'] as const).map((document) => ({ userId, document, version: SIGNUP_DOCUMENT_VERSIONS[document], granted: true, source: 'signup' as const, categories: null, recordedAt: new Date(at) })),
  )
}

type ConsentRow = { id: number | string; document: ConsentDocument; version: string; granted: boolean; source: ConsentSource; categories: CookieCategories | null; recorded_at: Date | string }

const consentView = (row: ConsentRow): ConsentRecordView => ({
  id: Number(row.id),
  document: row.document,
  version: row.version,
  granted: row.granted,
  source: row.source,
  categories: row.categories,
  recordedAt: new Date(row.recorded_at),
})

/** Each document's latest record of the user (at most one per document). */
export async function latestConsentsOf(db: Pick<Database, 'execute'>, userId: number): Promise<ConsentRecordView[]> {
  const result = (await db.execute(
    sql`select distinct on (${consentRecords.document}) ${consentRecords.id} as id, ${consentRecords.document} as document, ${consentRecords.version} as version,
          ${consentRecords.granted} as granted, ${consentRecords.source} as source, ${consentRecords.categories} as categories, ${consentRecords.recordedAt} as recorded_at
        from ${consentRecords} where ${consentRecords.userId} = ${userId}
        order by ${consentRecords.document}, ${consentRecords.recordedAt} desc, ${consentRecords.id} desc`,
  )) as unknown as { rows: ConsentRow[] }
  return result.rows.map(consentView)
}

/**
 * What a user's current state is chosen from (consents.ts `currentConsents`): the latest record of
 * each document, version and answer, a few rows per document whatever the history's length.
 */
export async function consentCandidatesOf(db: Pick<Database, 'execute'>, userId: number): Promise<ConsentRecordView[]> {
  const result = (await db.execute(
    sql`select distinct on (${consentRecords.document}, ${consentRecords.version}, ${consentRecords.granted}) ${consentRecords.id} as id, ${consentRecords.document} as document,
          ${consentRecords.version} as version, ${consentRecords.granted} as granted, ${consentRecords.source} as source, ${consentRecords.categories} as categories, ${consentRecords.recordedAt} as recorded_at
        from ${consentRecords} where ${consentRecords.userId} = ${userId}
        order by ${consentRecords.document}, ${consentRecords.version}, ${consentRecords.granted}, ${consentRecords.recordedAt} desc, ${consentRecords.id} desc`,
  )) as unknown as { rows: ConsentRow[] }
  return result.rows.map(consentView)
}

export async function countConsentsOf(db: Database, userId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(consentRecords).where(eq(consentRecords.userId, userId))
  return Number(row?.total ?? 0)
}

/** A page of the user's records, newest first. */
export async function consentHistoryOf(db: Database, userId: number, { limit, offset }: { limit: number; offset: number }): Promise<ConsentRecordView[]> {
  return db.select().from(consentRecords).where(eq(consentRecords.userId, userId)).orderBy(desc(consentRecords.recordedAt), desc(consentRecords.id)).limit(limit).offset(offset)
}

/** One professional who can see something of a patient's results: the results shared with them, and the care link a booking made. */
type ResultViewer = {
  professional: { id: number; firstName: string; lastName: string; photoName: string | null; profession: string | null }
  /** The results shared with them (newest first), when each was shared. */
  results: { resultId: number; submittedAt: Date; sharedAt: Date }[]
  /** Since when they follow the patient (their program's summary and profile): the first booking; null when they do not. */
  careLinkSince: Date | null
}

/** At most this many shared results are listed per professional (the newest); the revocation takes them all. */
const MAX_RESULTS_PER_VIEWER = 50

/**
 * Every professional who can see the patient's results (docs/product.md §6): a result shared
 * with them, or the care link a booking made (their program's summary). By name.
 */
export async function resultViewersOf(db: Database, patientId: number): Promise<ResultViewer[]> {
  const shared = await db
    .select({ professionalId: questionnaireShares.professionalId, resultId: questionnaireResults.id, submittedAt: questionnaireResults.submittedAt, sharedAt: questionnaireShares.createdAt })
    .from(questionnaireShares)
    .innerJoin(questionnaireResults, eq(questionnaireResults.id, questionnaireShares.resultId))
    .where(eq(questionnaireResults.userId, patientId))
    .orderBy(desc(questionnaireResults.submittedAt), desc(questionnaireResults.id))
  const links = await db.select({ professionalId: professionalPatients.professionalId, since: professionalPatients.createdAt }).from(professionalPatients).where(eq(professionalPatients.patientId, patientId))
  const ids = [...new Set([...shared.map((row) => row.professionalId), ...links.map((row) => row.professionalId)])]
  if (ids.length === 0) return []
  const people = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, photoName: users.photoName, profession: professionalProfiles.profession })
    .from(users)
    .leftJoin(professionalProfiles, eq(professionalProfiles.userId, users.id))
    .where(inArray(users.id, ids))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id))
  return people.map((professional) => ({
    professional,
    results: shared
      .filter((row) => row.professionalId === professional.id)
      .slice(0, MAX_RESULTS_PER_VIEWER)
      .map(({ resultId, submittedAt, sharedAt }) => ({ resultId, submittedAt, sharedAt })),
    careLinkSince: links.find((row) => row.professionalId === professional.id)?.since ?? null,
  }))
}

/**
 * Stops one professional seeing the patient's results: every share of the patient's results with
 * them and the care link go, in one transaction. Counts what went (nothing: none to revoke).
 */
export async function revokeViewer(db: Database, patientId: number, professionalId: number): Promise<{ shares: number; careLink: boolean }> {
  return db.transaction(async (tx) => {
    const shares = await tx
      .delete(questionnaireShares)
      .where(
        and(
          eq(questionnaireShares.professionalId, professionalId),
          inArray(questionnaireShares.resultId, tx.select({ id: questionnaireResults.id }).from(questionnaireResults).where(eq(questionnaireResults.userId, patientId))),
        ),
      )
      .returning({ resultId: questionnaireShares.resultId })
    const links = await tx
      .delete(professionalPatients)
      .where(and(eq(professionalPatients.professionalId, professionalId), eq(professionalPatients.patientId, patientId)))
      .returning({ patientId: professionalPatients.patientId })
    return { shares: shares.length, careLink: links.length > 0 }
  })
}
