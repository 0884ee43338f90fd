import { describe, expect, it } from 'vitest'
import { createBackgroundTasks } from './background'
import type { LogEntry } from './log'

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
})
