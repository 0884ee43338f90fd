import { Readable, pipeline, PassThrough } from 'node:stream'
import { stringify } from 'csv-stringify'
import { and, asc, eq, gt, inArray, or, sql } from 'drizzle-orm'
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core'
import { ZipFile } from 'yazl'
import type { Database } from '#server/db/client.ts'
import { errorFields, type Logger } from '#server/log.ts'
import {
  appointments,
  calendarConnections,
  calendarFeeds,
  carts,
  consentRecords,
  courses,
  habitEntries,
  habits,
  lessonProgress,
  lessons,
  products,
  professionalPatients,
  professionalProfiles,
  programGoals,
  programs,
  purchaseItems,
  purchases,
  questionnaireResults,
  questionnaireShares,
  conversations,
  messageAttachments,
  messages,
  subscriptions,
  users,
} from '#server/db/schema.ts'
import { readItems, timeZoneOfUser } from '#server/purchases/consultation-lines.ts'
import { groupNamesOf } from '#server/users/repository.ts'
import { serializeProfile } from '#server/users/serializers.ts'
import {
  ANSWER_COLUMNS,
  ATTACHMENTS_FOLDER,
  answerCsvRows,
  APPOINTMENT_COLUMNS,
  appointmentCsvRow,
  assessmentJson,
  CONSENT_COLUMNS,
  consentCsvRow,
  CSV_OPTIONS,
  HABIT_COLUMNS,
  HABIT_ENTRY_COLUMNS,
  habitCsvRow,
  habitEntryCsvRow,
  jsonArrayChunk,
  jsonArrayEnd,
  PROGRESS_COLUMNS,
  progressCsvRow,
  programJson,
  PURCHASE_COLUMNS,
  purchaseCsvRow,
  readme,
  SHARE_COLUMNS,
  MESSAGE_COLUMNS,
  messageCsvRow,
  shareCsvRow,
  SUBSCRIPTION_COLUMNS,
  subscriptionCsvRow,
  type ExportFile,
  type ExportLanguage,
  type StoredShare,
} from '#server/privacy/export-files.ts'

/**
 * The data export (LGPD art. 18 II and V; decision 0060): one ZIP of JSON and CSV files, streamed
 * as it is made. Every table is read in keyset-paginated batches (`batchSize` rows a query, the
 * next batch only when the ZIP asks for more), each file written and compressed as its rows
 * arrive (csv-stringify, yazl), so memory holds a batch or so whatever the history's size.
 */

const EXPORT_BATCH_SIZE = 500

type ExportOptions = {
  language: ExportLanguage
  now: number
  photoBase: string
  batchSize?: number
  /** Told each batch read (file, rows): for tests that the export reads in bounded batches. */
  onBatch?: (file: ExportFile, rows: number) => void
  /** Where a failure midway is told (the answer has started: the download just stops, and the ZIP does not open). */
  log?: Logger
}

/** Reads a table in batches after a key: `fetch(after, limit)` returns the rows after `after`, in key order. */
async function* batches<Row, Key>(fetch: (after: Key | undefined, limit: number) => Promise<Row[]>, keyOf: (row: Row) => Key, size: number): AsyncGenerator<Row[]> {
  let after: Key | undefined
  for (;;) {
    const rows = await fetch(after, size)
    if (rows.length > 0) yield rows
    if (rows.length < size) return
    after = keyOf(rows.at(-1)!)
  }
}

/** Only the rows after `after` on the id column, when there is an `after`. */
const afterId = (column: AnyPgColumn, after: number | undefined) => (after === undefined ? undefined : gt(column, after))

/**
 * The export's ZIP as a stream. The files are added lazily: a file's query starts when the ZIP
 * reaches it, and a batch is read when the compressor wants more.
 */
