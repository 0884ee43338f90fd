import { describe, expect, test } from 'vitest'
import { dashboardAnswer } from '#tests/mocks/admin-dashboard.ts'
import { adminDashboardSchema } from '#app/provider/admin-dashboard.server.ts'
import { dashboardToday, dashboardView, formatCents, quickLinks, quickPeriod, readDashboardQuery } from './admin-dashboard.server.ts'

const NBSP = '\u00a0'
// Intl puts thin spaces around a range's dash (ICU's choice, not ours): compared as plain spaces.
const plain = (text: string) => text.replace(/\u2009/g, ' ')
const read = (search: string, today = '2025-03-18') => readDashboardQuery(new URL(`http://app.test/admin/dashboard${search}`), today)

describe('the period asked for', () => {
  test('today is São Paulo’s date', () => {
    // 01:30 UTC on the 18th is 22:30 on the 17th in São Paulo; 03:00 UTC is its midnight.
    expect(dashboardToday(new Date('2025-03-18T01:30:00Z'))).toBe('2025-03-17')
    expect(dashboardToday(new Date('2025-03-18T03:00:00Z'))).toBe('2025-03-18')
  })

  test('defaults to the last 30 days; `from` alone runs to today, `to` alone has the 30 days before it', () => {
    expect(read('')).toEqual({ from: '2025-02-17', to: '2025-03-18', typed: { from: '', to: '' }, problem: null })
    expect(read('?from=&to=')).toMatchObject({ from: '2025-02-17', to: '2025-03-18', problem: null })
    expect(read('?from=2025-03-01')).toMatchObject({ from: '2025-03-01', to: '2025-03-18', problem: null })
    expect(read('?to=2025-01-31')).toMatchObject({ from: '2025-01-02', to: '2025-01-31', problem: null })
    expect(read('?from=%202024-03-18%20&to=2025-03-18')).toMatchObject({ from: '2024-03-18', to: '2025-03-18', problem: null })
  })

  test('a bad period shows the last 30 days, says why, and keeps what was typed', () => {
    expect(read('?from=2025-02-30&to=2025-03-10')).toEqual({ from: '2025-02-17', to: '2025-03-18', typed: { from: '2025-02-30', to: '2025-03-10' }, problem: 'invalid' })
    expect(read('?from=1999-12-31')).toMatchObject({ problem: 'invalid' })
    expect(read('?from=ontem')).toMatchObject({ problem: 'invalid', typed: { from: 'ontem', to: '' } })
    expect(read('?from=2025-03-10&to=2025-03-09')).toMatchObject({ from: '2025-02-17', problem: 'order' })
    // 367 days; 366 (a leap year) is the longest.
    expect(read('?from=2024-03-17&to=2025-03-18')).toMatchObject({ problem: 'tooLong' })
    expect(read('?from=2024-01-01&to=2024-12-31')).toMatchObject({ problem: null })
    expect(read(`?from=${'9'.repeat(500)}`).typed.from).toHaveLength(40)
  })

  test('quick periods end today; 12 months are whole calendar months up to this one', () => {
    expect(quickPeriod('7d', '2025-03-18')).toEqual({ from: '2025-03-12', to: '2025-03-18' })
    expect(quickPeriod('30d', '2025-03-18')).toEqual({ from: '2025-02-17', to: '2025-03-18' })
    expect(quickPeriod('90d', '2025-03-18')).toEqual({ from: '2024-12-19', to: '2025-03-18' })
    expect(quickPeriod('12m', '2025-03-18')).toEqual({ from: '2024-04-01', to: '2025-03-18' })
    expect(quickPeriod('12m', '2025-12-31')).toEqual({ from: '2025-01-01', to: '2025-12-31' })
    expect(quickPeriod('12m', '2025-11-05')).toEqual({ from: '2024-12-01', to: '2025-11-05' })
  })

  test('the quick link of the period shown is the current one', () => {
    const links = quickLinks(read(''), '2025-03-18')
    expect(links.map((link) => [link.key, link.href, link.current])).toEqual([
      ['7d', '/admin/dashboard?from=2025-03-12&to=2025-03-18', false],
      ['30d', '/admin/dashboard?from=2025-02-17&to=2025-03-18', true],
      ['90d', '/admin/dashboard?from=2024-12-19&to=2025-03-18', false],
      ['12m', '/admin/dashboard?from=2024-04-01&to=2025-03-18', false],
    ])
    // A refused period is shown as the last 30 days, but no link was chosen.
    expect(quickLinks(read('?from=x'), '2025-03-18').some((link) => link.current)).toBe(false)
  })
})

