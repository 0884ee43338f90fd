import { z } from 'zod'
import { authenticateWithRole } from '#server/auth/authenticate.ts'
import { seriesOf, subscriptionCounts, totalsOf } from '#server/admin/metrics.ts'
import { DEFAULT_TIME_ZONE, periodOf, rangeOf, rangeProblems } from '#server/admin/periods.ts'
import type { Api } from '#server/http/api.ts'
import { validationError } from '#server/http/errors.ts'
import { dateField, timeZoneField, validate } from '#server/http/fields.ts'
import { PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import type { Services } from '#server/services.ts'

const querySchema = z.object({
  from: dateField().optional(),
  to: dateField().optional(),
  tz: timeZoneField().optional(),
})

/**
 * The admin dashboard (issue 26, docs/decisions/0062-admin-dashboard.md): what happened in a
 * period, bucket by bucket, and the subscriptions giving access. Admins only: everyone else is
 * refused before the query is even read.
 */
export function registerAdminDashboardRoutes(api: Api, services: Services): void {
  const { db, clock } = services

  api.endpoint('/admin/dashboard/', {
    GET: async (c) => {
      await authenticateWithRole(c, services, 'admin')
      const query = validate(querySchema, {
        from: c.req.query('from')?.trim() || undefined,
        to: c.req.query('to')?.trim() || undefined,
        tz: c.req.query('tz')?.trim() || undefined,
      })
      const now = clock()
      const timeZone = query.tz ?? DEFAULT_TIME_ZONE
      const range = rangeOf(query, now, timeZone)
      const problems = rangeProblems(range)
      if (problems) throw validationError(problems)

      const period = periodOf(range.from, range.to, timeZone)
      const series = await seriesOf(db, period)
      // A period that ends in the future ends, as far as anyone knows, now.
      const subscriptions = await subscriptionCounts(db, { now, at: Math.min(period.endsAt, now) })
      return c.json(
        {
          from: period.from,
          to: period.to,
          time_zone: timeZone,
          bucket: period.kind,
          series: period.buckets.map((bucket, index) => ({ start: bucket.start, ...series[index]! })),
          totals: totalsOf(series),
          active_subscriptions: subscriptions.now,
          active_subscriptions_at_end: period.endsAt >= now ? subscriptions.now : subscriptions.at,
        },
        200,
        { 'Cache-Control': PRIVATE_NO_STORE },
      )
    },
  })
}