export function exportStream(db: Database, userId: number, options: ExportOptions): Readable {
  const size = options.batchSize ?? EXPORT_BATCH_SIZE
  const zip = new ZipFile()
  const output = zip.outputStream as Readable
  const mtime = new Date(options.now)
  const sources = new Set<Readable>()
  let failed = false
  const fail = (error: unknown) => {
    if (failed) return
    failed = true
    options.log?.({ level: 'error', msg: 'data export failed', user_id: userId, ...errorFields(error) })
    for (const source of sources) source.destroy()
    output.destroy(error instanceof Error ? error : new Error(String(error)))
  }
  // The reader went away: whatever is still being read stops.
  output.once('close', () => {
    for (const source of sources) source.destroy()
  })
  zip.on('error', fail)

  /** A file whose content comes from `make()`: its streams, first to last, started when the ZIP reaches the file. */
  const add = (file: ExportFile, make: () => [Readable, ...NodeJS.ReadWriteStream[]]) =>
    zip.addReadStreamLazy(file, { mtime }, (callback) => {
      const body = new PassThrough()
      const [source, ...rest] = make()
      sources.add(source)
      // An error anywhere in the chain (a query failing midway) fails the whole ZIP: never a partial file that looks whole.
      pipeline([source, ...rest, body], (error) => {
        sources.delete(source)
        if (error) fail(error)
      })
      callback(null, body)
    })

  /** A CSV file from batches of stored rows, each mapped to its CSV rows. */
  const csv = <Row, Out>(file: ExportFile, columns: { key: string }[], rows: () => AsyncGenerator<Row[]>, toCsv: (row: Row) => Out | Out[]) =>
    add(file, () => {
      const source = Readable.from(
        (async function* () {
          for await (const batch of rows()) {
            options.onBatch?.(file, batch.length)
            for (const row of batch) {
              const mapped = toCsv(row)
              if (Array.isArray(mapped)) yield* mapped
              else yield mapped
            }
          }
        })(),
      )
      return [source, stringify({ ...CSV_OPTIONS, columns })]
    })

  /** A JSON array file from batches, each row mapped to its value. */
  const jsonArray = <Row>(file: ExportFile, rows: () => AsyncGenerator<Row[]>, toJson: (batch: Row[]) => Promise<unknown[]> | unknown[]) =>
    add(file, () => [
      Readable.from(
        (async function* () {
          let count = 0
          for await (const batch of rows()) {
            options.onBatch?.(file, batch.length)
            for (const value of await toJson(batch)) yield Buffer.from(jsonArrayChunk(value, count++))
          }
          yield Buffer.from(jsonArrayEnd(count))
        })(),
      ),
    ])

  add('LEIA-ME.txt', () => [Readable.from([Buffer.from(readme(options.language, options.now))])])
  add('profile.json', () => [
    Readable.from(
      (async function* () {
        yield Buffer.from(`${JSON.stringify(await profileOf(db, userId, options), null, 2)}\n`)
      })(),
    ),
  ])

  csv(
    'consents.csv',
    CONSENT_COLUMNS,
    () => batches((after: number | undefined, limit) => db.select().from(consentRecords).where(and(eq(consentRecords.userId, userId), afterId(consentRecords.id, after))).orderBy(asc(consentRecords.id)).limit(limit), (row) => row.id, size),
    consentCsvRow,
  )

  const results = () =>
    batches(
      (after: number | undefined, limit) => db.select().from(questionnaireResults).where(and(eq(questionnaireResults.userId, userId), afterId(questionnaireResults.id, after))).orderBy(asc(questionnaireResults.id)).limit(limit),
      (row) => row.id,
      size,
    )
  jsonArray('assessments.json', results, (batch) => batch.map(assessmentJson))
  csv('assessment_answers.csv', ANSWER_COLUMNS, results, answerCsvRows)

  jsonArray(
    'program.json',
    () => batches((after: number | undefined, limit) => db.select().from(programs).where(and(eq(programs.userId, userId), afterId(programs.id, after))).orderBy(asc(programs.id)).limit(limit), (row) => row.id, size),
    async (batch) => {
      const goals = await db
        .select()
        .from(programGoals)
        .where(inArray(programGoals.programId, batch.map((program) => program.id)))
        .orderBy(asc(programGoals.programId), asc(programGoals.week), asc(programGoals.position))
      return batch.map((program) => programJson(program, goals))
    },
  )

  const other = alias(users, 'other')
  csv(
    'appointments.csv',
    APPOINTMENT_COLUMNS,
    () =>
      batches(
        (after: number | undefined, limit) =>
          db
            .select({
              id: appointments.id,
              patientId: appointments.patientId,
              status: appointments.status,
              startTime: appointments.startTime,
              endTime: appointments.endTime,
              notes: appointments.notes,
              sharedNotes: appointments.sharedNotes,
              privateNotes: appointments.privateNotes,
              priceCents: appointments.priceCents,
              paymentReference: appointments.paymentReference,
              createdAt: appointments.createdAt,
              cancelledAt: appointments.cancelledAt,
              cancelledBy: appointments.cancelledBy,
              refund: appointments.refund,
              otherFirstName: other.firstName,
              otherLastName: other.lastName,
            })
            .from(appointments)
            .innerJoin(other, sql`${other.id} = case when ${appointments.patientId} = ${userId} then ${appointments.professionalId} else ${appointments.patientId} end`)
            .where(and(or(eq(appointments.patientId, userId), eq(appointments.professionalId, userId)), afterId(appointments.id, after)))
            .orderBy(asc(appointments.id))
            .limit(limit),
        (row) => row.id,
        size,
      ),
    (row) => appointmentCsvRow(row, userId),
  )

  csv(
    'habits.csv',
    HABIT_COLUMNS,
    () => batches((after: number | undefined, limit) => db.select().from(habits).where(and(eq(habits.userId, userId), afterId(habits.id, after))).orderBy(asc(habits.id)).limit(limit), (row) => row.id, size),
    habitCsvRow,
  )

  csv(
    'habit_entries.csv',
    HABIT_ENTRY_COLUMNS,
    () =>
      batches(
        (after: { habitId: number; date: string } | undefined, limit) =>
          db
            .select({ habitId: habitEntries.habitId, date: habitEntries.date, status: habitEntries.status, amount: habitEntries.amount, updatedAt: habitEntries.updatedAt })
            .from(habitEntries)
            .innerJoin(habits, eq(habits.id, habitEntries.habitId))
            .where(and(eq(habits.userId, userId), after ? sql`(${habitEntries.habitId}, ${habitEntries.date}) > (${after.habitId}, ${after.date})` : undefined))
            .orderBy(asc(habitEntries.habitId), asc(habitEntries.date))
            .limit(limit),
        (row) => ({ habitId: row.habitId, date: row.date }),
        size,
      ),
    habitEntryCsvRow,
  )

  let timeZone: string | undefined
  csv(
    'purchases.csv',
    PURCHASE_COLUMNS,
    async function* () {
      for await (const batch of batches(
        (after: number | undefined, limit) => db.select().from(purchases).where(and(eq(purchases.userId, userId), afterId(purchases.id, after))).orderBy(asc(purchases.id)).limit(limit),
        (row) => row.id,
        size,
      )) {
        const stored = await db
          .select({ purchaseId: purchaseItems.purchaseId, productType: purchaseItems.productType, name: purchaseItems.name, quantity: purchaseItems.quantity, lineCents: purchaseItems.lineCents })
          .from(purchaseItems)
          .where(inArray(purchaseItems.purchaseId, batch.map((purchase) => purchase.id)))
          .orderBy(asc(purchaseItems.id))
        // A consultation's line in the user's own time zone, as their purchase's page says it (decision 0077).
        const items = await readItems(db, stored, (timeZone ??= await timeZoneOfUser(db, userId)))
        yield batch.map((purchase) => ({ ...purchase, items: items.filter((item) => item.purchaseId === purchase.id) }))
      }
    },
    purchaseCsvRow,
  )

  csv(
    'subscriptions.csv',
    SUBSCRIPTION_COLUMNS,
    () =>
      batches(
        (after: number | undefined, limit) =>
          db
            .select({
              id: subscriptions.id,
              planSlug: products.slug,
              method: subscriptions.method,
              status: subscriptions.status,
              priceCents: subscriptions.priceCents,
              currentPeriodStart: subscriptions.currentPeriodStart,
              currentPeriodEnd: subscriptions.currentPeriodEnd,
              cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
              createdAt: subscriptions.createdAt,
              endedAt: subscriptions.endedAt,
              endedReason: subscriptions.endedReason,
            })
            .from(subscriptions)
            .innerJoin(products, eq(products.id, subscriptions.productId))
            .where(and(eq(subscriptions.userId, userId), afterId(subscriptions.id, after)))
            .orderBy(asc(subscriptions.id))
            .limit(limit),
        (row) => row.id,
        size,
      ),
    subscriptionCsvRow,
  )

  csv(
    'course_progress.csv',
    PROGRESS_COLUMNS,
    () =>
      batches(
        (after: number | undefined, limit) =>
          db
            .select({
              lessonId: lessonProgress.lessonId,
              courseSlug: courses.slug,
              lessonSlug: lessons.slug,
              lessonNumber: lessons.number,
              positionMs: lessonProgress.positionMs,
              watchedMs: lessonProgress.watchedMs,
              completedAt: lessonProgress.completedAt,
              updatedAt: lessonProgress.updatedAt,
            })
            .from(lessonProgress)
            .innerJoin(lessons, eq(lessons.id, lessonProgress.lessonId))
            .innerJoin(courses, eq(courses.id, lessons.courseId))
            .where(and(eq(lessonProgress.userId, userId), afterId(lessonProgress.lessonId, after)))
            .orderBy(asc(lessonProgress.lessonId))
            .limit(limit),
        (row) => row.lessonId,
        size,
      ),
    progressCsvRow,
  )

  const professional = alias(users, 'professional')
  csv(
    'shares.csv',
    SHARE_COLUMNS,
    async function* (): AsyncGenerator<StoredShare[]> {
      for await (const batch of batches(
        (after: { resultId: number; professionalId: number } | undefined, limit) =>
          db
            .select({ resultId: questionnaireShares.resultId, professionalId: questionnaireShares.professionalId, firstName: professional.firstName, lastName: professional.lastName, since: questionnaireShares.createdAt })
            .from(questionnaireShares)
            .innerJoin(questionnaireResults, eq(questionnaireResults.id, questionnaireShares.resultId))
            .innerJoin(professional, eq(professional.id, questionnaireShares.professionalId))
            .where(and(eq(questionnaireResults.userId, userId), after ? sql`(${questionnaireShares.resultId}, ${questionnaireShares.professionalId}) > (${after.resultId}, ${after.professionalId})` : undefined))
            .orderBy(asc(questionnaireShares.resultId), asc(questionnaireShares.professionalId))
            .limit(limit),
        (row) => ({ resultId: row.resultId, professionalId: row.professionalId }),
        size,
      )) {
        yield batch.map((row) => ({ kind: 'result' as const, ...row }))
      }
      // Care links: one per professional the user booked with (a handful).
      const links = await db
        .select({ professionalId: professionalPatients.professionalId, firstName: professional.firstName, lastName: professional.lastName, since: professionalPatients.createdAt })
        .from(professionalPatients)
        .innerJoin(professional, eq(professional.id, professionalPatients.professionalId))
        .where(eq(professionalPatients.patientId, userId))
        .orderBy(asc(professionalPatients.professionalId))
      if (links.length > 0) yield links.map((row) => ({ kind: 'care_link' as const, resultId: null, ...row }))
    },
    shareCsvRow,
  )

  // Both sides of each conversation: a message is the conversation's two people's (decision 0085).
  const correspondent = alias(users, 'correspondent')
  csv(
    'messages.csv',
    MESSAGE_COLUMNS,
    () =>
      withAttachmentPaths(
        batches(
        (after: number | undefined, limit) =>
          db
            .select({
              id: messages.id,
              conversationId: messages.conversationId,
              senderId: messages.senderId,
              body: messages.body,
              createdAt: messages.createdAt,
              deletedAt: messages.deletedAt,
              otherFirstName: correspondent.firstName,
              otherLastName: correspondent.lastName,
            })
            .from(messages)
            .innerJoin(conversations, eq(conversations.id, messages.conversationId))
            .innerJoin(correspondent, sql`${correspondent.id} = case when ${conversations.patientId} = ${userId} then ${conversations.professionalId} else ${conversations.patientId} end`)
            .where(and(or(eq(conversations.patientId, userId), eq(conversations.professionalId, userId)), afterId(messages.id, after)))
            .orderBy(asc(messages.id))
            .limit(limit),
        (row) => row.id,
        size,
        ),
      ),
    (row) => messageCsvRow(row, userId),
  )

  /** The ZIP paths of a batch of messages' files (in messages.csv's `attachments` column). */
  async function* withAttachmentPaths<Row extends { id: number }>(rows: AsyncGenerator<Row[]>): AsyncGenerator<(Row & { attachments: string[] })[]> {
    for await (const batch of rows) {
      const files = batch.length === 0 ? [] : await db.select(ATTACHMENT_LISTING).from(messageAttachments).where(inArray(messageAttachments.messageId, batch.map((row) => row.id))).orderBy(asc(messageAttachments.messageId), asc(messageAttachments.position))
      yield batch.map((row) => ({ ...row, attachments: files.filter((file) => file.messageId === row.id).map(attachmentExportPath) }))
    }
  }

  // The files sent in the user's conversations, by either of the two (as messages.csv has both sides;
  // decision 0086), each under anexos/ and read from the database when the ZIP reaches it. They are
  // listed in batches first (names and sizes only), so the ZIP ends only once all are added.
  const addAttachments = async () => {
    for await (const batch of batches(
      (after: number | undefined, limit) =>
        db
          .select(ATTACHMENT_LISTING)
          .from(messageAttachments)
          .innerJoin(conversations, eq(conversations.id, messageAttachments.conversationId))
          .where(and(or(eq(conversations.patientId, userId), eq(conversations.professionalId, userId)), afterId(messageAttachments.id, after)))
          .orderBy(asc(messageAttachments.id))
          .limit(limit),
      (row) => row.id,
      size,
    )) {
      for (const file of batch) {
        // Already compressed (images, PDFs): stored as they are.
        zip.addReadStreamLazy(attachmentExportPath(file), { mtime, compress: false }, (callback) => {
          db.select({ bytes: messageAttachments.bytes })
            .from(messageAttachments)
            .where(eq(messageAttachments.id, file.id))
            .then(([row]) => {
              const source = Readable.from([row?.bytes ?? Buffer.alloc(0)])
              sources.add(source)
              source.once('close', () => sources.delete(source))
              callback(null, source)
            }, fail)
        })
      }
    }
  }
  addAttachments().then(() => zip.end(), fail)
  return output
}

