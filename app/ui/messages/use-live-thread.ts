import { useFetcher } from '@remix-run/react'
import { useCallback, useEffect, useRef, useState } from 'react'
import { type PendingMessage, type ThreadMessageView, mergeMessages, newestId, stillPending, unseenFromOther, withReadMark } from '#app/domain/live-thread.ts'

/** After the stream failed for good (a refusal, the app gone), it is opened again this long after, growing to a minute. */
const REOPEN_MS = [2_000, 5_000, 15_000, 30_000, 60_000]

export type LiveConnection = 'off' | 'connecting' | 'open' | 'lost'

/**
 * The thread page with JavaScript (issue 44, decision 0088): the loader's messages, then those the
 * live stream (`/mensagens/{id}/eventos`) and the sends bring, each once and in order; the other
 * side's read mark, so "Lida" shows under mine as soon as they have seen them; the other side's new
 * messages marked read while the page is visible; the messages typed and not yet answered.
 *
 * EventSource opens the stream again after a drop with the newest message it had (Last-Event-ID);
 * when the stream is refused or the app unreachable it stops, and this opens it again later from
 * the newest message the page has. Either way nothing is missed, and nothing shows twice.
 */
export function useLiveThread({ conversationId, initial, live }: { conversationId: number; initial: ThreadMessageView[]; live: boolean }) {
  const [messages, setMessages] = useState(initial)
  const [readUpTo, setReadUpTo] = useState(0)
  const [pending, setPending] = useState<PendingMessage[]>([])
  const [connection, setConnection] = useState<LiveConnection>('off')
  const [arrived, setArrived] = useState(0)
  const newest = useRef(newestId(initial))
  // The loader marked the newest page read when it drew it.
  const seen = useRef(live ? newestId(initial) : Number.MAX_SAFE_INTEGER)
  const readFetcher = useFetcher({ key: `read-${conversationId}` })
  const submitRead = readFetcher.submit

  const current = useRef(initial)
  const follow = useRef(false)
  const receive = useCallback((incoming: ThreadMessageView[]) => {
    const known = new Set(current.current.map((message) => message.id))
    const fresh = incoming.filter((message) => !known.has(message.id))
    // A reader at the end of the thread stays there as messages come; one reading further up is left there.
    if (fresh.length && typeof window !== 'undefined') follow.current = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 160
    const merged = mergeMessages(current.current, incoming)
    current.current = merged
    newest.current = Math.max(newest.current, newestId(merged))
    setMessages(merged)
    if (fresh.length) setPending((waiting) => stillPending(waiting, fresh))
    const fromOther = fresh.filter((message) => !message.mine).length
    if (fromOther) setArrived((count) => count + fromOther)
  }, [])

  useEffect(() => {
    if (!follow.current) return
    follow.current = false
    document.getElementById(`mensagem-${newestId(messages)}`)?.scrollIntoView?.({ block: 'nearest' })
  }, [messages])

  // The loader's answer again (after a delete, "Atualizar"): merged in, never replacing what came live.
  useEffect(() => receive(initial), [initial, receive])

  useEffect(() => {
    if (!live || typeof EventSource === 'undefined') return
    let source: EventSource | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    let failures = 0
    const open = () => {
      setConnection('connecting')
      const opened = new EventSource(`/mensagens/${conversationId}/eventos?after=${newest.current}`)
      source = opened
      opened.addEventListener('open', () => {
        failures = 0
        setConnection('open')
      })
      opened.addEventListener('message', (event) => {
        const view = parse<ThreadMessageView>(event.data)
        if (view && typeof view.id === 'number') receive([view])
      })
      opened.addEventListener('read', (event) => {
        const mark = parse<{ readUpTo: number }>(event.data)?.readUpTo
        if (typeof mark === 'number') setReadUpTo((current) => Math.max(current, mark))
      })
      opened.addEventListener('error', () => {
        if (opened.readyState !== EventSource.CLOSED) return setConnection('connecting')
        opened.close()
        setConnection('lost')
        timer = setTimeout(open, REOPEN_MS[Math.min(failures, REOPEN_MS.length - 1)])
        failures += 1
      })
    }
    open()
    return () => {
      clearTimeout(timer)
      source?.close()
    }
  }, [conversationId, live, receive])

  // The other side's new messages, seen: marked read while the page is visible (never behind the reader's back).
  useEffect(() => {
    if (!live) return
    const markSeen = () => {
      if (document.visibilityState !== 'visible') return
      const upTo = unseenFromOther(messages, seen.current)
      if (upTo === null) return
      seen.current = upTo
      void submitRead({ intent: 'read', up_to: String(upTo) }, { method: 'post', action: `/mensagens/${conversationId}` })
    }
    markSeen()
    document.addEventListener('visibilitychange', markSeen)
    return () => document.removeEventListener('visibilitychange', markSeen)
  }, [messages, live, conversationId, submitRead])

  const addPending = useCallback((message: PendingMessage) => setPending((waiting) => [...waiting, message]), [])
  const dropPending = useCallback((key: string) => setPending((waiting) => waiting.filter((message) => message.key !== key)), [])

  return { messages: withReadMark(messages, readUpTo), pending, connection, arrived, receive, addPending, dropPending }
}

function parse<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T
  } catch {
    return undefined
  }
}

/** A new idempotency key for a send from the page (the provider takes 8-64 letters, digits and dashes). */
export function newMessageKey(): string {
  const bytes = new Uint8Array(16)
  crypto.getRandomValues(bytes)
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}
