/**
 * Answers held until every named call has arrived: calls made one after another never all arrive,
 * and after `ms` each answers false (its call then fails). How the tests prove a loader's provider
 * calls run in parallel.
 */
export function barrier(names: string[], ms = 2000) {
  const arrived = new Set<string>()
  const waiting: (() => void)[] = []
  const all = () => names.every((name) => arrived.has(name))
  return async (name: string) => {
    arrived.add(name)
    if (all()) for (const release of waiting.splice(0)) release()
    else
      await new Promise<void>((resolve) => {
        waiting.push(resolve)
        setTimeout(resolve, ms)
      })
    return all()
  }
}
