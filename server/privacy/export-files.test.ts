import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { describe, expect, it } from 'vitest'
import {
  ANSWER_COLUMNS,
  answerCsvRows,
  APPOINTMENT_COLUMNS,
  appointmentCsvRow,
  CSV_OPTIONS,
  EXPORT_FILES,
  exportFileName,
  HABIT_ENTRY_COLUMNS,
  habitEntryCsvRow,
  jsonArrayChunk,
  jsonArrayEnd,
  programJson,
  purchaseCsvRow,
  readme,
  type StoredAppointment,
} from '#server/privacy/export-files.ts'

const NOW = Date.parse('2026-11-27T12:00:00Z')

const appointment = (over: Partial<StoredAppointment> = {}): StoredAppointment => ({
  id: 9,
  patientId: 4,
  status: 'completed',
  startTime: new Date('2026-11-20T13:00:00Z'),
  endTime: new Date('2026-11-20T13:50:00Z'),
  notes: 'Dor nas costas',
  sharedNotes: 'Caminhar 20 min',
  privateNotes: 'Observação clínica',
  priceCents: 25000,
  paymentReference: 'purchase:3',
  createdAt: new Date('2026-11-10T10:00:00Z'),
  cancelledAt: null,
  cancelledBy: null,
  refund: null,
  otherFirstName: 'Paula',
  otherLastName: 'Ribeiro',
  ...over,
})

const csvOf = (columns: { key: string }[], rows: object[]) => stringify(rows, { ...CSV_OPTIONS, columns })
const parsed = (text: string) => parse(text, { bom: true, columns: true }) as Record<string, string>[]

describe('the export files', () => {
  it('are named for the day and explained by LEIA-ME in the language asked for, every file listed', () => {
    expect(exportFileName('2026-11-27')).toBe('innera-dados-2026-11-27.zip')
    for (const language of ['pt', 'en', 'es'] as const) {
      const text = readme(language, NOW)
      expect(text).toContain('2026-11-27T12:00:00.000Z')
      for (const file of EXPORT_FILES.filter((name) => name !== 'LEIA-ME.txt')) expect(text).toContain(`- ${file}: `)
    }
    expect(readme('pt', NOW)).toMatch(/^Seus dados na Innera/)
    expect(readme('en', NOW)).toMatch(/^Your data at Innera/)
  })

  it('write CSV with a BOM and a header, a formula-like cell escaped, numbers left as numbers', () => {
    const text = csvOf(HABIT_ENTRY_COLUMNS, [
      habitEntryCsvRow({ habitId: 1, date: '2026-11-20', status: 'done', amount: -2.5, updatedAt: new Date(NOW) }),
      habitEntryCsvRow({ habitId: 1, date: '2026-11-21', status: '=HYPERLINK("http://x")', amount: null, updatedAt: new Date(NOW) }),
    ])
    expect(text.startsWith('\uFEFFhabit_id,date,status,amount,updated_at\n')).toBe(true)
    const rows = parsed(text)
    expect(rows[0]).toEqual({ habit_id: '1', date: '2026-11-20', status: 'done', amount: '-2.5', updated_at: '2026-11-27T12:00:00.000Z' })
    expect(rows[1]!.status).toBe(`'=HYPERLINK("http://x")`)
    expect(rows[1]!.amount).toBe('')
    for (const start of ['+', '-', '@', '\t', '\r']) {
      expect(parsed(csvOf([{ key: 'v' }], [{ v: `${start}cmd` }]))[0]!.v).toBe(`'${start}cmd`)
    }
  })

  it("show a patient their own notes and what was shared, never the professional's private notes; a professional theirs", () => {
    expect(appointmentCsvRow(appointment(), 4)).toMatchObject({ my_role: 'patient', with: 'Paula Ribeiro', my_notes: 'Dor nas costas', shared_notes: 'Caminhar 20 min', private_notes: '', price_cents: 25000 })
    expect(appointmentCsvRow(appointment({ otherFirstName: 'Pedro', otherLastName: 'Santos' }), 2)).toMatchObject({ my_role: 'professional', with: 'Pedro Santos', my_notes: '', private_notes: 'Observação clínica' })
    const text = csvOf(APPOINTMENT_COLUMNS, [appointmentCsvRow(appointment(), 4)])
    expect(parsed(text)[0]).toMatchObject({ id: '9', start_time: '2026-11-20T13:00:00.000Z', my_notes: 'Dor nas costas' })
  })

  it('give one row per answer, in the question codes order', () => {
    const rows = answerCsvRows({ id: 3, version: '2025.1', submittedAt: new Date(NOW), answers: { sono_2: 1, estresse_1: 4, sono_1: 0 }, scores: {}, focusPillars: [] })
    expect(rows.map((row) => [row.question, row.answer])).toEqual([
      ['estresse_1', 4],
      ['sono_1', 0],
      ['sono_2', 1],
    ])
    expect(parsed(csvOf(ANSWER_COLUMNS, rows))).toHaveLength(3)
  })

  it('write a JSON array as it streams, which parses whole, empty included', () => {
    const values = [{ a: 1 }, { b: 'ç' }, { c: [1, 2] }]
    expect(JSON.parse(values.map(jsonArrayChunk).join('') + jsonArrayEnd(values.length))).toEqual(values)
    expect(JSON.parse(jsonArrayEnd(0))).toEqual([])
    const program = programJson(
      { id: 1, createdAt: new Date(NOW), source: 'questionnaire', startsOn: '2026-11-30', weeks: 8, focusPillars: ['sono'], pillarsOrder: ['sono'] },
      [
        { programId: 1, week: 1, position: 0, pillarSlug: 'sono', level: 1, focus: true, text: { pt: 'Dormir cedo' }, done: true, doneAt: new Date(NOW) },
        { programId: 2, week: 1, position: 0, pillarSlug: 'sono', level: 1, focus: true, text: { pt: 'Outro' }, done: false, doneAt: null },
      ],
    )
    expect(program.goals).toEqual([{ week: 1, pillar: 'sono', level: 1, focus: true, text: { pt: 'Dormir cedo' }, done: true, done_at: '2026-11-27T12:00:00.000Z' }])
  })

  it('list a purchase with its items, amounts in cents', () => {
    expect(
      purchaseCsvRow({
        id: 5,
        status: 'paid',
        method: 'pix',
        totalCents: 19700,
        refundedCents: 0,
        currency: 'brl',
        subscriptionId: null,
        createdAt: new Date(NOW),
        paidAt: new Date(NOW),
        items: [{ name: { pt: 'Curso Sono reparador' }, quantity: 1, lineCents: 19700 }],
      }),
    ).toMatchObject({ currency: 'BRL', items: '1 x Curso Sono reparador (19700)', subscription_id: '', paid_at: '2026-11-27T12:00:00.000Z' })
  })
})
