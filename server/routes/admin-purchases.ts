import { Readable, pipeline } from 'node:stream'
import { stringify } from 'csv-stringify'
import { z } from 'zod'
import { authenticateWithRole, type Caller } from '#server/auth/authenticate.ts'
import { addDays, localDateOf, startOfLocalDay } from '#server/dates.ts'
import { PURCHASE_METHODS, PURCHASE_STATUSES } from '#server/db/schema.ts'
import { idParam, type Api, type AppContext } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { notFound, validationError } from '#server/http/errors.ts'
import { charField, choiceField, dateField, timeZoneField, validate } from '#server/http/fields.ts'
import { paginate, PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import { errorFields } from '#server/log.ts'
import {
  adminPurchasesAfter,
  adminPurchasesPage,
  adminRefundEntries,
  consultationCancelledBy,
  countAdminPurchases,
  findBuyer,
  namesOf,
  webhookDeliveriesOf,
  type AdminPurchaseFilter,
} from '#server/purchases/admin-queries.ts'
import { refundAsAdmin } from '#server/billing/admin-refund.ts'
import { CSV_COLUMNS, csvRow, refundAuthor, serializeAdminPurchase, serializeAdminPurchaseDetail } from '#server/purchases/admin-serializers.ts'
import { readItems } from '#server/purchases/consultation-lines.ts'
import { mismatchesOf } from '#server/purchases/mismatches.ts'
import { refundQuoteOf } from '#server/purchases/refunds.ts'
import { BUSINESS_TIME_ZONE } from '#server/purchases/refund-rules.ts'
import { appointmentIdOf, findPurchase, itemsOf, refundsOf, transitionsOf, type PurchaseRow } from '#server/purchases/repository.ts'
import type { Services } from '#server/services.ts'

const PRIVATE = { 'Cache-Control': PRIVATE_NO_STORE }
/** Rows the export reads at a time: the memory it holds whatever the list's length. */
export const EXPORT_BATCH = 500
/** The longest search: an e-mail address (254) is the longest thing worth typing. */
const MAX_SEARCH = 254

const optional = <Schema extends z.ZodType>(schema: Schema) => z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional())

const filterSchema = z.object({
  status: optional(choiceField(PURCHASE_STATUSES)),
  method: optional(choiceField(PURCHASE_METHODS)),
  from: optional(dateField()),
  to: optional(dateField()),
  search: optional(charField({ maxLength: MAX_SEARCH })),
  tz: optional(timeZoneField()),
})

const refundSchema = z.object({ reason: charField({ maxLength: 500 }) })

/**
 * The list's filters from the query: a status and a method from their lists, `from` and `to`
 * dates bounding when purchases were made, both days included, and a search in the buyer's e-mail
 * or name, or a purchase's number. The dates are the days of `tz` (the admin's zone, decision
 * 0077), São Paulo's (the shop's) without it. Anything else is a 400, DRF-style.
 */
function filterOf(c: AppContext): AdminPurchaseFilter & { timeZone: string } {
  const query = validate(filterSchema, { status: c.req.query('status'), method: c.req.query('method'), from: c.req.query('from'), to: c.req.query('to'), search: c.req.query('search'), tz: c.req.query('tz') })
  if (query.from && query.to && query.to < query.from) throw validationError({ to: ['The end date must not be before the start date.'] })
  const timeZone = query.tz ?? BUSINESS_TIME_ZONE
  return {
    status: query.status,
    method: query.method,
    from: query.from ? startOfLocalDay(query.from, timeZone) : undefined,
    to: query.to ? startOfLocalDay(addDays(query.to, 1), timeZone) : undefined,
    search: query.search,
    timeZone,
  }
}

/**
 * The admin console's purchases (issue 26, decision 0061; docs/product.md §7): every buyer's
 * purchases, one purchase's whole history, an admin's refund under the terms' rules with its
 * reason audited, and the list as CSV. Admins only (anyone else 401/403); every answer private,
 * no-store.
 */
