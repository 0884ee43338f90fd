import { z } from 'zod'
import { localDate } from '#app/domain/appointments.ts'
import { addDays, dateAt, daysBetween } from '#app/domain/calendar-dates.ts'
import { barHeight, chartTop } from '#app/domain/chart-scale.ts'
import { isDateInRange } from '#app/domain/date-range.ts'
import { formatMoney, isCents } from '#app/domain/money.ts'
import { type Language, languageTags } from '#app/i18n/config.ts'
import { type AdminDashboard, DASHBOARD_METRICS, type DashboardBucket, type DashboardMetric } from '#app/provider/admin-dashboard.server.ts'

/**
 * The admin dashboard's period form and what its page shows (docs/decisions/0062-admin-dashboard.md),
 * on the server only: zod and Intl's formatting stay out of the page's JavaScript, and the page
 * draws the charts from numbers and texts made here. Pure: `today` and the answer come in.
 */

/** The days are the admin's zone's (decision 0077); São Paulo's, the provider's default, when none is known. */
const DASHBOARD_TIME_ZONE = 'America/Sao_Paulo'
const DEFAULT_PERIOD_DAYS = 30
const MAX_PERIOD_DAYS = 366

/** Today's date in the admin's zone (São Paulo by default). */
export const dashboardToday = (now: Date, timeZone = DASHBOARD_TIME_ZONE) => localDate(now, timeZone)

/** What is wrong with the dates typed: not dates (2000-2100), the end first, or more than a year. */
type PeriodProblem = 'invalid' | 'order' | 'tooLong'
type DashboardQuery = {
  /** The period shown: the one asked for, or the last 30 days when it cannot be. */
  from: string
  to: string
  /** What the form shows again: as typed, so nothing is lost. */
  typed: { from: string; to: string }
  problem: PeriodProblem | null
}

// A GET form's fields: empty means "not given"; anything longer than a date is no date.
const dateParam = z.union([z.literal(''), z.string().max(10).refine((value) => isDateInRange(value))])
const querySchema = z.object({ from: dateParam, to: dateParam })

/** `?from=&to=` (YYYY-MM-DD): `to` by default today, `from` by default 29 days before `to`. */
export function readDashboardQuery(url: URL, today: string): DashboardQuery {
  const typed = { from: (url.searchParams.get('from') ?? '').trim().slice(0, 40), to: (url.searchParams.get('to') ?? '').trim().slice(0, 40) }
  const fallback = { from: addDays(today, -(DEFAULT_PERIOD_DAYS - 1)), to: today }
  const parsed = querySchema.safeParse(typed)
  if (!parsed.success) return { ...fallback, typed, problem: 'invalid' }
  const to = parsed.data.to || today
  const from = parsed.data.from || addDays(to, -(DEFAULT_PERIOD_DAYS - 1))
  if (to < from) return { ...fallback, typed, problem: 'order' }
  if (daysBetween(from, to) + 1 > MAX_PERIOD_DAYS) return { ...fallback, typed, problem: 'tooLong' }
  return { from, to, typed, problem: null }
}

const QUICK_PERIODS = ['7d', '30d', '90d', '12m'] as const
type QuickPeriod = (typeof QUICK_PERIODS)[number]

/** The quick links' periods, all ending today: 7, 30 or 90 days, or the 12 calendar months up to this one. */
export function quickPeriod(period: QuickPeriod, today: string): { from: string; to: string } {
  if (period === '12m') {
    const year = Number(today.slice(0, 4))
    const month = Number(today.slice(5, 7))
    // Eleven months back, on the 1st: twelve whole buckets, this month's so far the last.
    const back = month - 11
    const from = back >= 1 ? `${year}-${String(back).padStart(2, '0')}-01` : `${year - 1}-${String(back + 12).padStart(2, '0')}-01`
    return { from, to: today }
  }
  const days = { '7d': 7, '30d': 30, '90d': 90 }[period]
  return { from: addDays(today, -(days - 1)), to: today }
}

const dashboardHref = ({ from, to }: { from: string; to: string }) => `/admin/dashboard?${new URLSearchParams({ from, to })}`

export function quickLinks(query: DashboardQuery, today: string) {
  return QUICK_PERIODS.map((key) => {
    const period = quickPeriod(key, today)
    return { key, href: dashboardHref(period), current: query.problem === null && period.from === query.from && period.to === query.to }
  })
}

