import { Readable } from 'node:stream'
import { and, eq, gt, inArray, isNotNull, max, or, sql } from 'drizzle-orm'
import { z } from 'zod'
import { cancellationQuote } from '#server/appointments/paid.ts'
import { findAppointmentView } from '#server/appointments/repository.ts'
import { actorOf } from '#server/audit/entries.ts'
import { authenticate, roleOf } from '#server/auth/authenticate.ts'
import { hasUsablePassword, verifyPassword } from '#server/auth/passwords.ts'
import { localDateOf } from '#server/dates.ts'
import { appointments, CONSENT_DOCUMENTS, consentRecords, conversations, LIVE_SUBSCRIPTION_STATUSES, messageAttachments, purchases, subscriptions } from '#server/db/schema.ts'
import { idParam, type Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { apiError, fieldError, notFound, validationError } from '#server/http/errors.ts'
import { booleanField, charField, choiceField, passwordField, validate } from '#server/http/fields.ts'
import { paginate, PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import {
  CLIENT_SOURCES,
  consentChangeProblem,
  currentConsents,
  recordedCategories,
  serializeConsentRecord,
  serializeConsentState,
  unpublishedVersionMessage,
  VERSION_MESSAGE,
  VERSION_PATTERN,
  WITHDRAW_REQUIRES_DELETION_MESSAGE,
} from '#server/privacy/consents.ts'
import { finishDeletion, requestDeletion } from '#server/privacy/deletion.ts'
import { exportStream } from '#server/privacy/export.ts'
import { EXPORT_LANGUAGES, exportFileName } from '#server/privacy/export-files.ts'
import { appendConsent, consentCandidatesOf, consentHistoryOf, countConsentsOf, resultViewersOf, revokeViewer } from '#server/privacy/repository.ts'
import { keptAfterDeletion, REMOVED_NOW } from '#server/privacy/retention.ts'
import type { Services } from '#server/services.ts'
import { activeAdminsOtherThan } from '#server/users/repository.ts'
import { photoUrl } from '#server/users/serializers.ts'
import { FULL_REFUND_NOTICE_MS } from '#server/purchases/refund-rules.ts'
import { enforceThrottle, requestAddress } from '#server/routes/throttling.ts'

const LAST_ADMIN_MESSAGE = 'You are the only active administrator: give another account the admin role before deleting yours.'

const PRIVATE = { 'Cache-Control': PRIVATE_NO_STORE }

const categoriesField = z
  .object({ preferences: booleanField().optional(), analytics: booleanField().optional(), marketing: booleanField().optional() }, { error: 'Expected a dictionary of items.' })
  .optional()

const consentSchema = z.object({
  document: choiceField(CONSENT_DOCUMENTS),
  version: charField({ maxLength: 16 }).regex(VERSION_PATTERN, VERSION_MESSAGE),
  granted: booleanField(),
  source: choiceField(CLIENT_SOURCES).optional(),
  categories: categoriesField,
})

const exportSchema = z.object({ lang: choiceField(EXPORT_LANGUAGES).optional() })

const deletionSchema = z.object({ password: passwordField().optional(), confirm: booleanField().optional() })
const CONFIRM_REQUIRED = 'Confirm that the account is to be deleted: send "confirm": true.'
const WRONG_PASSWORD = 'Wrong password.'

/** The open appointments a deletion would cancel: scheduled, confirmed or held for payment, not started. */
const OPEN = ['awaiting_payment', 'scheduled', 'confirmed'] as const
/** At most this many appointments are listed in the deletion's summary; the count says how many in all. */
const LISTED_APPOINTMENTS = 50

/**
 * Every user's data-subject rights (LGPD art. 18; docs/product.md §7 "Privacy", decision 0060): the
 * consent record, who can see one's results, the data export, and the account's deletion. Every
 * answer is the caller's own: private, no-store.
 */
export function registerPrivacyRoutes(api: Api, services: Services): void {
  const { db, clock, config, background } = services

  api.endpoint('/users/me/consents/', {
    GET: async (c) => {
      const { user } = await authenticate(c, services)
      const page = paginate(c, await countConsentsOf(db, user.id))
      const [candidates, history] = await Promise.all([consentCandidatesOf(db, user.id), consentHistoryOf(db, user.id, page)])
      return c.json({ current: serializeConsentState(currentConsents(candidates)), history: page.envelope(history.map(serializeConsentRecord)) }, 200, PRIVATE)
    },
    POST: async (c) => {
      const { user } = await authenticate(c, services)
      const input = validate(consentSchema, await readFields(c.req.raw))
      if (input.categories !== undefined && input.document !== 'cookies') throw fieldError('categories', 'Only the cookie policy has categories.')
      // Only a text the product published and showed can be consented to (decision 0075).
      const unpublished = unpublishedVersionMessage(input.document, input.version)
      if (unpublished) throw fieldError('version', unpublished)
      if (consentChangeProblem(input)) throw apiError(409, WITHDRAW_REQUIRES_DELETION_MESSAGE, { code: consentChangeProblem(input) })
      // Every record is kept for years: what is counted is the records written, not the refusals.
      await enforceThrottle(services, 'consentPerUser', String(user.id))
      const record = await appendConsent(db, {
        userId: user.id,
        document: input.document,
        version: input.version,
        granted: input.granted,
        source: input.source ?? 'settings',
        categories: recordedCategories(input.document, input.granted, input.categories),
        at: clock(),
      })
      return c.json(serializeConsentRecord(record), 201, PRIVATE)
    },
  })

  api.endpoint('/users/me/shares/', {
    GET: async (c) => {
      const { user } = await authenticate(c, services)
      const viewers = await resultViewersOf(db, user.id)
      return c.json(
        viewers.map(({ professional, results, careLinkSince }) => ({
          professional: {
            id: professional.id,
            first_name: professional.firstName,
            last_name: professional.lastName,
            photo: photoUrl(config.providerPublicUrl, professional.photoName),
            profession: professional.profession,
          },
          results: results.map((result) => ({ id: result.resultId, submitted_at: result.submittedAt.toISOString(), shared_at: result.sharedAt.toISOString() })),
          care_link_since: careLinkSince?.toISOString() ?? null,
        })),
        200,
        PRIVATE,
      )
    },
  })

  api.endpoint('/users/me/shares/:professional_id{[0-9]+}/', {
    DELETE: async (c) => {
      const { user } = await authenticate(c, services)
      const revoked = await revokeViewer(db, user.id, idParam(c, 'professional_id'))
      // Nothing of theirs to revoke: the same answer as an id that is nobody's.
      if (revoked.shares === 0 && !revoked.careLink) throw notFound()
      return c.body(null, 204, PRIVATE)
    },
  })

  api.endpoint('/users/me/export/', {
    GET: async (c) => {
      const { user } = await authenticate(c, services)
      const { lang } = validate(exportSchema, { lang: c.req.query('lang') || undefined })
      await enforceThrottle(services, 'exportPerUser', String(user.id))
      const now = clock()
      const zip = exportStream(db, user.id, { language: lang ?? 'pt', now, photoBase: config.providerPublicUrl, log: services.log })
      return new Response(Readable.toWeb(zip) as unknown as ReadableStream<Uint8Array>, {
        status: 200,
        headers: {
          'Content-Type': 'application/zip',
          'Content-Disposition': `attachment; filename="${exportFileName(localDateOf(now, user.timeZone))}"`,
          'Cache-Control': PRIVATE_NO_STORE,
        },
      })
    },
  })

  api.endpoint('/users/me/deletion/', {
    GET: async (c) => {
      const { user } = await authenticate(c, services)
      const now = clock()
      const open = await db
        .select({ id: appointments.id })
        .from(appointments)
        .where(and(or(eq(appointments.patientId, user.id), eq(appointments.professionalId, user.id)), inArray(appointments.status, [...OPEN]), gt(appointments.startTime, new Date(now))))
        .orderBy(appointments.startTime, appointments.id)
      const views = (await Promise.all(open.slice(0, LISTED_APPOINTMENTS).map((row) => findAppointmentView(db, row.id)))).flatMap((view) => (view ? [view] : []))
      const [[payments], [marketing], [live], [talks], [files]] = await Promise.all([
        db.select({ latest: max(purchases.updatedAt) }).from(purchases).where(eq(purchases.userId, user.id)),
        db.select({ count: sql<number>`count(*)`.mapWith(Number) }).from(consentRecords).where(and(eq(consentRecords.userId, user.id), eq(consentRecords.document, 'marketing'))),
        db
          .select({ count: sql<number>`count(*)`.mapWith(Number) })
          .from(subscriptions)
          .where(and(eq(subscriptions.userId, user.id), inArray(subscriptions.status, [...LIVE_SUBSCRIPTION_STATUSES]))),
        db
          .select({ count: sql<number>`count(*)`.mapWith(Number) })
          .from(conversations)
          .where(and(or(eq(conversations.patientId, user.id), eq(conversations.professionalId, user.id)), isNotNull(conversations.lastMessageId))),
        db.select({ count: sql<number>`count(*)`.mapWith(Number) }).from(messageAttachments).where(eq(messageAttachments.uploaderId, user.id)),
      ])
      return c.json(
        {
          requires_password: hasUsablePassword(user.password),
          removed_now: REMOVED_NOW,
          // How many of an item go, where that is worth saying: the files the user sent in messages (decision 0086).
          removed_counts: { message_attachments: files?.count ?? 0 },
          cancelled_now: {
            appointments: open.length,
            live_subscriptions: live?.count ?? 0,
            upcoming: views.map((view) => {
              const by = view.appointment.patientId === user.id ? 'patient' : 'professional'
              const quote = view.appointment.status === 'awaiting_payment' ? null : cancellationQuote(view, by, now)
              const ahead = view.appointment.startTime.getTime() - now
              const full = quote ? quote.refundCents > 0 || quote.creditReturned : view.appointment.status !== 'awaiting_payment' && (by === 'professional' || ahead >= FULL_REFUND_NOTICE_MS)
              return {
                id: view.appointment.id,
                start_time: view.appointment.startTime.toISOString(),
                status: view.appointment.status,
                role: by,
                refund: full ? 'full' : 'none',
                refund_cents: quote?.refundCents ?? 0,
                credit_returned: quote?.creditReturned ?? false,
              }
            }),
          },
          kept: keptAfterDeletion({ now, latestPaymentAt: payments?.latest ? payments.latest.getTime() : null, hasMarketingRecords: (marketing?.count ?? 0) > 0, conversations: talks?.count ?? 0 }),
        },
        200,
        PRIVATE,
      )
    },
    POST: async (c) => {
      const caller = await authenticate(c, services)
      const { user } = caller
      const input = validate(deletionSchema, await readFields(c.req.raw))
      if (input.confirm !== true) throw fieldError('confirm', CONFIRM_REQUIRED)
      if (hasUsablePassword(user.password)) {
        // A password check answers guesses like a login does: throttled like the password change.
        await enforceThrottle(services, 'changePasswordPerAddress', requestAddress(c))
        await enforceThrottle(services, 'changePasswordPerUser', String(user.id))
        if (!input.password) throw validationError({ password: ['This field is required.'] })
        if (!(await verifyPassword(input.password, user.password))) throw fieldError('password', WRONG_PASSWORD)
      }
      // The platform keeps someone to run it: the last active admin gives the role away first.
      if (roleOf(caller.groups) === 'admin' && (await activeAdminsOtherThan(db, user.id)) === 0) {
        throw apiError(409, LAST_ADMIN_MESSAGE, { code: 'last_admin' })
      }
      // Closed now, in one transaction: no sign-in from here on, whatever follows.
      await requestDeletion(services, { userId: user.id, reason: 'request', actor: actorOf(caller), now: clock() })
      // The steps after the answer (appointments cancelled at Stripe's pace, data deleted), under
      // the deletion's lease; a failure or a crash is finished by the retention job (decision 0060).
      background.run('account deletion', () => finishDeletion(services, user.id))
      return c.json({ detail: 'Your account has been deleted.' }, 200, PRIVATE)
    },
  })
}
