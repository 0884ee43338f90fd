import { describe, expect, it } from 'vitest'
import { minutesOf, slotIssues, sortedSlots } from './availability'

describe('minutesOf', () => {
  it.each([
    ['00:00', 0],
    ['09:30', 570],
    ['23:59', 1439],
    ['24:00', 1440],
  ])('reads %s as %i minutes', (time, minutes) => expect(minutesOf(time)).toBe(minutes))

  it.each(['9:30', '24:01', '25:00', '12:60', '', '12-30', '12:30:00', ' 12:30'])('refuses %j', (time) => expect(minutesOf(time)).toBeNull())
})

describe('slotIssues', () => {
  it('accepts well-formed slots that do not overlap, in any order, end to end', () => {
    expect(slotIssues([{ start: '13:00', end: '18:00' }, { start: '08:00', end: '12:00' }, { start: '12:00', end: '13:00' }])).toEqual([])
    expect(slotIssues([{ start: '20:00', end: '24:00' }])).toEqual([])
  })

  it('puts each problem on its own row and field', () => {
    expect(
      slotIssues([
        { start: '08:00', end: '12:00' },
        { start: '8h', end: '10:00' },
        { start: '14:00', end: '13:00' },
        { start: '11:00', end: '12:30' },
        { start: '24:00', end: '24:00' },
      ]),
    ).toEqual([
      { index: 1, field: 'start', problem: 'format' },
      { index: 2, field: 'end', problem: 'order' },
      { index: 3, field: 'start', problem: 'overlap' },
      { index: 4, field: 'start', problem: 'format' },
    ])
  })

  it('reports an overlap on the later row even when it starts earlier', () => {
    expect(slotIssues([{ start: '10:00', end: '12:00' }, { start: '09:00', end: '10:30' }])).toEqual([{ index: 1, field: 'start', problem: 'overlap' }])
  })

  it('treats an equal start and end as out of order', () => {
    expect(slotIssues([{ start: '10:00', end: '10:00' }])).toEqual([{ index: 0, field: 'end', problem: 'order' }])
  })
})

describe('sortedSlots', () => {
  it('orders by start', () => {
    expect(sortedSlots([{ start: '13:00', end: '18:00' }, { start: '08:00', end: '12:00' }]).map((slot) => slot.start)).toEqual(['08:00', '13:00'])
  })
})