export function registerAdminPurchaseRoutes(api: Api, services: Services): void {
  const { db, clock, config, log } = services

  /** One purchase, its consultation's line in the admin's time zone (decision 0077). */
  async function detail(c: AppContext, caller: Caller, purchase: PurchaseRow) {
    const [buyer, items, transitions, refunds, appointmentId] = await Promise.all([
      findBuyer(db, purchase.userId),
      itemsOf(db, [purchase.id]),
      transitionsOf(db, purchase.id),
      refundsOf(db, purchase.id),
      purchase.holdsTime ? appointmentIdOf(db, purchase.id) : null,
    ])
    const [quote, deliveries, adminEntries, cancelledBy, mismatches] = await Promise.all([
      refundQuoteOf(services, purchase, items, clock()),
      webhookDeliveriesOf(db, purchase, { fakeStripe: config.fakeStripe }),
      adminRefundEntries(db, purchase.id, appointmentId),
      purchase.holdsTime ? consultationCancelledBy(db, purchase.id) : null,
      mismatchesOf(db, purchase.id),
    ])
    const names = await namesOf(db, adminEntries.flatMap((entry) => (entry.actorId === null ? [] : [entry.actorId])))
    const authors = { buyer: buyer!, adminEntries, consultationCancelledBy: cancelledBy, names }
    return c.json(
      serializeAdminPurchaseDetail(purchase, {
        buyer: buyer!,
        items: await readItems(db, items, caller.user.timeZone),
        transitions,
        deliveries,
        refunds: refunds.map((row) => ({ row, by: refundAuthor(row, authors) })),
        quote,
        appointmentId,
        mismatches,
      }),
      200,
      PRIVATE,
    )
  }

  api.endpoint('/admin/purchases/', {
    GET: async (c) => {
      const caller = await authenticateWithRole(c, services, 'admin')
      const filter = filterOf(c)
      const page = paginate(c, await countAdminPurchases(db, filter))
      const rows = await adminPurchasesPage(db, filter, page)
      const items = await readItems(db, await itemsOf(db, rows.map((row) => row.purchase.id)), caller.user.timeZone)
      return c.json(page.envelope(rows.map((row) => serializeAdminPurchase(row, items.filter((item) => item.purchaseId === row.purchase.id)))), 200, PRIVATE)
    },
  })

  api.endpoint('/admin/purchases/:id{[0-9]+}/', {
    GET: async (c) => {
      const caller = await authenticateWithRole(c, services, 'admin')
      const purchase = await findPurchase(db, idParam(c, 'id'))
      if (!purchase) throw notFound()
      return detail(c, caller, purchase)
    },
  })

  api.endpoint('/admin/purchases/:id{[0-9]+}/refund/', {
    POST: async (c) => {
      const caller = await authenticateWithRole(c, services, 'admin')
      const id = idParam(c, 'id')
      const { reason } = validate(refundSchema, await readFields(c.req.raw))
      return detail(c, caller, await refundAsAdmin(services, caller, id, reason))
    },
  })

  // The list as CSV, read in keyset batches and written as it is read: any length, the same memory.
  api.endpoint('/admin/purchases/export/', {
    GET: async (c) => {
      const caller = await authenticateWithRole(c, services, 'admin')
      const filter = filterOf(c)
      async function* records() {
        yield [...CSV_COLUMNS]
        let after: number | undefined
        for (;;) {
          const batch = await adminPurchasesAfter(db, filter, after, EXPORT_BATCH)
          const items = await readItems(db, await itemsOf(db, batch.map((row) => row.purchase.id)), caller.user.timeZone)
          for (const row of batch) yield csvRow(row, items.filter((item) => item.purchaseId === row.purchase.id))
          if (batch.length < EXPORT_BATCH) return
          after = batch.at(-1)!.purchase.id
        }
      }
      // A UTF-8 BOM (spreadsheets then read the accents right), CRLF records (RFC 4180), and a
      // cell starting with = + - @ or a tab made text, so no spreadsheet runs it as a formula.
      const csv = stringify({ bom: true, escape_formulas: true, record_delimiter: 'windows' })
      pipeline(Readable.from(records()), csv, (error) => {
        if (!error) return
        // The admin closing the download is no failure of ours.
        const left = (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE'
        log({ level: left ? 'info' : 'error', msg: left ? 'purchases export left' : 'purchases export failed', request_id: c.get('requestId'), ...errorFields(error) })
      })
      return new Response(Readable.toWeb(csv) as ReadableStream<Uint8Array>, {
        status: 200,
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="compras-${localDateOf(clock(), filter.timeZone)}.csv"`,
          'Cache-Control': PRIVATE_NO_STORE,
        },
      })
    },
  })
}
