import type { Logger } from './log'

/**
 * Work that must not hold up a response, or whose duration must not be visible in it: the
 * account lookups, link tokens and outbox writes behind registration and password reset, so
 * that a known and an unknown e-mail answer alike and as fast. Tasks run one at a time in the
 * order given (a registration's account exists before a later reset request for it is looked
 * up); a failing task is logged and the next one runs.
 */
export type BackgroundTasks = {
  run(name: string, task: () => Promise<unknown>): void
  /** Resolves once every task given so far has finished: for tests and for shutdown. */
  idle(): Promise<void>
}

export function createBackgroundTasks(log: Logger): BackgroundTasks {
  let tail: Promise<void> = Promise.resolve()
  return {
    run(name, task) {
      tail = tail.then(async () => {
        try {
          await task()
        } catch (error) {
          log({ level: 'error', msg: 'background task failed', task: name, error: error instanceof Error ? error.message : String(error) })
        }
      })
    },
    async idle() {
      // Tasks may queue further tasks: wait until the queue stops growing.
      for (let seen: Promise<void> | undefined; seen !== tail; ) {
        seen = tail
        await seen
      }
    },
  }
}
