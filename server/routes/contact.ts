import { z } from 'zod'
import { actorOf } from '#server/audit/entries.ts'
import { authenticateWithRole } from '#server/auth/authenticate.ts'
import {
  contactMessagesPage,
  countContactMessages,
  findContactMessage,
  insertContactMessage,
  setContactMessageHandled,
  type ContactFilter,
  type ContactMessageRow,
} from '#server/contact/repository.ts'
import { idParam, type Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { notFound, validationError } from '#server/http/errors.ts'
import { booleanField, charField, emailField, validate } from '#server/http/fields.ts'
import { paginate } from '#server/http/pagination.ts'
import { contactNotificationMessage, type ContactSubject } from '#server/mail/contact-notification.ts'
import { queueMail } from '#server/mail/outbox.ts'
import type { Services } from '#server/services.ts'
import { normaliseEmail } from '#server/routes/accounts.ts'
import { enforceThrottle, requestAddress } from '#server/routes/throttling.ts'

const CONTACT_SUBJECTS = ['patient', 'professional', 'company', 'partnership', 'other'] as const satisfies readonly ContactSubject[]

const PHONE_PATTERN = /^[\d\s()+-]*$/

/** DRF's ChoiceField: the exact value or '"x" is not a valid choice.' */
function choiceField<const Choices extends readonly string[]>(choices: Choices) {
  return z.unknown().transform((value, context) => {
    if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as Choices[number]
    const message =
      value === undefined ? 'This field is required.' : value === null ? 'This field may not be null.' : `"${String(value)}" is not a valid choice.`
    context.addIssue({ code: 'custom', message })
    return z.NEVER
  })
}

const contactSchema = z.object({
  name: charField({ maxLength: 150 }),
  email: emailField(),
  phone: charField({ maxLength: 30, allowBlank: true }).regex(PHONE_PATTERN, 'Enter a valid phone number.').optional(),
  subject: choiceField(CONTACT_SUBJECTS),
  message: charField({ maxLength: 5000 }).min(10, 'Ensure this field has at least 10 characters.'),
})

const updateSchema = z.object({ handled: booleanField().optional() })

function serializeContactMessage(row: ContactMessageRow) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    subject: row.subject,
    message: row.message,
    handled: row.handled,
    handled_at: row.handledAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  }
}

/** django-filter's BooleanFilter spellings for ?handled=. */
const HANDLED_FILTER: Record<string, boolean> = { true: true, True: true, '1': true, false: false, False: false, '0': false }

/** The contact form: anyone may write (throttled); admins read, filter and mark messages handled. */
export function registerContactRoutes(api: Api, services: Services): void {
  const { db, config, clock } = services

  api.endpoint('/contact/', {
    POST: async (c) => {
      await enforceThrottle(services, 'contactPerAddress', requestAddress(c))
      const input = validate(contactSchema, await readFields(c.req.raw))
      await enforceThrottle(services, 'contactPerEmail', input.email)

      const row = await insertContactMessage(db, {
        name: input.name,
        email: normaliseEmail(input.email),
        phone: input.phone ?? '',
        subject: input.subject,
        message: input.message,
        createdAt: new Date(clock()),
      })
      await queueMail(db, contactNotificationMessage({ ...row, adminUrl: `${config.appPublicUrl}/admin/messages` }))
      return c.json({ id: row.id, detail: 'Thank you for your message. Our team will get back to you soon.' }, 201)
    },

    GET: async (c) => {
      await authenticateWithRole(c, services, 'admin')
      const search = c.req.query('search')?.trim()
      const subject = c.req.query('subject')?.trim()
      const handled = c.req.query('handled')?.trim()

      const filter: ContactFilter = {}
      if (search) filter.search = search
      if (subject) {
        if (!(CONTACT_SUBJECTS as readonly string[]).includes(subject)) {
          throw validationError({ subject: [`Select a valid choice. ${subject} is not one of the available choices.`] })
        }
        filter.subject = subject as ContactSubject
      }
      if (handled) {
        if (!(handled in HANDLED_FILTER)) throw validationError({ handled: ['Select a valid choice.'] })
        filter.handled = HANDLED_FILTER[handled]!
      }

      const page = paginate(c, await countContactMessages(db, filter))
      const rows = await contactMessagesPage(db, filter, page)

      return c.json(page.envelope(rows.map(serializeContactMessage)))
    },
  })

  const findMessage = async (id: number) => {
    const row = await findContactMessage(db, id)
    if (!row) throw notFound()
    return row
  }

  api.endpoint('/contact/:id{[0-9]+}/', {
    GET: async (c) => {
      await authenticateWithRole(c, services, 'admin')
      return c.json(serializeContactMessage(await findMessage(idParam(c, 'id'))))
    },
    // A partial update, as DRF's PATCH: only `handled` is writable; an empty body changes nothing.
    PATCH: async (c) => {
      const caller = await authenticateWithRole(c, services, 'admin')
      const row = await findMessage(idParam(c, 'id'))
      const { handled } = validate(updateSchema, await readFields(c.req.raw))
      if (handled === undefined || handled === row.handled) return c.json(serializeContactMessage(row))
      // Another admin's change may have come first: then nothing changes and the row is read again.
      const updated = await setContactMessageHandled(db, row.id, handled, clock(), actorOf(caller))
      return c.json(serializeContactMessage(updated ?? (await findMessage(row.id))))
    },
  })
}
