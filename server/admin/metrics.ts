import { sql } from 'drizzle-orm'
import { type Database, rowsOf } from '#server/db/client.ts'
import { appointments, conversations, messages, purchases, purchaseTransitions, questionnaireResults, subscriptions, users } from '#server/db/schema.ts'
import type { Period } from '#server/admin/periods.ts'

/**
 * What the admin dashboard counts (docs/decisions/0062-admin-dashboard.md), counted by the
 * database: one statement groups every metric by bucket (`width_bucket` over the buckets' bounds,
 * computed in periods.ts), so a year of rows is never read into memory, whatever the traffic.
 *
 * - new users: accounts by `date_joined`;
 * - assessments: questionnaire results by `submitted_at`;
 * - appointments booked: by `created_at`, except a paid consultation's held time that was never
 *   paid (still `awaiting_payment`, or released: cancelled by nobody, decision 0051);
 * - appointments cancelled: by `cancelled_at`, cancelled by a person (patient, professional, admin);
 * - no-shows: by the consultation's `start_time`;
 * - revenue by method: the totals of purchases paid (`paid` or `refunded` since: the money arrived;
 *   server/purchases/statuses.ts `isPaid`), by `paid_at`; subscriptions' periods are purchases too;
 * - refunds: what purchases gave back (`refunded_cents`), on the day they became `refunded` (their
 *   transition), so revenue minus refunds is what was kept;
 * - conversations started and messages sent between patients and professionals (decision 0085):
 *   counts only, by `created_at`; nobody's words are read.
 */

const METRICS = [
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
type Metric = (typeof METRICS)[number]
type Counts = Record<Metric, number>

const emptyCounts = (): Counts => Object.fromEntries(METRICS.map((metric) => [metric, 0])) as Counts

/** The statuses in which a subscription gives access (server/subscriptions/terms.ts `hasAccess`). */
const LIVE_STATUSES = sql`('trialing', 'active', 'past_due')`

const iso = (instant: number) => new Date(instant).toISOString()

/** Each bucket's counts, in the period's order. */
export async function seriesOf(db: Database, period: Period): Promise<Counts[]> {
  // One array parameter, whatever the number of buckets: the statement's text stays the same (decision 0031).
  const edges = `{${[...period.buckets.map((bucket) => bucket.startsAt), period.endsAt].map(iso).join(',')}}`
  const within = (column: unknown) => sql`${column} >= bounds.period_start and ${column} < bounds.period_end`
  const rows = await rowsOf(
    db.execute(sql`
      with bounds as (select ${edges}::timestamptz[] as edges, ${iso(period.startsAt)}::timestamptz as period_start, ${iso(period.endsAt)}::timestamptz as period_end)
      select 'new_users' as metric, width_bucket(${users.dateJoined}, bounds.edges) as bucket, count(*) as value
        from ${users}, bounds where ${within(users.dateJoined)} group by bucket
      union all
      select 'assessments' as metric, width_bucket(${questionnaireResults.submittedAt}, bounds.edges) as bucket, count(*) as value
        from ${questionnaireResults}, bounds where ${within(questionnaireResults.submittedAt)} group by bucket
      union all
      select 'appointments_booked' as metric, width_bucket(${appointments.createdAt}, bounds.edges) as bucket, count(*) as value
        from ${appointments}, bounds
        where ${within(appointments.createdAt)} and ${appointments.status} <> 'awaiting_payment'
          and not (${appointments.status} = 'cancelled' and ${appointments.cancelledBy} is null)
        group by bucket
      union all
      select 'appointments_cancelled' as metric, width_bucket(${appointments.cancelledAt}, bounds.edges) as bucket, count(*) as value
        from ${appointments}, bounds
        where ${within(appointments.cancelledAt)} and ${appointments.status} = 'cancelled' and ${appointments.cancelledBy} is not null
        group by bucket
      union all
      select 'appointments_no_show' as metric, width_bucket(${appointments.startTime}, bounds.edges) as bucket, count(*) as value
        from ${appointments}, bounds where ${within(appointments.startTime)} and ${appointments.status} = 'no_show' group by bucket
      union all
      select case when ${purchases.method} = 'pix' then 'revenue_pix_cents' else 'revenue_card_cents' end as metric,
          width_bucket(${purchases.paidAt}, bounds.edges) as bucket, sum(${purchases.totalCents}) as value
        from ${purchases}, bounds where ${within(purchases.paidAt)} and ${purchases.status} in ('paid', 'refunded')
        group by ${purchases.method}, bucket
      union all
      select 'refunds_cents' as metric, width_bucket(refunded.refunded_at, bounds.edges) as bucket, sum(refunded.cents) as value
        from (
          select ${purchases.refundedCents} as cents, min(${purchaseTransitions.at}) as refunded_at
            from ${purchases} join ${purchaseTransitions} on ${purchaseTransitions.purchaseId} = ${purchases.id} and ${purchaseTransitions.toStatus} = 'refunded'
            where ${purchases.refundedCents} > 0
            group by ${purchases.id}
        ) as refunded, bounds
        where ${within(sql`refunded.refunded_at`)}
        group by bucket
      union all
      select 'conversations_started' as metric, width_bucket(${conversations.createdAt}, bounds.edges) as bucket, count(*) as value
        from ${conversations}, bounds where ${within(conversations.createdAt)} group by bucket
      union all
      select 'messages_sent' as metric, width_bucket(${messages.createdAt}, bounds.edges) as bucket, count(*) as value
        from ${messages}, bounds where ${within(messages.createdAt)} group by bucket
    `),
  )
  const series = period.buckets.map(() => emptyCounts())
  for (const row of rows) {
    // width_bucket numbers the buckets from 1; the period's bounds keep every row inside them.
    const counts = series[Number(row.bucket) - 1]
    const metric = row.metric as Metric
    if (counts && metric in counts) counts[metric] += Number(row.value)
  }
  return series
}

/** The sum of each metric over the buckets. */
export function totalsOf(series: readonly Counts[]): Counts {
  const totals = emptyCounts()
  for (const counts of series) for (const metric of METRICS) totals[metric] += counts[metric]
  return totals
}

/**
 * Subscriptions giving access now (trialing, active or past due, their period not over), and at an
 * earlier instant: begun by then (first paid, or a trial's period started), not ended by then and,
 * if still live, within their period.
 */
export async function subscriptionCounts(db: Database, { now, at }: { now: number; at: number }): Promise<{ now: number; at: number }> {
  const [row] = await rowsOf(
    db.execute(sql`
      select
        count(*) filter (where ${subscriptions.status} in ${LIVE_STATUSES} and ${subscriptions.currentPeriodEnd} > ${iso(now)}::timestamptz) as active_now,
        count(*) filter (
          where least(${subscriptions.firstPaidAt}, ${subscriptions.currentPeriodStart}) <= ${iso(at)}::timestamptz
            and (${subscriptions.endedAt} > ${iso(at)}::timestamptz or (${subscriptions.endedAt} is null and ${subscriptions.currentPeriodEnd} > ${iso(at)}::timestamptz))
        ) as active_at
      from ${subscriptions}
    `),
  )
  return { now: Number(row?.active_now ?? 0), at: Number(row?.active_at ?? 0) }
}
