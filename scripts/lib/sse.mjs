/**
 * Reads a server-sent event stream (a fetch Response's body): `onEvent({ event, id, data })` for
 * each whole event, once its blank line has come (an event may arrive over several chunks), until
 * the body ends or its request is aborted. `event` is 'message' when the stream names none.
 */
export async function readEvents(body, onEvent) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ done: true }))
    if (done) return
    buffer += value
    let end
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const field = (name) => new RegExp(`^${name}: (.*)$`, 'm').exec(block)?.[1]
      if (block.startsWith(':')) continue // a keep-alive comment
      onEvent({ event: field('event') ?? 'message', id: field('id'), data: field('data') })
    }
  }
}
