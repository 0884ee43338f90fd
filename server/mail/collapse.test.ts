import { describe, expect, test } from 'vitest'
import { appointmentCollapseKey, collapseNotices, readNoticeState, type NoticeState } from '#server/mail/collapse.ts'

const booked: NoticeState = { kind: 'confirmation' }
const cancelled: NoticeState = { kind: 'cancelled' }
const moved = (previousStart: string): NoticeState => ({ kind: 'moved', previousStart })
const MON = '2026-03-02T11:00:00.000Z'
const TUE = '2026-03-03T11:00:00.000Z'

describe('collapsing the messages about one appointment', () => {
  test('with nothing pending, the newer message goes as it is', () => {
    for (const next of [booked, moved(MON), cancelled]) expect(collapseNotices(undefined, next)).toEqual(next)
  })

  test('a cancellation is the last word, whatever was pending', () => {
    for (const pending of [booked, moved(MON), cancelled]) expect(collapseNotices(pending, cancelled)).toEqual(cancelled)
  })

  test('a move of a booking not yet told is the booking (at the new time, which the message reads from the appointment)', () => {
    expect(collapseNotices(booked, moved(MON))).toEqual(booked)
  })

  test('a move of a move says where it was when the recipient last heard', () => {
    expect(collapseNotices(moved(MON), moved(TUE))).toEqual(moved(MON))
  })

  test('a confirmation after a pending notice is the booking', () => {
    expect(collapseNotices(moved(MON), booked)).toEqual(booked)
  })

  test('one key per appointment and recipient', () => {
    expect(appointmentCollapseKey(12, 'patient')).toBe('appointment:12:patient')
    expect(appointmentCollapseKey(12, 'professional')).not.toBe(appointmentCollapseKey(12, 'patient'))
  })

  test('reads back what was stored, and nothing else', () => {
    expect(readNoticeState({ kind: 'moved', previousStart: MON })).toEqual(moved(MON))
    expect(readNoticeState({ kind: 'confirmation' })).toEqual(booked)
    expect(readNoticeState({ kind: 'moved' })).toBeUndefined()
    expect(readNoticeState({ kind: 'moved', previousStart: 'yesterday' })).toBeUndefined()
    expect(readNoticeState(null)).toBeUndefined()
    expect(readNoticeState('cancelled')).toBeUndefined()
  })
})
