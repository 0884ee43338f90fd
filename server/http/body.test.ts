import { describe, expect, it } from 'vitest'
import { MAX_DEPTH, MAX_FIELDS, readRequestData } from '#server/http/body.ts'
import { ApiError } from '#server/http/errors.ts'

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
    expect(await readRequestData(post(null))).toEqual({ fields: {}, files: {}, fileLists: {} })
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

  it('keeps every file of one name in order (an input with multiple), the first also in files', async () => {
    const form = new FormData()
    for (const [index, name] of ['a.png', 'b.pdf', 'c.jpg'].entries()) form.append('attachments', new File([new Uint8Array(index + 1)], name))
    const data = await readRequestData(new Request('http://provider.test/x/', { method: 'POST', body: form }))
    expect(data.fileLists.attachments?.map((file) => [file.name, file.size])).toEqual([
      ['a.png', 1],
      ['b.pdf', 2],
      ['c.jpg', 3],
    ])
    expect(data.files.attachments?.name).toBe('a.png')
  })

  it('refuses unknown media types', async () => {
    const error = await failure(readRequestData(post('hello', 'text/plain')))
    expect(error.status).toBe(415)
    expect(error.body.detail).toBe('Unsupported media type "text/plain" in request.')
  })

  describe('bounds', () => {
    const NUL = { detail: 'Null characters are not allowed.' }
    const TOO_MANY = { detail: 'Too many fields: at most 1000 are allowed.' }
    const json = (value: unknown) => post(JSON.stringify(value), 'application/json')

    it('refuses a NUL in any JSON string or key, however deep', async () => {
      expect((await failure(readRequestData(json({ name: 'Ana\u0000' })))).body).toEqual(NUL)
      expect((await failure(readRequestData(json({ 'na\u0000me': 'Ana' })))).body).toEqual(NUL)
      expect((await failure(readRequestData(json({ answers: { a: ['x', { b: '\u0000' }] } })))).body).toEqual(NUL)
      // An escaped backslash before "u0000" is just text.
      expect((await readRequestData(post('{"bio":"\\\\u0000"}', 'application/json'))).fields).toEqual({ bio: '\\u0000' })
    })

    it('refuses a NUL in form fields, but not in uploaded bytes', async () => {
      expect((await failure(readRequestData(post('bio=a%00b', 'application/x-www-form-urlencoded')))).body).toEqual(NUL)
      expect((await failure(readRequestData(post('b%00io=ab', 'application/x-www-form-urlencoded')))).body).toEqual(NUL)
      const form = new FormData()
      form.set('bio', 'a\u0000b')
      expect((await failure(readRequestData(new Request('http://provider.test/x/', { method: 'POST', body: form })))).body).toEqual(NUL)
      const upload = new FormData()
      upload.set('photo', new File([new Uint8Array([0, 0, 1])], 'p.png'))
      expect((await readRequestData(new Request('http://provider.test/x/', { method: 'POST', body: upload }))).files.photo?.size).toBe(3)
    })

    it(`takes at most ${MAX_FIELDS} fields or keys per object`, async () => {
      const many = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, 1]))
      expect(Object.keys((await readRequestData(json(many(MAX_FIELDS)))).fields)).toHaveLength(MAX_FIELDS)
      expect((await failure(readRequestData(json(many(MAX_FIELDS + 1))))).body).toEqual(TOO_MANY)
      expect((await failure(readRequestData(json({ answers: many(MAX_FIELDS + 1) })))).body).toEqual(TOO_MANY)
      const form = Array.from({ length: MAX_FIELDS + 1 }, (_, index) => `k${index}=1`).join('&')
      expect((await failure(readRequestData(post(form, 'application/x-www-form-urlencoded')))).body).toEqual(TOO_MANY)
      const multipart = new FormData()
      for (let index = 0; index <= MAX_FIELDS; index += 1) multipart.append(`k${index}`, '1')
      expect((await failure(readRequestData(new Request('http://provider.test/x/', { method: 'POST', body: multipart })))).body).toEqual(TOO_MANY)
    })

    it('leaves long lists to the fields (they name the field in their error)', async () => {
      const ids = Array.from({ length: 100_000 }, (_, index) => index + 1)
      expect(((await readRequestData(json({ professionals: ids }))).fields.professionals as number[]).length).toBe(100_000)
    })

    it(`refuses nesting deeper than ${MAX_DEPTH} levels without exhausting the stack`, async () => {
      const nested = (depth: number) => `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`
      expect((await readRequestData(post(nested(MAX_DEPTH), 'application/json'))).fields).toHaveProperty('a')
      const error = await failure(readRequestData(post(nested(MAX_DEPTH + 1), 'application/json')))
      expect(error.status).toBe(400)
      expect(error.body.detail).toBe(`JSON parse error - nested deeper than ${MAX_DEPTH} levels.`)
      expect((await failure(readRequestData(post(nested(200_000), 'application/json')))).status).toBe(400)
    })
  })
})
