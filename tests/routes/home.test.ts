import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { loader } from '#app/routes/_index.tsx'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'

const call = (url: string, headers: Record<string, string> = {}) =>
  loader({ request: new Request(url, { headers }), params: {}, context: {} })

describe('home loader', () => {
  test('lists the six pillars in order, in the visitor language', async () => {
    const data = await call('http://app.test/?lng=en')
    expect(data.pillars?.map((pillar) => pillar.slug)).toEqual(['estresse', 'exercicio', 'alimento', 'sono', 'relacionamentos', 'substancias'])
    expect(data.pillars?.[0]?.name).toBe('Stress management')
    expect(data.meta.title).toBe('Innera · Lifestyle medicine')
  })

  test('speaks Portuguese by default and ignores unsupported languages', async () => {
    const data = await call('http://app.test/?lng=fr')
    expect(data.pillars?.[3]?.name).toBe('Sono')
  })

  test('still renders when the provider is down', async () => {
    providerMock.use(http.get(providerUrl('/pillars/'), () => HttpResponse.error()))
    const data = await call('http://app.test/')
    expect(data.pillars).toBeUndefined()
  })

  test('treats a malformed provider answer as unavailable, not as a crash', async () => {
    providerMock.use(http.get(providerUrl('/pillars/'), () => new HttpResponse('<html>oops</html>', { status: 200 })))
    const data = await call('http://app.test/')
    expect(data.pillars).toBeUndefined()
  })
})