// Formatters are made once per language and options: building one costs far more than using it.
const formats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>()
function cached<F extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => F): F {
  let format = formats.get(key) as F | undefined
  if (!format) {
    format = make()
    formats.set(key, format)
  }
  return format
}
const dateFormat = (language: Language, options: Intl.DateTimeFormatOptions) =>
  cached(`date|${language}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(languageTags[language], { ...options, timeZone: 'UTC' }))

const DAY_MONTH: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short' }
const FULL_DATE: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' }

/** "1 de mar. de 2025 – 30 de mar. de 2025" as the language writes a range of dates (shared parts once). */
const formatDateRange = (from: string, to: string, language: Language) => dateFormat(language, FULL_DATE).formatRange(dateAt(from), dateAt(to))

/** A count as the language writes it: "1.234" in pt. */
const formatCount = (value: number, language: Language) => cached(`count|${language}`, () => new Intl.NumberFormat(languageTags[language])).format(value)

/** Money in BRL by app/domain/money.ts; a sum past its bound (R$ 10 million) is written the same way, not refused. */
export function formatCents(cents: number, language: Language): string {
  if (isCents(cents)) return formatMoney(cents, language)
  const whole = Math.floor(cents / 100)
  const format = cached(`money|${language}`, () => new Intl.NumberFormat(languageTags[language], { style: 'currency', currency: 'BRL', currencyDisplay: 'narrowSymbol' }))
  return format.format(`${whole}.${String(cents % 100).padStart(2, '0')}` as `${number}`)
}

/** A bucket's label under the chart ("3 de mar.", "mar. de 2025") and in the table ("seg., 3 de mar.", "3 – 9 de mar.", "março de 2025"). */
function bucketLabels(bucket: DashboardBucket, start: string, end: string, language: Language): { axis: string; row: string } {
  if (bucket === 'month') {
    return { axis: dateFormat(language, { month: 'short', year: 'numeric' }).format(dateAt(start)), row: dateFormat(language, { month: 'long', year: 'numeric' }).format(dateAt(start)) }
  }
  const axis = dateFormat(language, DAY_MONTH).format(dateAt(start))
  if (bucket === 'day') return { axis, row: dateFormat(language, { weekday: 'short', ...DAY_MONTH }).format(dateAt(start)) }
  return { axis, row: start === end ? axis : dateFormat(language, DAY_MONTH).formatRange(dateAt(start), dateAt(end)) }
}

/** The charts of the page, in its order: one per metric, revenue's two methods stacked in one. */
const DASHBOARD_CHARTS = [
  { key: 'new_users', metrics: ['new_users'] },
  { key: 'assessments', metrics: ['assessments'] },
  { key: 'appointments_booked', metrics: ['appointments_booked'] },
  { key: 'appointments_cancelled', metrics: ['appointments_cancelled'] },
  { key: 'appointments_no_show', metrics: ['appointments_no_show'] },
  { key: 'revenue', metrics: ['revenue_pix_cents', 'revenue_card_cents'] },
  { key: 'refunds_cents', metrics: ['refunds_cents'] },
  { key: 'conversations_started', metrics: ['conversations_started'] },
  { key: 'messages_sent', metrics: ['messages_sent'] },
] as const satisfies readonly { key: string; metrics: readonly DashboardMetric[] }[]
type ChartKey = (typeof DASHBOARD_CHARTS)[number]['key']

const isMoney = (metric: DashboardMetric) => metric.endsWith('_cents')

type ChartBarView = {
  start: string
  /** Under the chart (the first and last bars'). */
  axisLabel: string
  /** The table's row header. */
  label: string
  /** One per metric, in the chart's order (stacked bottom-up). */
  values: number[]
  heights: number[]
  shown: string[]
  total: string
}
type ChartView = {
  key: ChartKey
  metrics: DashboardMetric[]
  money: boolean
  ticks: { top: string; middle: string; zero: string }
  bars: ChartBarView[]
  /** Each metric's total over the period, then all of them together. */
  totals: string[]
  total: string
  /** The bucket with the most (the first of equals); null when there is nothing. */
  peak: { label: string; value: string } | null
}

/** Everything the page shows of the provider's answer, its numbers and texts ready in the language. */
export function dashboardView(answer: AdminDashboard, language: Language) {
  const format = (metric: DashboardMetric, value: number) => (isMoney(metric) ? formatCents(value, language) : formatCount(value, language))
  const points = answer.series.map((point, index) => {
    const next = answer.series[index + 1]
    const end = next ? addDays(next.start, -1) : answer.to
    return { point, ...bucketLabels(answer.bucket, point.start, end, language) }
  })

  const charts: ChartView[] = DASHBOARD_CHARTS.map(({ key, metrics }) => {
    const money = isMoney(metrics[0])
    const sums = points.map(({ point }) => metrics.reduce((sum, metric) => sum + point[metric], 0))
    const top = chartTop(Math.max(0, ...sums))
    const formatSum = (value: number) => format(metrics[0], value)
    const peakIndex = sums.findIndex((sum) => sum === Math.max(...sums))
    return {
      key,
      metrics: [...metrics],
      money,
      ticks: { top: formatSum(top), middle: formatSum(top / 2), zero: formatSum(0) },
      bars: points.map(({ point, axis, row }, index) => ({
        start: point.start,
        axisLabel: axis,
        label: row,
        values: metrics.map((metric) => point[metric]),
        heights: metrics.map((metric) => barHeight(point[metric], top)),
        shown: metrics.map((metric) => format(metric, point[metric])),
        total: formatSum(sums[index]!),
      })),
      totals: metrics.map((metric) => format(metric, answer.totals[metric])),
      total: formatSum(metrics.reduce((sum, metric) => sum + answer.totals[metric], 0)),
      peak: sums[peakIndex] ? { label: points[peakIndex]!.row, value: formatSum(sums[peakIndex]!) } : null,
    }
  })

  return {
    period: { from: answer.from, to: answer.to, bucket: answer.bucket, label: formatDateRange(answer.from, answer.to, language) },
    totals: [
      ...DASHBOARD_METRICS.map((metric) => ({ key: metric, value: format(metric, answer.totals[metric]) })),
      { key: 'active_subscriptions' as const, value: formatCount(answer.active_subscriptions, language) },
      { key: 'active_subscriptions_at_end' as const, value: formatCount(answer.active_subscriptions_at_end, language) },
    ],
    charts,
  }
}
