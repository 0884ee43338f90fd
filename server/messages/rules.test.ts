import { describe, expect, it } from 'vitest'
import { DELETE_WINDOW_MS, hasCareLink, inQuietHours, mayDelete, MESSAGE_BLANK, MESSAGE_NUL, MESSAGE_TOO_LONG, messageText, previewOf } from '#server/messages/rules.ts'

const none = { booked: false, anyAppointment: false, shared: false, listed: false }

describe('the care link', () => {
  it('is an appointment, a shared assessment, or a listing no booking made', () => {
    expect(hasCareLink(none)).toBe(false)
    expect(hasCareLink({ ...none, booked: true, anyAppointment: true, listed: true })).toBe(true)
    expect(hasCareLink({ ...none, shared: true })).toBe(true)
    expect(hasCareLink({ ...none, listed: true })).toBe(true)
  })

  it('is not a hold that expired unpaid, even though its booking listed the patient', () => {
    expect(hasCareLink({ ...none, anyAppointment: true, listed: true })).toBe(false)
    expect(hasCareLink({ ...none, anyAppointment: true, listed: true, shared: true })).toBe(true)
  })
})

describe("a message's text", () => {
  it('keeps line breaks, as \\n', () => {
    expect(messageText('Olá\r\nposso mudar\rpara a noite?\n')).toEqual({ text: 'Olá\nposso mudar\npara a noite?\n' })
  })

  it('refuses blank, NUL and more than 4,000 characters, counted as people see them', () => {
    expect(messageText(' \n\t ')).toEqual({ problem: MESSAGE_BLANK })
    expect(messageText('a\u0000b')).toEqual({ problem: MESSAGE_NUL })
    expect(messageText('a'.repeat(4000))).toEqual({ text: 'a'.repeat(4000) })
    expect(messageText('a'.repeat(4001))).toEqual({ problem: MESSAGE_TOO_LONG })
    // 4,000 emoji are 8,000 UTF-16 units and 4,000 characters.
    expect(messageText('🙂'.repeat(4000))).toEqual({ text: '🙂'.repeat(4000) })
  })
})

describe('the preview and the delete window', () => {
  it('cuts a long text at a word, flattening line breaks', () => {
    expect(previewOf('Bom dia!\nTudo bem?')).toBe('Bom dia! Tudo bem?')
    expect(previewOf('palavra '.repeat(20), 30)).toBe('palavra palavra palavra…')
  })

  it('lets the sender delete for 15 minutes, to the millisecond', () => {
    expect(mayDelete(0, DELETE_WINDOW_MS)).toBe(true)
    expect(mayDelete(0, DELETE_WINDOW_MS + 1)).toBe(false)
  })
})

describe('quiet hours', () => {
  const quiet = { start: '22:00', end: '07:00' }

  it('are read on the recipient’s wall clock, across midnight', () => {
    // 01:30 UTC is 22:30 in São Paulo (UTC-3) and 02:30 in Lisbon (UTC+1 in winter).
    const instant = Date.UTC(2026, 11, 8, 1, 30)
    expect(inQuietHours(instant, 'America/Sao_Paulo', quiet)).toBe(true)
    expect(inQuietHours(instant, 'Europe/Lisbon', quiet)).toBe(true)
    expect(inQuietHours(Date.UTC(2026, 11, 8, 10, 0), 'America/Sao_Paulo', quiet)).toBe(false)
    expect(inQuietHours(Date.UTC(2026, 11, 8, 10, 0), 'America/Sao_Paulo', null)).toBe(false)
  })

  it('end at their end, excluded, and hold within one day too', () => {
    expect(inQuietHours(Date.UTC(2026, 11, 8, 10, 0), 'America/Sao_Paulo', quiet)).toBe(false) // 07:00
    expect(inQuietHours(Date.UTC(2026, 11, 8, 9, 59), 'America/Sao_Paulo', quiet)).toBe(true) // 06:59
    expect(inQuietHours(Date.UTC(2026, 11, 8, 16, 0), 'America/Sao_Paulo', { start: '12:00', end: '14:00' })).toBe(true) // 13:00
  })

  it('follow the wall clock through a change of the clocks', () => {
    // New York moves to summer time on 2026-03-08: 23:30 local is 04:30 UTC before, 03:30 UTC after.
    expect(inQuietHours(Date.UTC(2026, 2, 7, 4, 30), 'America/New_York', { start: '23:00', end: '23:59' })).toBe(true)
    expect(inQuietHours(Date.UTC(2026, 2, 9, 3, 30), 'America/New_York', { start: '23:00', end: '23:59' })).toBe(true)
    expect(inQuietHours(Date.UTC(2026, 2, 9, 4, 30), 'America/New_York', { start: '23:00', end: '23:59' })).toBe(false)
  })
})
