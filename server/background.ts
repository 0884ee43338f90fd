import type { Logger } from '#server/log.ts'

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
  /**
   * Runs `task` now and then every `intervalMs` after each run ends (never two runs of it at
   * once), apart from the queue of run(): a slow tick (an SMTP server taking its time) holds up
   * no response's work. A failing run is logged and the next one comes as usual. The timers do
   * not keep the process alive.
   */
  every(name: string, intervalMs: number, task: () => Promise<unknown>): void
  /** Stops the periodic tasks: no new run starts; resolves when the runs in progress have ended. */
  stop(): Promise<void>
}

type Periodic = { timer: ReturnType<typeof setTimeout> | undefined; running: Promise<void> | undefined }

/** `onRun`: told of each periodic run's end, well or not (the jobs' metrics). */
export function createBackgroundTasks(log: Logger, { onRun }: { onRun?: (name: string, ok: boolean) => void } = {}): BackgroundTasks {
  let tail: Promise<void> = Promise.resolve()
  let stopped = false
  const periodic: Periodic[] = []
  const failed = (name: string, error: unknown) =>
    log({ level: 'error', msg: 'background task failed', task: name, error: error instanceof Error ? error.message : String(error) })
  return {
    run(name, task) {
      tail = tail.then(async () => {
        try {
          await task()
        } catch (error) {
          failed(name, error)
        }
      })
    },
    every(name, intervalMs, task) {
      if (stopped) return
      const entry: Periodic = { timer: undefined, running: undefined }
      const fire = () => {
        entry.timer = undefined
        entry.running = (async () => {
          try {
            await task()
            onRun?.(name, true)
          } catch (error) {
            failed(name, error)
            onRun?.(name, false)
          }
        })().finally(() => {
          entry.running = undefined
          if (stopped) return
          entry.timer = setTimeout(fire, intervalMs)
          entry.timer.unref?.()
        })
      }
      periodic.push(entry)
      entry.timer = setTimeout(fire, 0)
      entry.timer.unref?.()
    },
    async stop() {
      stopped = true
      for (const entry of periodic) if (entry.timer) clearTimeout(entry.timer)
      await Promise.all(periodic.map((entry) => entry.running))
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
