import { describe, expect, it } from 'vitest'
import type { Database } from '#server/db/client.ts'
import { silentLogger } from '#server/log.ts'
import { messageBusOf } from '#server/messages/bus.ts'

describe('the message bus', () => {
  it('tries the listener again for the next subscriber when it could not start, and delivers to it', async () => {
    let attempts = 0
    let deliver: ((payload: string) => void) | undefined
    const client = {
      query: async () => ({ rows: [{ schema: 'public' }] }),
      listen: async (_channel: string, callback: (payload: string) => void) => {
        attempts += 1
        if (attempts === 1) throw new Error('database away')
        deliver = callback
        return async () => undefined
      },
    }
    const bus = messageBusOf({ $client: client } as unknown as Database, silentLogger)
    await expect(bus.subscribe(() => undefined)).rejects.toThrow('database away')
    const heard: number[] = []
    await bus.subscribe((event) => heard.push(event.conversation_id))
    deliver!(JSON.stringify({ kind: 'message', conversation_id: 7, patient_id: 1, professional_id: 2, message_id: 3 }))
    deliver!('not json')
    expect([attempts, heard]).toEqual([2, [7]])
    await bus.close()
  })
})
