import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { authenticate } from '#server/auth/authenticate.ts'
import { hashPassword, verifyPassword } from '#server/auth/passwords.ts'
import { validatePassword } from '#server/auth/password-rules.ts'
import { startSession } from '#server/auth/sessions.ts'
import { utcDateOf } from '#server/dates.ts'
import type { Database } from '#server/db/client.ts'
import type { AppContext, Api } from '#server/http/api.ts'
import { readFields, readRequestData } from '#server/http/body.ts'
import { fieldError, validationError } from '#server/http/errors.ts'
import { booleanField, charField, nullableDateField, passwordField, personNameField, timeZoneField, validate } from '#server/http/fields.ts'
import { detectImageType, MAX_PHOTO_BYTES } from '#server/media/image-type.ts'
import type { Services } from '#server/services.ts'
import { changePassword, deletePhoto, findUserById, insertPhoto, updateUser, type UserRow } from '#server/users/repository.ts'
import { serializeProfile, serializeUser } from '#server/users/serializers.ts'
import { enforceThrottle, requestAddress } from '#server/routes/throttling.ts'

const PHONE_PATTERN = /^\+?[0-9 ().-]{8,20}$/
const EARLIEST_BIRTH_DATE = '1900-01-01'

const profileUpdateSchema = z.object({
  first_name: personNameField({ maxLength: 150, allowBlank: true }).optional(),
  last_name: personNameField({ maxLength: 150, allowBlank: true }).optional(),
  phone: charField({ maxLength: 20, allowBlank: true })
    .refine((phone) => phone === '' || PHONE_PATTERN.test(phone), 'Enter a valid phone number.')
    .optional(),
  // From 1900 on; the future is refused below, against the clock.
  birth_date: nullableDateField({ earliest: EARLIEST_BIRTH_DATE, latest: '9999-12-31' }).optional(),
  bio: charField({ maxLength: 500, allowBlank: true }).optional(),
  // Where the user reads times (decision 0023): an IANA name or UTC.
  time_zone: timeZoneField().optional(),
})

// keep_calendar_feed: the private calendar link survives the change only when asked to (decision 0037).
const changePasswordSchema = z.object({ old_password: passwordField(), new_password: passwordField(), keep_calendar_feed: booleanField().optional() })

const INVALID_IMAGE = 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.'

/** The signed-in user's own account: identity, profile, photo and password. */
export function registerProfileRoutes(api: Api, services: Services): void {
  const { db, config, clock } = services
  const photoBase = config.providerPublicUrl

  api.endpoint('/users/me/', {
    GET: async (c) => {
      const { user, groups } = await authenticate(c, services)
      // The login response shares serializeUser's shape (docs/product.md §3); the time zone is only here.
      return c.json(serializeUser(user, groups, photoBase))
    },
  })

  api.endpoint('/users/profile/', {
    GET: async (c) => {
      const { user, groups } = await authenticate(c, services)
      return c.json(serializeProfile(user, groups, photoBase))
    },
  })

  const updateProfile = async (c: AppContext) => {
    const { user, groups } = await authenticate(c, services)
    const { fields, files } = await readRequestData(c.req.raw)
    const changes = validate(profileUpdateSchema, fields)
    if (changes.birth_date && changes.birth_date > utcDateOf(clock())) {
      throw fieldError('birth_date', 'Birth date cannot be in the future.')
    }

    // A file replaces the photo and JSON null removes it. An empty multipart value is an
    // untouched file input: it changes nothing.
    const photoFile = files.photo
    const removePhoto = fields.photo === null
    const newPhotoName = photoFile ? await storePhoto(db, photoFile) : undefined

    await updateUser(db, user.id, {
      ...(changes.first_name !== undefined && { firstName: changes.first_name }),
      ...(changes.last_name !== undefined && { lastName: changes.last_name }),
      ...(changes.phone !== undefined && { phone: changes.phone }),
      ...(changes.birth_date !== undefined && { birthDate: changes.birth_date }),
      ...(changes.bio !== undefined && { bio: changes.bio }),
      ...(changes.time_zone !== undefined && { timeZone: changes.time_zone }),
      ...(newPhotoName !== undefined ? { photoName: newPhotoName } : removePhoto ? { photoName: null } : {}),
    })
    if ((newPhotoName !== undefined || removePhoto) && user.photoName) await deletePhoto(db, user.photoName)
    const updated = (await findUserById(db, user.id)) as UserRow
    return c.json(serializeProfile(updated, groups, photoBase))
  }

  api.endpoint('/users/profile/update/', { PUT: updateProfile, PATCH: updateProfile })

  api.endpoint('/users/change-password/', {
    POST: async (c) => {
      const { user } = await authenticate(c, services)
      const input = validate(changePasswordSchema, await readFields(c.req.raw))
      // The old-password check answers guesses like a login does, so it is throttled like one.
      await enforceThrottle(services, 'changePasswordPerAddress', requestAddress(c))
      await enforceThrottle(services, 'changePasswordPerUser', String(user.id))
      if (!(await verifyPassword(input.old_password, user.password))) throw fieldError('old_password', 'Wrong password.')
      const problems = await validatePassword(input.new_password, { email: user.email, username: user.username, firstName: user.firstName, lastName: user.lastName })
      if (problems.length > 0) throw validationError({ new_password: problems })
      const password = await hashPassword(input.new_password)
      // Every session ends, a copy of this one included; the caller continues in a new one. The
      // calendar feed ends too unless the user chose to keep it (a link already in their calendar app).
      await changePassword(db, user.id, password, { keepCalendarFeed: input.keep_calendar_feed === true, clock })
      const pair = await startSession(services, user.id)
      return c.json({ detail: 'Password updated successfully.', ...pair })
    },
  })
}

/** Validates an uploaded photo by content and size, stores it, and returns its public name. */
async function storePhoto(db: Database, file: File): Promise<string> {
  if (file.size > MAX_PHOTO_BYTES) throw fieldError('photo', 'The photo must be at most 2 MB.')
  const bytes = Buffer.from(await file.arrayBuffer())
  if (bytes.length === 0) throw fieldError('photo', 'The submitted file is empty.')
  const type = detectImageType(bytes)
  if (!type) throw fieldError('photo', INVALID_IMAGE)
  const name = `${randomUUID().replaceAll('-', '')}.${type.extension}`
  await insertPhoto(db, { name, contentType: type.contentType, bytes })
  return name
}
