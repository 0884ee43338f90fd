/**
 * Server-sent events (the HTML standard's `text/event-stream`) read and written as text, for the
 * app's live thread (decision 0088): the provider's stream is parsed event by event and written on
 * to the browser. No imports, no I/O.
 */
export type ServerSentEvent = { event: string; data: string; id?: string }

/** A stream's text fed in pieces, as it arrives: each call gives the events (and comments) it completed. */
export function eventParser() {
  let buffer = ''
  let event = ''
  let data: string[] = []
  let id: string | undefined
  let comment = false
  return function feed(text: string): (ServerSentEvent | { comment: true })[] {
    buffer += text
    const out: (ServerSentEvent | { comment: true })[] = []
    let end: number
    while ((end = lineEnd(buffer)) >= 0) {
      const line = buffer.slice(0, end)
      buffer = buffer.slice(end + (buffer[end] === '\r' && buffer[end + 1] === '\n' ? 2 : 1))
      if (line === '') {
        // A blank line ends the event: one with data, or (a keep-alive) only comments.
        if (data.length) out.push({ event: event || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) })
        else if (comment) out.push({ comment: true })
        event = ''
        data = []
        id = undefined
        comment = false
        continue
      }
      if (line.startsWith(':')) {
        comment = true
        continue
      }
      const colon = line.indexOf(':')
      const field = colon < 0 ? line : line.slice(0, colon)
      const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1))
      if (field === 'event') event = value
      else if (field === 'data') data.push(value)
      else if (field === 'id' && !value.includes('\u0000')) id = value
    }
    // A line never completed in a bounded buffer is no stream this app reads (an event is a few KB).
    if (buffer.length > 1_000_000) buffer = ''
    return out
  }
}

/** Where the buffer's first line ends (\n, \r\n or a lone \r), or -1; a \r at the very end waits for what follows. */
function lineEnd(buffer: string): number {
  for (let index = 0; index < buffer.length; index += 1) {
    const char = buffer[index]
    if (char === '\n') return index
    if (char === '\r') return index + 1 < buffer.length ? index : -1
  }
  return -1
}

/** One event as the stream's text; a multi-line data keeps its lines. */
export function formatEvent({ event, data, id, retry }: { event?: string; data?: string; id?: string | number; retry?: number }): string {
  let text = ''
  if (retry !== undefined) text += `retry: ${retry}\n`
  if (id !== undefined) text += `id: ${id}\n`
  if (event !== undefined) text += `event: ${event}\n`
  if (data !== undefined) for (const line of data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`
  return `${text}\n`
}

/** A comment line (a keep-alive): it keeps a connection and the proxies on its way awake. */
export const COMMENT = ': keep-alive\n\n'
