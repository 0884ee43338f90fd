import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { loader } from '#app/routes/admin.content.tsx'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { getRequest, run } from '#tests/mocks/route.ts'
import { demoAdmin, demoPatient, signedIn } from '#tests/mocks/session.ts'

/** /admin/content (decision 0064): each kind of content, what is published and the drafts waiting. */

const summary = {
  pillars: { published: 6, drafts: 1 },
  products: { published: 14, on_sale: 12, drafts: 0 },
  courses: { published: 6, offered: 6, lessons: 18, drafts: 2 },
  live_classes: { upcoming: 3, drafts: 0 },
  questionnaire: { versions: 1, current: '2025.1', drafts: 0 },
}

describe('/admin/content', () => {
  test('says per kind what is published and how many drafts wait, with the way to each editor', async () => {
    providerMock.use(http.get(providerUrl('/admin/content/'), () => HttpResponse.json(summary)))
    const cookie = await signedIn(demoAdmin)
    const result = await run(loader, getRequest('http://app.test/admin/content', cookie))
    expect(result.status).toBe(200)
    expect(result.headers.get('cache-control')).toBe('private, no-store')
    const sections = (result.data as { sections: { key: string; to: string; counts: string[]; drafts: number }[] }).sections
    expect(sections.map((section) => [section.key, section.to, section.drafts])).toEqual([
      ['pillars', '/admin/pillars', 1],
      ['products', '/admin/products', 0],
      ['courses', '/admin/courses', 2],
      ['liveClasses', '/admin/live-classes', 0],
      ['questionnaire', '/admin/questionnaire', 0],
    ])
    expect(sections[1]!.counts).toEqual(['14 produtos', '12 à venda'])
    expect(sections[4]!.counts).toEqual(['1 versão', 'Versão em uso: 2025.1'])
  })

  test('only admins: a patient gets 403 without the provider being asked', async () => {
    let asked = false
    providerMock.use(
      http.get(providerUrl('/admin/content/'), () => {
        asked = true
        return HttpResponse.json(summary)
      }),
    )
    const cookie = await signedIn(demoPatient)
    const result = await run(loader, getRequest('http://app.test/admin/content', cookie))
    expect(result.status).toBe(403)
    expect(asked).toBe(false)
  })
})
