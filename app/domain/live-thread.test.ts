import { describe, expect, test } from 'vitest'
import { type ThreadMessageView, combineViews, mergeMessages, newestId, stillPending, unseenFromOther, withReadMark } from './live-thread.ts'

const view = (id: number, overrides: Partial<ThreadMessageView> = {}): ThreadMessageView => ({
  id,
  mine: false,
  text: `mensagem ${id}`,
  attachments: [],
  deleted: false,
  removed: false,
  read: false,
  canDelete: false,
  when: 'seg., 30 de nov. de 2026, 09:00',
  at: '2026-11-30T12:00:00.000Z',
  ...overrides,
})

describe('mergeMessages', () => {
  test('each message once, oldest first, whatever order they came in', () => {
    const merged = mergeMessages([view(3), view(5)], [view(7), view(4), view(5), view(7)])
    expect(merged.map((message) => message.id)).toEqual([3, 4, 5, 7])
  })

  test('a deleted message stays deleted whichever answer comes last; read and undeletable never go back', () => {
    const fresh = view(5, { mine: true, canDelete: true })
    const deleted = view(5, { mine: true, text: '', deleted: true, canDelete: false })
    const read = view(5, { mine: true, read: true, canDelete: true })
    for (const order of [[fresh, deleted, read], [deleted, read, fresh], [read, fresh, deleted]]) {
      const merged = order.reduce((list, message) => mergeMessages(list, [message]), [] as ThreadMessageView[])
      expect(merged).toEqual([view(5, { mine: true, text: '', deleted: true, read: true, canDelete: false })])
    }
    expect(combineViews(view(6, { removed: true, deleted: true, text: '' }), view(6))).toMatchObject({ removed: true, deleted: true, text: '' })
  })

  test('nothing incoming is the same list', () => {
    const list = [view(1)]
    expect(mergeMessages(list, [])).toBe(list)
  })
})

describe('the read mark', () => {
  test('marks mine up to it read, never the other side\'s nor mine after it', () => {
    const list = [view(1, { mine: true }), view(2), view(3, { mine: true })]
    expect(withReadMark(list, 2).map((message) => message.read)).toEqual([true, false, false])
    expect(withReadMark(list, 3).map((message) => message.read)).toEqual([true, false, true])
  })

  test("the other side's newest unseen message is the one to mark; none when all are seen or mine", () => {
    const list = [view(1), view(2, { mine: true }), view(4), view(6, { mine: true })]
    expect(unseenFromOther(list, 0)).toBe(4)
    expect(unseenFromOther(list, 4)).toBeNull()
    expect(newestId(list)).toBe(6)
    expect(newestId([])).toBe(0)
  })
})

describe('stillPending', () => {
  const pending = [
    { key: 'a', text: ' Oi\n', at: '2026-11-30T12:00:00.000Z' },
    { key: 'b', text: 'Oi', at: '2026-11-30T12:00:01.000Z' },
    { key: 'c', text: 'Tudo bem?', at: '2026-11-30T12:00:02.000Z' },
  ]

  test('a message of mine that arrives stands for the first one on its way with its text (trimmed)', () => {
    expect(stillPending(pending, [view(9, { mine: true, text: 'Oi' })]).map((message) => message.key)).toEqual(['b', 'c'])
    expect(stillPending(pending, [view(9, { mine: true, text: 'Oi' }), view(10, { mine: true, text: 'Oi' })]).map((message) => message.key)).toEqual(['c'])
  })

  test("the other side's messages and deleted ones take nothing away", () => {
    expect(stillPending(pending, [view(9, { text: 'Oi' }), view(10, { mine: true, deleted: true, text: '' })])).toBe(pending)
  })
})
