import { z } from 'zod'
import { phoneField, requiredText } from './form-fields.ts'
import { passwordsMatch } from './auth-forms.ts'
import { EARLIEST_BIRTH_DATE, isDateInRange } from '#app/domain/date-range.ts'
import { isPersonName } from '#app/domain/person-names.ts'
import { DEFAULT_TIME_ZONE, isTimeZone } from '#app/domain/time-zones.ts'

const MAX_PHOTO_BYTES = 2 * 1024 * 1024
const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp']

const optionalText = (max: number) => z.string().trim().max(max, { error: 'validation.tooLong' }).optional().default('')

export const profileSchema = z.object({
  first_name: requiredText(150).refine(isPersonName, { error: 'validation.personName' }),
  last_name: optionalText(150).refine((name) => name === '' || isPersonName(name), { error: 'validation.personName' }),
  phone: phoneField(),
  birth_date: z
    .string()
    .optional()
    .default('')
    .refine((value) => value === '' || isDateInRange(value, { earliest: EARLIEST_BIRTH_DATE, latest: new Date().toISOString().slice(0, 10) }), { error: 'validation.birthDate' }),
  bio: optionalText(1000),
  time_zone: z.string().optional().default(DEFAULT_TIME_ZONE).refine(isTimeZone, { error: 'account:profile.timeZoneInvalid' }),
  photo: z
    .instanceof(File)
    .optional()
    .refine((file) => !file || file.size === 0 || file.size <= MAX_PHOTO_BYTES, { error: 'validation.photoTooBig' })
    .refine((file) => !file || file.size === 0 || PHOTO_TYPES.includes(file.type), { error: 'validation.photoType' }),
})

export const changePasswordSchema = z
  .object({
    old_password: z.string({ error: 'errors.required' }).min(1, { error: 'errors.required' }),
    new_password: z.string({ error: 'errors.required' }).min(8, { error: 'validation.passwordTooShort' }).max(128, { error: 'validation.tooLong' }),
    confirm_password: z.string({ error: 'errors.required' }).min(1, { error: 'errors.required' }),
    // Unticked (or absent: a page without a calendar link), the link is revoked with the other sessions (decision 0037).
    keep_calendar_feed: z.boolean().optional().default(false),
  })
  .refine(passwordsMatch('new_password', 'confirm_password').check, passwordsMatch('new_password', 'confirm_password').params)
