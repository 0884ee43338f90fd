import { eq, inArray, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { appointments, professionalProfiles, users, type LocalizedText } from '#server/db/schema.ts'
import { meetingTimeIn, TEXT_LANGUAGES, zoneOr, type TextLanguage } from '#server/zones.ts'
import type { PurchaseItemRow } from '#server/purchases/repository.ts'

/**
 * A consultation's line on its purchase (decision 0051) as each reader reads it (decision 0077):
 * "Consulta com Inês Marques, 7 de dezembro de 2026, 10:50", in the reader's time zone, the zone
 * named when it is not the professional's. The line is composed when it is read, from the
 * appointment the purchase pays (its start now, a reschedule included) and its professional, for
 * the caller of the API, the buyer of an e-mail or the owner of a data export. The name stored on
 * the line is the booking's text in the patient's zone (Stripe's page shows it); it is what a line
 * says whose appointment is gone (deleted by an admin, or a booking undone when Stripe was away).
 */

type Reader = Pick<Database, 'select'>

/** What a consultation's line is composed from. */
export type LineConsultation = {
  appointmentId: number
  startsAt: Date
  professionalId: number
  professional: string
  /** The professional's zone: their schedule's, as the appointment's `time_zone`. */
  timeZone: string
}

const WORDS: Record<TextLanguage, string> = { pt: 'Consulta com', en: 'Consultation with', es: 'Consulta con' }

/** The line's name in each language, in `readerZone`: whom and when, the zone named when it is not the professional's. */
export function consultationLineName({ professional, startsAt, timeZone }: Pick<LineConsultation, 'professional' | 'startsAt' | 'timeZone'>, readerZone: string): LocalizedText {
  const reader = zoneOr(readerZone)
  const otherZone = zoneOr(timeZone)
  const line = (language: TextLanguage) => `${WORDS[language]} ${professional}, ${meetingTimeIn(startsAt, { readerZone: reader, otherZone, language })}`
  return Object.fromEntries(TEXT_LANGUAGES.map((language) => [language, line(language)])) as LocalizedText
}

/** The appointments the purchases pay (one at most each), by purchase id. */
async function consultationsOf(db: Reader, purchaseIds: readonly number[]): Promise<Map<number, LineConsultation>> {
  const ids = [...new Set(purchaseIds)]
  if (ids.length === 0) return new Map()
  const rows = await db
    .select({
      purchaseId: appointments.purchaseId,
      appointmentId: appointments.id,
      startsAt: appointments.startTime,
      professionalId: appointments.professionalId,
      firstName: users.firstName,
      lastName: users.lastName,
      timeZone: sql<string>`coalesce(${professionalProfiles.timeZone}, ${users.timeZone})`,
    })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.professionalId))
    .leftJoin(professionalProfiles, eq(professionalProfiles.userId, appointments.professionalId))
    .where(inArray(appointments.purchaseId, ids))
  return new Map(
    rows.flatMap((row) =>
      row.purchaseId === null
        ? []
        : [[row.purchaseId, { appointmentId: row.appointmentId, startsAt: row.startsAt, professionalId: row.professionalId, professional: `${row.firstName} ${row.lastName}`.trim(), timeZone: row.timeZone }]],
    ),
  )
}

/** A purchase's line as it is read: its name for this reader, and for a consultation what it is composed from. */
export type ReadItem<Item extends Pick<PurchaseItemRow, 'purchaseId' | 'productType' | 'name'> = PurchaseItemRow> = Item & { consultation: LineConsultation | null }

/** The lines with each consultation's name composed in `readerZone` (the other lines as stored). */
export async function readItems<Item extends Pick<PurchaseItemRow, 'purchaseId' | 'productType' | 'name'>>(db: Reader, items: readonly Item[], readerZone: string): Promise<ReadItem<Item>[]> {
  const found = await consultationsOf(
    db,
    items.flatMap((item) => (item.productType === 'consultation' ? [item.purchaseId] : [])),
  )
  return items.map((item) => {
    const consultation = item.productType === 'consultation' ? (found.get(item.purchaseId) ?? null) : null
    return { ...item, name: consultation ? consultationLineName(consultation, readerZone) : item.name, consultation }
  })
}

/** A reader's zone as users.time_zone keeps it. */
export async function timeZoneOfUser(db: Reader, userId: number): Promise<string> {
  const [row] = await db.select({ timeZone: users.timeZone }).from(users).where(eq(users.id, userId))
  return zoneOr(row?.timeZone)
}
