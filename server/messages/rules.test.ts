import { describe, expect, it } from 'vitest'
import { DELETE_WINDOW_MS, hasCareLink, mayDelete, MESSAGE_BLANK, MESSAGE_NUL, MESSAGE_TOO_LONG, messageText, previewOf } from '#server/messages/rules.ts'

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
