import { z } from 'zod'

/**
 * The notification settings form (decisions 0085, 0087), shared by the browser and the server: the
 * e-mail and push channels on or off (checkboxes: absent is off) and quiet hours as two clock times
 * in the user's time zone, both or neither, not the same (across midnight when the end is earlier).
 * A browser's push subscription, posted by the page's script to the resource route. Messages are
 * translation keys.
 */

const CLOCK = /^([01][0-9]|2[0-3]):[0-5][0-9]$/
// A time input may send seconds ("22:00:00"): the minutes are what counts.
const clockField = z
  .string()
  .trim()
  .transform((value) => value.slice(0, 5))
  .pipe(z.string().regex(CLOCK, { error: 'notifications:errors.time' }))
  .optional()

export const notificationSettingsSchema = z
  .object({
    email: z.boolean().default(false),
    push: z.boolean().default(false),
    quiet_start: clockField,
    quiet_end: clockField,
  })
  .superRefine((value, context) => {
    if (value.quiet_start && !value.quiet_end) context.addIssue({ code: 'custom', path: ['quiet_end'], message: 'notifications:errors.bothEnds' })
    if (value.quiet_end && !value.quiet_start) context.addIssue({ code: 'custom', path: ['quiet_start'], message: 'notifications:errors.bothEnds' })
    if (value.quiet_start && value.quiet_start === value.quiet_end) context.addIssue({ code: 'custom', path: ['quiet_end'], message: 'notifications:errors.same' })
  })
export type NotificationSettingsInput = z.input<typeof notificationSettingsSchema>

const base64Url = (max: number) => z.string().regex(/^[A-Za-z0-9_-]+$/).max(max)

/** What the page's script posts: PushSubscription.toJSON()'s endpoint and keys, or the endpoint to forget. */
export const pushSubscriptionFormSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('subscribe'), endpoint: z.string().url().max(1024), keys: z.object({ p256dh: base64Url(100), auth: base64Url(40) }) }),
  z.object({ intent: z.literal('unsubscribe'), endpoint: z.string().url().max(1024) }),
])
