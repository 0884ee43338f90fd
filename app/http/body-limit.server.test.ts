import { PassThrough } from 'node:stream'
import { describe, expect, test } from 'vitest'
import { BodyTooLargeError, MAX_FORM_BYTES, MAX_UPLOAD_BYTES, bodyLimitFor, declaresTooMuch, limitedBody } from './body-limit.server.ts'

describe('bodyLimitFor', () => {
  test('the profile form (a photo) may carry more than the others', () => {
    for (const path of ['/perfil', '/perfil.data', '/perfil/']) expect(bodyLimitFor(path), path).toBe(MAX_UPLOAD_BYTES)
    for (const path of ['/contato', '/contato.data', '/perfil-x', '/x/perfil', '/auth']) expect(bodyLimitFor(path), path).toBe(MAX_FORM_BYTES)
    expect(MAX_FORM_BYTES).toBe(1024 * 1024)
    expect(MAX_UPLOAD_BYTES).toBeGreaterThan(2 * 1024 * 1024)
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

async function readAll(stream: ReadableStream<Uint8Array>) {
  return Buffer.from(await new Response(stream).arrayBuffer()).toString()
}

describe('limitedBody', () => {
  test('passes a body within the limit through whole', async () => {
    const source = new PassThrough()
    let tooLarge = false
    const body = limitedBody(source, 11, () => (tooLarge = true))
    source.write('hello ')
    source.end('world')
    expect(await readAll(body)).toBe('hello world')
    expect(tooLarge).toBe(false)
  })

  test('fails as soon as the limit is passed, says so, and keeps draining the rest', async () => {
    const source = new PassThrough()
    let tooLarge = false
    const body = limitedBody(source, 8, () => (tooLarge = true))
    const reading = readAll(body)
    source.write('12345')
    source.write('67890')
    await expect(reading).rejects.toBeInstanceOf(BodyTooLargeError)
    expect(tooLarge).toBe(true)
    // The rest flows on into nothing: the connection stays usable for the answer.
    source.write('x'.repeat(1000))
    expect(source.readableFlowing).toBe(true)
    source.end()
  })

  test('reads nothing until someone reads the body', async () => {
    const source = new PassThrough()
    limitedBody(source, 8, () => {})
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(source.listenerCount('data')).toBe(0)
  })
})
