import { z } from 'zod'
import { type ThreadMessageView } from '#app/domain/live-thread.ts'
import { COMMENT, eventParser, formatEvent } from '#app/domain/server-sent-events.ts'
import { type Message, messageSchema } from '#app/provider/message-schemas.ts'

/** How long the browser waits before it opens the stream again after it ended (EventSource's `retry`). */
export const RECONNECT_MS = 2000

const readEventSchema = z.object({ conversation_id: z.number(), read_up_to: z.number() })

/**
 * The provider's stream of the caller's messages (`GET /messages/stream/`) as one thread page
 * reads it (decision 0088): only this conversation's events, each message in the page's own shape
 * (`event: message`, `id` its id), each move of the other side's read mark (`event: read`,
 * `{readUpTo}`), keep-alives passed on; anything else, or unreadable, left out. An `id` is written
 * only when it passes every one before (a deleted message comes again with its old id), so the
 * browser's Last-Event-ID, sent back on a reconnect, is always the newest message it has.
 */
export function liveThreadStream(upstream: ReadableStream<Uint8Array>, { conversationId, after, view }: { conversationId: number; after: number; view: (message: Message) => ThreadMessageView }): ReadableStream<Uint8Array> {
  const feed = eventParser()
  const encoder = new TextEncoder()
  const decoder = new TextDecoder()
  let highest = after
  return upstream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(formatEvent({ retry: RECONNECT_MS })))
      },
      transform(chunk, controller) {
        let out = ''
        for (const event of feed(decoder.decode(chunk, { stream: true }))) {
          if ('comment' in event) {
            out += COMMENT
            continue
          }
          const data = parseJson(event.data)
          if (event.event === 'message') {
            const message = messageSchema.safeParse(data)
            if (!message.success || message.data.conversation_id !== conversationId) continue
            const newer = message.data.id > highest
            if (newer) highest = message.data.id
            out += formatEvent({ event: 'message', ...(newer ? { id: message.data.id } : {}), data: JSON.stringify(view(message.data)) })
          } else if (event.event === 'read') {
            const read = readEventSchema.safeParse(data)
            if (!read.success || read.data.conversation_id !== conversationId) continue
            out += formatEvent({ event: 'read', data: JSON.stringify({ readUpTo: read.data.read_up_to }) })
          }
        }
        if (out) controller.enqueue(encoder.encode(out))
      },
    }),
  )
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
