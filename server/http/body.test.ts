import { describe, expect, it } from 'vitest'
import { readRequestData } from './body'
import { ApiError } from './errors'

const post = (body: BodyInit | null, contentType?: string) =>
  new Request('http://provider.test/x/', {
    method: 'POST',
    body,
    headers: contentType ? { 'content-type': contentType } : {},
  })

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('expected the promise to reject')
}

describe('readRequestData', () => {
  it('parses a JSON object', async () => {
    expect((await readRequestData(post('{"email":"a@b.c"}', 'application/json; charset=utf-8'))).fields).toEqual({ email: 'a@b.c' })
  })

  it('treats an empty body as no data', async () => {
    expect(await readRequestData(post(null))).toEqual({ fields: {}, files: {} })
  })

  it('rejects malformed JSON with a DRF parse error', async () => {
    const error = await failure(readRequestData(post('{"email":', 'application/json')))
    expect(error.status).toBe(400)
    expect(String(error.body.detail)).toMatch(/^JSON parse error - /)
  })

  it('rejects JSON that is not an object', async () => {
    const error = await failure(readRequestData(post('[1]', 'application/json')))
    expect(error.body).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] })
  })

  it('parses form-urlencoded bodies', async () => {
    const data = await readRequestData(post('email=a%40b.c&x=1&x=2', 'application/x-www-form-urlencoded'))
    expect(data.fields).toEqual({ email: 'a@b.c', x: '1' })
  })

  it('parses multipart fields and files, dropping empty file inputs', async () => {
    const form = new FormData()
    form.set('bio', 'hello')
    form.set('photo', new File([new Uint8Array([1, 2])], 'p.png', { type: 'image/png' }))
    form.set('cover', new File([], '', { type: 'application/octet-stream' }))
    const data = await readRequestData(new Request('http://provider.test/x/', { method: 'POST', body: form }))
    // The nameless empty part of an untouched file input reads back as an empty string.
    expect(data.fields).toEqual({ bio: 'hello', cover: '' })
    expect(Object.keys(data.files)).toEqual(['photo'])
    expect(data.files.photo?.size).toBe(2)
  })

  it('refuses unknown media types', async () => {
    const error = await failure(readRequestData(post('hello', 'text/plain')))
    expect(error.status).toBe(415)
    expect(error.body.detail).toBe('Unsupported media type "text/plain" in request.')
  })
})
