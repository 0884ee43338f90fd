/**
 * Structured logging: one JSON object per line. Callers pass only what is safe to keep:
 * never a token, a password, a request body or an e-mail's contents.
 */
export type LogEntry = { level: 'info' | 'warn' | 'error'; msg: string } & Record<string, unknown>
export type Logger = (entry: LogEntry) => void

export const jsonLogger: Logger = (entry) => {
  const line = JSON.stringify({ time: new Date().toISOString(), ...entry })
  if (entry.level === 'info') process.stdout.write(`${line}\n`)
  else process.stderr.write(`${line}\n`)
}

export const silentLogger: Logger = () => undefined
