import { z } from 'zod'
import { WEEKDAYS, type Weekday } from '#app/domain/availability.ts'
import { type SignedInCaller } from './fetch.server.ts'

/** A professional's schedule (decision 0023): its settings, weekly availability and date exceptions. */
const slotSchema = z.object({ start: z.string(), end: z.string() })
const daySchema = z.object({ enabled: z.boolean(), slots: z.array(slotSchema) })

const scheduleSchema = z.object({
  time_zone: z.string(),
  consultation_minutes: z.number(),
  buffer_minutes: z.number(),
  minimum_notice_hours: z.number(),
  horizon_days: z.number(),
  availability: z.object(Object.fromEntries(WEEKDAYS.map((day) => [day, daySchema])) as Record<Weekday, typeof daySchema>),
  exceptions: z.array(z.object({ date: z.string(), slots: z.array(slotSchema) })),
})
export type Schedule = z.infer<typeof scheduleSchema>

export const getSchedule = (auth: SignedInCaller) => auth.call('/appointments/current-schedule/', scheduleSchema)

export const updateSchedule = (auth: SignedInCaller, schedule: Schedule) =>
  auth.call('/appointments/update-schedule/', scheduleSchema, { method: 'PUT', json: schedule })
