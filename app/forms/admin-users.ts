import { z } from 'zod'
import { type Cents, MONEY_INPUT_MAX_LENGTH, parseMoney } from '#app/domain/money.ts'
import { PILLAR_ORDER } from '#app/domain/pillars.ts'
import { roles } from '#app/session/roles.ts'

/**
 * The forms of an admin's user page (decision 0059): the groups, the account's activity (with a
 * confirmation), a professional's accreditation (the price typed as people write money, "150,00")
 * and its revocation (with a reason). Used by the server and, deferred, the browser.
 */

export const PROFESSION_MAX_LENGTH = 150
export const REGISTRATION_MAX_LENGTH = 50
export const REVOCATION_REASON_MAX_LENGTH = 500
/** R$ 10.000,00: the highest consultation price an admin sets. */
const MAX_CONSULTATION_PRICE_CENTS = 1_000_000
export const CONSULTATION_LANGUAGES = ['pt', 'en', 'es'] as const

const REQUIRED = 'errors.required'
const TOO_LONG = 'validation.tooLong'

/** A list of checkboxes (conform makes none checked an empty list, one a list of one): at least one, kept in the list's own order, each once. */
const checkboxes = <const Choice extends string>(choices: readonly Choice[], message: string) =>
  z
    .array(z.enum(choices, { error: message }), { error: message })
    .min(1, { error: message })
    .transform((picked) => choices.filter((choice) => picked.includes(choice)))

export const groupsSchema = z.object({
  groups: checkboxes(roles, 'admin:user.validation.groups'),
})

/** Deactivating or reactivating, once the admin has ticked the sentence saying what it does. */
export const activitySchema = z.object({
  active: z.enum(['true', 'false']).transform((value) => value === 'true'),
  confirm: z.literal('on', { error: 'admin:user.validation.confirm' }),
})

export const accreditationSchema = z.object({
  profession: z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(PROFESSION_MAX_LENGTH, { error: TOO_LONG }),
  registration_number: z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(REGISTRATION_MAX_LENGTH, { error: TOO_LONG }),
  pillars: checkboxes(PILLAR_ORDER, 'admin:user.validation.pillars'),
  languages: checkboxes(CONSULTATION_LANGUAGES, 'admin:user.validation.languages'),
  price: z
    .string({ error: 'admin:user.validation.price' })
    .max(MONEY_INPUT_MAX_LENGTH, { error: 'admin:user.validation.price' })
    .transform((typed, context) => {
      const cents = parseMoney(typed)
      if (cents === undefined || cents > MAX_CONSULTATION_PRICE_CENTS) {
        context.addIssue({ code: 'custom', message: 'admin:user.validation.price' })
        return z.NEVER
      }
      return cents as Cents
    }),
})

export const revocationSchema = z.object({
  reason: z.string({ error: 'admin:user.validation.reason' }).trim().min(1, { error: 'admin:user.validation.reason' }).max(REVOCATION_REASON_MAX_LENGTH, { error: TOO_LONG }),
})