describe('the page’s numbers and texts', () => {
  const view = (overrides: Record<string, unknown> = {}, language: 'pt' | 'en' | 'es' = 'pt') => dashboardView(adminDashboardSchema.parse(dashboardAnswer(overrides)), language)

  test('money in BRL as the language writes it, sums past R$ 10 million too', () => {
    expect(formatCents(123_456, 'pt')).toBe(`R$${NBSP}1.234,56`)
    expect(formatCents(123_456, 'en')).toBe('R$1,234.56')
    expect(formatCents(1_500_000_000, 'pt')).toBe(`R$${NBSP}15.000.000,00`)
  })

  test('totals, period and the day rows in Portuguese', () => {
    const { period, totals, charts } = view()
    expect({ ...period, label: plain(period.label) }).toEqual({ from: '2025-03-01', to: '2025-03-03', bucket: 'day', label: '1 – 3 de mar. de 2025' })
    expect(Object.fromEntries(totals.map((total) => [total.key, total.value]))).toEqual({
      new_users: '8',
      assessments: '2',
      appointments_booked: '3',
      appointments_cancelled: '1',
      appointments_no_show: '1',
      revenue_pix_cents: `R$${NBSP}100,00`,
      revenue_card_cents: `R$${NBSP}1.484,56`,
      refunds_cents: `R$${NBSP}50,00`,
      conversations_started: '1',
      messages_sent: '4',
      active_subscriptions: '4',
      active_subscriptions_at_end: '3',
    })
    const users = charts.find((chart) => chart.key === 'new_users')!
    expect(users.ticks).toEqual({ top: '8', middle: '4', zero: '0' })
    expect(users.bars.map((bar) => [bar.axisLabel, bar.label, bar.shown, bar.heights])).toEqual([
      ['1 de mar.', 'sáb., 1 de mar.', ['7'], [87.5]],
      ['2 de mar.', 'dom., 2 de mar.', ['1'], [12.5]],
      ['3 de mar.', 'seg., 3 de mar.', ['0'], [0]],
    ])
    expect(users.peak).toEqual({ label: 'sáb., 1 de mar.', value: '7' })
    expect(charts.map((chart) => chart.key)).toEqual(['new_users', 'assessments', 'appointments_booked', 'appointments_cancelled', 'appointments_no_show', 'revenue', 'refunds_cents', 'conversations_started', 'messages_sent'])
  })

  test('revenue stacks PIX under card, with each method’s total and both together', () => {
    const revenue = view().charts.find((chart) => chart.key === 'revenue')!
    expect(revenue.metrics).toEqual(['revenue_pix_cents', 'revenue_card_cents'])
    // The largest day is R$ 1.234,56: the axis tops at R$ 2.000,00.
    expect(revenue.ticks).toEqual({ top: `R$${NBSP}2.000,00`, middle: `R$${NBSP}1.000,00`, zero: `R$${NBSP}0,00` })
    expect(revenue.bars[0]).toMatchObject({ values: [10_000, 25_000], heights: [5, 12.5], shown: [`R$${NBSP}100,00`, `R$${NBSP}250,00`], total: `R$${NBSP}350,00` })
    expect(revenue.totals).toEqual([`R$${NBSP}100,00`, `R$${NBSP}1.484,56`])
    expect(revenue.total).toBe(`R$${NBSP}1.584,56`)
    expect(revenue.peak).toEqual({ label: 'seg., 3 de mar.', value: `R$${NBSP}1.234,56` })
  })

  test('weeks and months are labelled as ranges and months; an empty chart has no peak', () => {
    const weeks = view({ bucket: 'week', from: '2025-03-05', to: '2025-03-19', series: [{ ...dashboardAnswer().series[0], start: '2025-03-05' }, { ...dashboardAnswer().series[1], start: '2025-03-10' }, { ...dashboardAnswer().series[2], start: '2025-03-17' }] }, 'en')
    expect(weeks.charts[0]!.bars.map((bar) => [bar.axisLabel, plain(bar.label)])).toEqual([
      ['Mar 5', 'Mar 5 – 9'],
      ['Mar 10', 'Mar 10 – 16'],
      ['Mar 17', 'Mar 17 – 19'],
    ])
    const months = view({ bucket: 'month', from: '2024-12-15', to: '2025-01-20', series: [{ ...dashboardAnswer().series[0], start: '2024-12-15' }, { ...dashboardAnswer().series[2], start: '2025-01-01' }] }, 'es')
    expect(plain(months.period.label)).toBe('15 dic 2024 – 20 ene 2025')
    expect(months.charts[0]!.bars.map((bar) => [bar.axisLabel, bar.label])).toEqual([
      ['dic 2024', 'diciembre de 2024'],
      ['ene 2025', 'enero de 2025'],
    ])
    const refunds = months.charts.find((chart) => chart.key === 'refunds_cents')!
    expect(refunds.peak).toBeNull()
    expect(refunds.ticks.top).toBe(`0,02${NBSP}R$`)
  })
})
