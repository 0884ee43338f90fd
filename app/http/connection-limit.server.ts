import { type Socket } from 'node:net'

/** What a refused connection reads before it is closed: no Express, no render, no log line. */
const REFUSAL = 'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 5\r\nContent-Type: text/plain\r\nContent-Length: 36\r\n\r\nToo many connections from one place.'

/**
 * At most `perAddress` open connections from one address (decision 0038): one visitor cannot hold
 * every socket, body buffer and keep-alive slot of the app. A connection over the limit is answered
 * 503 and closed at once. Addresses of trusted proxies are not counted: their connections carry
 * many visitors, and a proxy in front is expected to buffer slow clients itself.
 */
export function limitConnectionsPerAddress({ perAddress, exempt }: { perAddress: number; exempt: (address: string) => boolean }) {
  const open = new Map<string, number>()
  const refused = new WeakSet<Socket>()
  return {
    /** For the server's 'connection' event, before Node's own listener (prependListener). */
    onConnection(socket: Socket) {
      const address = socket.remoteAddress
      if (!address || exempt(address)) return
      const count = (open.get(address) ?? 0) + 1
      if (count > perAddress) {
        refused.add(socket)
        // A client that keeps sending is cut off once the refusal is out.
        socket.once('finish', () => socket.destroy())
        socket.end(REFUSAL)
        return
      }
      open.set(address, count)
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1
        if (left > 0) open.set(address, left)
        else open.delete(address)
      })
    },
    /** A request that still arrives on a refused connection is not served. */
    isRefused: (socket: Socket) => refused.has(socket),
    /** Open connections per address, for tests. */
    openFrom: (address: string) => open.get(address) ?? 0,
  }
}
