import { describe, expect, it } from 'vitest'
import { readFormData } from './form-data.server.ts'

const post = (body: BodyInit | null, type?: string) =>
  new Request('http://localhost/x', { method: 'POST', body, headers: type ? { 'Content-Type': type } : {} })

async function statusOf(promise: Promise<unknown>) {
  try {
    await promise
    return 'resolved'
  } catch (error) {
    return (error as { init?: { status?: number } }).init?.status
  }
}

describe('readFormData', () => {
  it('reads urlencoded and multipart forms', async () => {
    expect((await readFormData(post('a=1&b=2', 'application/x-www-form-urlencoded'))).get('b')).toBe('2')
    const form = new FormData()
    form.set('name', 'Ana')
    expect((await readFormData(new Request('http://localhost/x', { method: 'POST', body: form }))).get('name')).toBe('Ana')
  })

  it('refuses what is not a form with 400', async () => {
    expect(await statusOf(readFormData(post(null)))).toBe(400)
    expect(await statusOf(readFormData(post('{"a":1}', 'application/json')))).toBe(400)
    expect(await statusOf(readFormData(post('<script>', 'text/plain')))).toBe(400)
    expect(await statusOf(readFormData(post('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nopen', 'multipart/form-data; boundary=x')))).toBe(400)
  })
})
