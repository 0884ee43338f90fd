import { z } from 'zod'
import { isDateInRange } from '#app/domain/date-range.ts'
import { type SignedInCaller } from './fetch.server.ts'

/**
 * The admin dashboard as the provider answers it (GET /admin/dashboard/, docs/decisions/
 * 0062-admin-dashboard.md): each metric per bucket of the period, their totals, and the
 * subscriptions giving access. Money in integer cents of BRL. Unknown extra fields are ignored.
 */

export const DASHBOARD_METRICS = [
  'new_users',
  'assessments',
  'appointments_booked',
  'appointments_cancelled',
  'appointments_no_show',
  'revenue_pix_cents',
  'revenue_card_cents',
  'refunds_cents',
  'conversations_started',
  'messages_sent',
] as const
export type DashboardMetric = (typeof DASHBOARD_METRICS)[number]
const DASHBOARD_BUCKETS = ['day', 'week', 'month'] as const
export type DashboardBucket = (typeof DASHBOARD_BUCKETS)[number]

const date = z.string().refine((value) => isDateInRange(value), 'a date')
const amount = z.number().int().nonnegative()
const counts = z.object(Object.fromEntries(DASHBOARD_METRICS.map((metric) => [metric, amount])) as Record<DashboardMetric, typeof amount>)

export const adminDashboardSchema = z.object({
  from: date,
  to: date,
  time_zone: z.string().optional(),
  bucket: z.enum(DASHBOARD_BUCKETS),
  series: z.array(counts.extend({ start: date })),
  totals: counts,
  active_subscriptions: amount,
  active_subscriptions_at_end: amount,
})
export type AdminDashboard = z.infer<typeof adminDashboardSchema>

/** The period's metrics; `from` and `to` are local dates of `tz` (the admin's zone, decision 0077), both included. */
export const getAdminDashboard = (auth: SignedInCaller, { from, to }: { from: string; to: string }, tz: string) =>
  auth.call('/admin/dashboard/', adminDashboardSchema, { query: { from, to, tz } })