const ATTACHMENT_LISTING = { id: messageAttachments.id, messageId: messageAttachments.messageId, position: messageAttachments.position, name: messageAttachments.name }

/** Where a message's file is in the ZIP: anexos/{message id}-{its place, from 1}-{its name}. */
export const attachmentExportPath = (file: { messageId: number; position: number; name: string }) => `${ATTACHMENTS_FOLDER}${file.messageId}-${file.position + 1}-${file.name}`

/** profile.json: the account, its profile, and the small things attached to it. */
async function profileOf(db: Database, userId: number, { now, photoBase }: ExportOptions) {
  const [user] = await db.select().from(users).where(eq(users.id, userId))
  if (!user) throw new Error(`no user ${userId}`)
  const [groupNames, profile, connection, feed, cart] = await Promise.all([
    groupNamesOf(db, userId),
    db.select().from(professionalProfiles).where(eq(professionalProfiles.userId, userId)),
    db.select({ googleEmail: calendarConnections.googleEmail, connectedAt: calendarConnections.connectedAt, lastSyncAt: calendarConnections.lastSyncAt }).from(calendarConnections).where(eq(calendarConnections.userId, userId)),
    db.select({ createdAt: calendarFeeds.createdAt }).from(calendarFeeds).where(eq(calendarFeeds.userId, userId)),
    db.select().from(carts).where(eq(carts.userId, userId)),
  ])
  const professionalProfile = profile[0]
  return {
    exported_at: new Date(now).toISOString(),
    user: { ...serializeProfile(user, groupNames, photoBase), last_login: user.lastLogin?.toISOString() ?? null },
    professional_profile: professionalProfile
      ? {
          profession: professionalProfile.profession,
          registration_number: professionalProfile.registrationNumber,
          pillars: professionalProfile.pillars,
          languages: professionalProfile.languages,
          consultation_minutes: professionalProfile.consultationMinutes,
          price_cents: professionalProfile.priceCents,
          time_zone: professionalProfile.timeZone,
          availability: professionalProfile.availability,
          accredited: professionalProfile.accredited,
        }
      : null,
    google_calendar: connection[0] ? { google_email: connection[0].googleEmail, connected_at: connection[0].connectedAt.toISOString(), last_sync: connection[0].lastSyncAt?.toISOString() ?? null } : null,
    calendar_feed: feed[0] ? { created_at: feed[0].createdAt.toISOString() } : null,
    cart: cart[0] ? { items: cart[0].lines, updated_at: cart[0].updatedAt.toISOString() } : null,
  }
}
