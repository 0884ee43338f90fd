import { describe, expect, test } from 'vitest'
import { type RequestContext } from './request-context.server.ts'
import { commitSession } from './session-commit.server.ts'

const contextWith = (cookie: string | undefined): RequestContext => ({ requestId: 'r', providerTimings: [], session: { setCookie: async () => cookie } })

describe('commitSession', () => {
  test('adds the session cookie the request changed', async () => {
    const headers = new Headers({ 'Set-Cookie': 'innera_toast=x; Path=/' })
    await commitSession(contextWith('__session=new; Path=/; HttpOnly'), headers)
    expect(headers.getSetCookie()).toEqual(['innera_toast=x; Path=/', '__session=new; Path=/; HttpOnly'])
  })

  test('adds nothing when the session did not change or was never read', async () => {
    const headers = new Headers()
    await commitSession(contextWith(undefined), headers)
    await commitSession({ requestId: 'r', providerTimings: [] }, headers)
    await commitSession(undefined, headers)
    expect(headers.getSetCookie()).toEqual([])
  })

  test('keeps a session cookie the response already sets', async () => {
    const headers = new Headers({ 'Set-Cookie': '__session=; Max-Age=0; Path=/' })
    await commitSession(contextWith('__session=other; Path=/'), headers)
    expect(headers.getSetCookie()).toEqual(['__session=; Max-Age=0; Path=/'])
  })
})
