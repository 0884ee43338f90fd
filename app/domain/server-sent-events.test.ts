import { describe, expect, test } from 'vitest'
import { COMMENT, eventParser, formatEvent } from './server-sent-events.ts'

describe('eventParser', () => {
  test('reads events whole however the text is cut, with their name, id and data lines', () => {
    const feed = eventParser()
    expect(feed('event: message\nid: 4')).toEqual([])
    expect(feed('2\ndata: {"a":1}\n')).toEqual([])
    expect(feed('\nevent: read\r\ndata: x\r\ndata: y\r\n\r\n')).toEqual([
      { event: 'message', id: '42', data: '{"a":1}' },
      { event: 'read', data: 'x\ny' },
    ])
  })

  test('a nameless event is a message; a comment alone is a keep-alive; an event without data is nothing', () => {
    const feed = eventParser()
    expect(feed('data:plain\n\n: keep-alive\n\nevent: read\n\nretry: 5\n\n')).toEqual([{ event: 'message', data: 'plain' }, { comment: true }])
  })

  test('a lone \\r ends a line, but one at the end of a piece waits for what follows', () => {
    const feed = eventParser()
    expect(feed('data: a\r')).toEqual([])
    expect(feed('\n\r\n')).toEqual([{ event: 'message', data: 'a' }])
    expect(feed('data: b\r\r')).toEqual([])
    expect(feed('data: c\n\n')).toEqual([{ event: 'message', data: 'b' }, { event: 'message', data: 'c' }])
  })
})

describe('formatEvent', () => {
  test('writes the fields, one data line per line of text, and the blank line that ends it', () => {
    expect(formatEvent({ event: 'message', id: 7, data: 'um\ndois' })).toBe('id: 7\nevent: message\ndata: um\ndata: dois\n\n')
    expect(formatEvent({ retry: 2000 })).toBe('retry: 2000\n\n')
    expect(COMMENT).toBe(': keep-alive\n\n')
  })

  test('what it writes reads back as it was', () => {
    const feed = eventParser()
    expect(feed(formatEvent({ event: 'read', id: '3', data: 'a\r\nb' }))).toEqual([{ event: 'read', id: '3', data: 'a\nb' }])
  })
})
