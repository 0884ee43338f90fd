import { describe, expect, it, vi } from 'vitest'
import { createBackgroundTasks } from '#server/background.ts'
import type { LogEntry } from '#server/log.ts'

describe('background tasks', () => {
  it('runs tasks one at a time in order, logs failures and keeps going', async () => {
    const logged: LogEntry[] = []
    const tasks = createBackgroundTasks((entry) => logged.push(entry))
    const order: string[] = []
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5))
    tasks.run('first', async () => {
      await pause()
      order.push('first')
    })
    tasks.run('broken', async () => {
      throw new Error('outbox down')
    })
    tasks.run('last', async () => {
      order.push('last')
      tasks.run('queued by a task', async () => order.push('nested'))
    })
    expect(order).toEqual([])
    await tasks.idle()
    expect(order).toEqual(['first', 'last', 'nested'])
    expect(logged).toEqual([{ level: 'error', msg: 'background task failed', task: 'broken', error: 'outbox down' }])
  })

  it('runs a periodic task at once and then every interval after each run, never twice at once; stop() ends it cleanly', async () => {
    vi.useFakeTimers()
    try {
      const logged: LogEntry[] = []
      const tasks = createBackgroundTasks((entry) => logged.push(entry))
      let runs = 0
      let running = 0
      let overlapped = false
      let release: (() => void) | undefined
      tasks.every('tick', 1000, async () => {
        runs += 1
        running += 1
        if (running > 1) overlapped = true
        try {
          if (runs === 2) throw new Error('database busy')
          // The fourth run is slow: it is in progress when stop() is called.
          if (runs === 4) await new Promise<void>((resolve) => (release = resolve))
        } finally {
          running -= 1
        }
      })
      await vi.advanceTimersByTimeAsync(0)
      expect(runs).toBe(1)
      await vi.advanceTimersByTimeAsync(999)
      expect(runs).toBe(1)
      await vi.advanceTimersByTimeAsync(1)
      expect(runs).toBe(2)
      // A failed run is logged and the next one comes as usual.
      await vi.advanceTimersByTimeAsync(1000)
      expect(runs).toBe(3)
      await vi.advanceTimersByTimeAsync(1000)
      expect(runs).toBe(4)
      // While the fourth run hangs, no other starts.
      await vi.advanceTimersByTimeAsync(5000)
      expect(runs).toBe(4)
      let stopped = false
      const stopping = tasks.stop().then(() => (stopped = true))
      await vi.advanceTimersByTimeAsync(0)
      expect(stopped).toBe(false)
      release!()
      await stopping
      expect(stopped).toBe(true)
      await vi.advanceTimersByTimeAsync(10_000)
      expect(runs).toBe(4)
      expect(overlapped).toBe(false)
      expect(logged).toEqual([{ level: 'error', msg: 'background task failed', task: 'tick', error: 'database busy' }])
      // After stop(), nothing new starts.
      tasks.every('late', 1000, async () => (runs += 100))
      await vi.advanceTimersByTimeAsync(5000)
      expect(runs).toBe(4)
    } finally {
      vi.useRealTimers()
    }
  })
})
