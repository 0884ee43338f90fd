import { PassThrough } from 'node:stream'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { BodyBudget, DRAIN_FACTOR, MAX_FORM_BYTES, MAX_MESSAGE_UPLOAD_BYTES, MAX_UPLOAD_BYTES, bodyLimitFor, bodyTimeoutFor, declaresTooMuch, longestBodyTimeout, receiveBody } from './body-limit.server.ts'

describe('bodyLimitFor', () => {
  test('the profile form (a photo) may carry more than the others', () => {
    for (const path of ['/perfil', '/perfil.data', '/perfil/']) expect(bodyLimitFor(path), path).toBe(MAX_UPLOAD_BYTES)
    for (const path of ['/contato', '/contato.data', '/perfil-x', '/x/perfil', '/auth']) expect(bodyLimitFor(path), path).toBe(MAX_FORM_BYTES)
    expect(MAX_FORM_BYTES).toBe(1024 * 1024)
    expect(MAX_UPLOAD_BYTES).toBeGreaterThan(2 * 1024 * 1024)
    // A conversation's thread takes a message's five files of 10 MB (decision 0086); its list and other paths do not.
    for (const path of ['/mensagens/5', '/mensagens/5.data', '/mensagens/123/']) expect(bodyLimitFor(path), path).toBe(MAX_MESSAGE_UPLOAD_BYTES)
    for (const path of ['/mensagens', '/mensagens/5/x', '/mensagens/abc', '/x/mensagens/5']) expect(bodyLimitFor(path), path).toBe(MAX_FORM_BYTES)
    expect(MAX_MESSAGE_UPLOAD_BYTES).toBeGreaterThan(5 * 10 * 1024 * 1024)
  })
})

describe('declaresTooMuch', () => {
  test('only a declared length over the limit', () => {
    expect(declaresTooMuch(undefined, 10)).toBe(false)
    expect(declaresTooMuch('10', 10)).toBe(false)
    expect(declaresTooMuch('11', 10)).toBe(true)
    expect(declaresTooMuch('nonsense', 10)).toBe(false)
  })
})

describe('receiveBody', () => {
  const budget = () => new BodyBudget(1024)

  test('gives the whole body once it has arrived, its bytes taken from the budget until released', async () => {
    const source = new PassThrough()
    const shared = budget()
    const receiving = receiveBody(source, { limit: 11, timeoutMs: 1_000, budget: shared })
    source.write('hello ')
    source.end('world')
    const received = await receiving
    expect(received.kind).toBe('complete')
    expect(received.kind === 'complete' && received.body.toString()).toBe('hello world')
    expect(shared.used).toBe(11)
  })

  test('refuses a declared length over the limit without keeping a byte, and drains it when it is not far over', async () => {
    const near = new PassThrough()
    const shared = budget()
    expect(await receiveBody(near, { limit: 10, timeoutMs: 1_000, declaredLength: String(10 * DRAIN_FACTOR), budget: shared })).toEqual({ kind: 'too-large', drain: true })
    near.write('x'.repeat(40))
    expect(near.readableFlowing).toBe(true)
    expect(shared.used).toBe(0)
    near.end()
  })

  test('refuses a declared length far over the limit before reading a byte: the connection is to close', async () => {
    const source = new PassThrough()
    expect(await receiveBody(source, { limit: 10, timeoutMs: 1_000, declaredLength: String(10 * DRAIN_FACTOR + 1), budget: budget() })).toEqual({ kind: 'too-large', drain: false })
    expect(source.listenerCount('data')).toBe(0)
    expect(source.readableFlowing).not.toBe(true)
  })

  test('stops keeping a body past the limit, gives its bytes back, and drains the rest', async () => {
    const source = new PassThrough()
    const shared = budget()
    const receiving = receiveBody(source, { limit: 8, timeoutMs: 1_000, budget: shared })
    source.write('12345')
    source.write('67890')
    expect(await receiving).toEqual({ kind: 'too-large', drain: false })
    expect(shared.used).toBe(0)
    // The rest flows on into nothing: the connection stays usable for the answer.
    source.write('x'.repeat(1000))
    expect(source.readableFlowing).toBe(true)
    source.end()
  })

  describe('a body that trickles', () => {
    beforeEach(() => vi.useFakeTimers())
    afterEach(() => vi.useRealTimers())

    test('is given up at the deadline, however many bytes still come', async () => {
      const source = new PassThrough()
      const shared = budget()
      const receiving = receiveBody(source, { limit: 1000, timeoutMs: 10_000, declaredLength: '1000', budget: shared })
      for (let second = 0; second < 9; second++) {
        source.write('x')
        await vi.advanceTimersByTimeAsync(1_000)
      }
      await vi.advanceTimersByTimeAsync(1_000)
      expect(await receiving).toEqual({ kind: 'too-slow' })
      expect(shared.used).toBe(0)
    })
  })

  test('answers busy when the bodies held at once would pass the budget', async () => {
    const shared = new BodyBudget(10)
    const first = new PassThrough()
    const firstReceiving = receiveBody(first, { limit: 100, timeoutMs: 1_000, budget: shared })
    first.end('123456')
    expect((await firstReceiving).kind).toBe('complete')
    const second = new PassThrough()
    const secondReceiving = receiveBody(second, { limit: 100, timeoutMs: 1_000, budget: shared })
    second.end('123456')
    expect(await secondReceiving).toEqual({ kind: 'busy' })
    expect(shared.used).toBe(6)
    shared.release(6)
    expect(shared.used).toBe(0)
  })

  test('says so when the visitor goes away mid-body', async () => {
    const source = new PassThrough()
    const shared = budget()
    const receiving = receiveBody(source, { limit: 100, timeoutMs: 1_000, budget: shared })
    source.write('half')
    source.destroy()
    expect(await receiving).toEqual({ kind: 'gone' })
    expect(shared.used).toBe(0)
  })
})

describe('bodyTimeoutFor', () => {
  test('a form has the base time, an upload as many times more as it may be larger', () => {
    expect(bodyTimeoutFor('/contato', 10_000)).toBe(10_000)
    expect(bodyTimeoutFor('/perfil', 10_000)).toBe(60_000)
    expect(bodyTimeoutFor('/mensagens/5', 10_000)).toBe(510_000)
    expect(longestBodyTimeout(10_000)).toBe(510_000)
  })
})
