import { EventEmitter } from 'node:events'
import { type Socket } from 'node:net'
import { describe, expect, test } from 'vitest'
import { limitConnectionsPerAddress } from './connection-limit.server.ts'

/** Enough of a socket for the limit: an address, end, destroy and the events. */
function fakeSocket(remoteAddress: string) {
  const socket = Object.assign(new EventEmitter(), {
    remoteAddress,
    written: '',
    destroyed: false,
    end(data: string) {
      socket.written += data
      socket.emit('finish')
    },
    destroy() {
      socket.destroyed = true
      socket.emit('close')
    },
  })
  return socket
}

describe('limitConnectionsPerAddress', () => {
  test('refuses the connection over the limit from one address with a 503, and counts each address apart', () => {
    const limit = limitConnectionsPerAddress({ perAddress: 2, exempt: () => false })
    const sockets = [fakeSocket('203.0.113.7'), fakeSocket('203.0.113.7'), fakeSocket('203.0.113.7'), fakeSocket('198.51.100.1')]
    for (const socket of sockets) limit.onConnection(socket as unknown as Socket)
    expect(sockets.map((socket) => limit.isRefused(socket as unknown as Socket))).toEqual([false, false, true, false])
    expect(sockets[2]!.written).toMatch(/^HTTP\/1\.1 503 .*\r\nConnection: close\r\n/)
    expect(sockets[2]!.destroyed).toBe(true)
    expect(limit.openFrom('203.0.113.7')).toBe(2)
    expect(limit.openFrom('198.51.100.1')).toBe(1)
  })

  test('a closed connection frees its place', () => {
    const limit = limitConnectionsPerAddress({ perAddress: 1, exempt: () => false })
    const first = fakeSocket('203.0.113.7')
    limit.onConnection(first as unknown as Socket)
    first.destroy()
    expect(limit.openFrom('203.0.113.7')).toBe(0)
    const second = fakeSocket('203.0.113.7')
    limit.onConnection(second as unknown as Socket)
    expect(limit.isRefused(second as unknown as Socket)).toBe(false)
  })

  test('a trusted proxy is not counted: its connections carry many visitors', () => {
    const limit = limitConnectionsPerAddress({ perAddress: 1, exempt: (address) => address === '10.0.0.1' })
    const sockets = [fakeSocket('10.0.0.1'), fakeSocket('10.0.0.1'), fakeSocket('10.0.0.1')]
    for (const socket of sockets) limit.onConnection(socket as unknown as Socket)
    expect(sockets.some((socket) => limit.isRefused(socket as unknown as Socket))).toBe(false)
  })
})
