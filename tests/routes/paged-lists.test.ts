import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, test } from 'vitest'
import { loader as historyLoader } from '#app/routes/avaliacao_.historico.tsx'
import { loader as sharedLoader } from '#app/routes/profissional.avaliacoes.tsx'
import { loader as patientsLoader } from '#app/routes/profissional.pacientes.tsx'
import { forgetDefinition } from '#app/provider/questionnaire.server.ts'
import { type SessionUser } from '#app/provider/schemas.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { getRequest, run } from '#tests/mocks/route.ts'
import { demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'

/**
 * The pages that list what users can grow (issue 22): each reads one page of 20 from the
 * provider, `?page=` is a whole number in bounds (anything else the first page), and a page past
 * the end shows the last page rather than an error page.
 */

const pillars = ['estresse', 'exercicio', 'alimento', 'sono', 'relacionamentos', 'substancias']
const localized = (text: string) => ({ pt: text, en: text, es: text })
const definition = {
  version: '2025.1',
  title: localized('Avaliação'),
  description: localized(''),
  scale: { min: 0, max: 4 },
  pillars: pillars.map((slug, index) => ({ slug, order: index + 1, name: localized(slug), questions: [] })),
}
const scores = Object.fromEntries(pillars.map((slug) => [slug, 50]))
const result = (id: number) => ({ id, version: '2025.1', submitted_at: '2025-03-18T12:00:00.000Z', scores, focus_pillars: ['sono'] })
const patient = { id: 4, username: 'paciente', first_name: 'Pedro', last_name: 'Santos' }

type Paged = { count: number; page: number; results?: { id: number }[]; patients?: { id: number }[] }
const lists: { name: string; path: string; loader: Parameters<typeof run>[0]; url: string; user: SessionUser; item: (id: number) => unknown }[] = [
  { name: 'the assessment history', path: '/questionnaire/results/', loader: historyLoader, url: '/avaliacao/historico', user: demoPatient, item: result },
  { name: 'the assessments shared with a professional', path: '/questionnaire/shared-with-me/', loader: sharedLoader, url: '/profissional/avaliacoes', user: demoProfessional, item: (id) => ({ ...result(id), shared_at: '2025-03-18T12:00:00.000Z', patient }) },
  { name: "a professional's patients", path: '/users/professionals/patients/', loader: patientsLoader, url: '/profissional/pacientes', user: demoProfessional, item: (id) => ({ ...patient, id, email: `p${id}@example.test`, photo: null }) },
]

beforeEach(() => {
  forgetDefinition()
  providerMock.use(
    http.get(providerUrl('/questionnaire/get/'), () => HttpResponse.json(definition)),
    http.get(providerUrl('/questionnaire/trends/'), () => HttpResponse.json({ count: 45, pillars: [] })),
  )
})

/** The provider holding 45 items, by pages of `page_size` (pages 1 to 3 for 20); what was asked, each time. */
function fortyFive(path: string, item: (id: number) => unknown) {
  const asked: Record<string, string>[] = []
  providerMock.use(
    http.get(providerUrl(path), ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams)
      asked.push(query)
      const size = Number(query.page_size ?? 20)
      const last = Math.ceil(45 / size)
      const page = query.page === 'last' ? last : Number(query.page ?? 1)
      if (!(page >= 1 && page <= last)) return HttpResponse.json({ detail: 'Invalid page.' }, { status: 404 })
      const ids = Array.from({ length: Math.min(size, 45 - (page - 1) * size) }, (_, index) => (page - 1) * size + index + 1)
      return HttpResponse.json({ count: 45, next: page < last ? `http://provider.test${path}?page=${page + 1}` : null, previous: page > 1 ? `http://provider.test${path}` : null, results: ids.map(item) })
    }),
  )
  return asked
}

describe.each(lists)('$name, by pages', ({ path, loader, url, user, item }) => {
  const load = async (search = '') => run(loader, getRequest(`http://app.test${url}${search}`, await signedIn(user)))
  const rows = (data: Paged) => (data.results ?? data.patients)!

  test('reads one page of 20, the one in ?page=', async () => {
    const asked = fortyFive(path, item)
    const first = (await load()).data as Paged
    expect(first).toMatchObject({ count: 45, page: 1 })
    expect(rows(first)).toHaveLength(20)
    const second = (await load('?page=2')).data as Paged
    expect(second).toMatchObject({ count: 45, page: 2 })
    expect(rows(second)[0]!.id).toBe(21)
    expect(asked).toEqual([{ page_size: '20' }, { page: '2', page_size: '20' }])
  })

  test('a junk page is the first page; one past the end shows the last page, not an error page', async () => {
    const asked = fortyFive(path, item)
    for (const junk of ['abc', '0', '-1', '1.5', '10001', '1e9']) {
      const loaded = await load(`?page=${junk}`)
      expect(loaded.status, junk).toBe(200)
      expect((loaded.data as Paged).page, junk).toBe(1)
    }
    expect(asked.every((query) => query.page === undefined)).toBe(true)
    const past = await load('?page=50')
    expect(past.status).toBe(200)
    expect(past.data).toMatchObject({ count: 45, page: 3 })
    expect(rows(past.data as Paged).map((row) => row.id)).toEqual([41, 42, 43, 44, 45])
  })
})
