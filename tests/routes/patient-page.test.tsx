// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import PatientPage, { loader } from '#app/routes/profissional.pacientes_.$id/route.tsx'
import { appointment } from '#tests/mocks/appointments.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { run } from '#tests/mocks/route.ts'
import { demoAdmin, demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'
import { barrier } from '#tests/mocks/barrier.ts'
import { ignoreRouterFutureWarnings, renderRoute } from '#tests/mocks/route-stub.ts'

/**
 * A professional's page about one patient (issue 12), over msw as the provider: the profile
 * decides the page, the appointments, the shared assessment and the program are read with it and
 * each says so when it could not be read.
 */

const PEDRO = demoPatient.id
const profile = {
  id: PEDRO,
  username: 'paciente',
  email: 'paciente@innera.local',
  first_name: 'Pedro',
  last_name: 'Santos',
  photo: null,
  phone: '',
  birth_date: '',
  bio: '',
  time_zone: 'America/Sao_Paulo',
  groups: ['paciente'],
}
const page = (results: unknown[]) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
})
const upcoming = appointment({
  id: 31,
  status: 'confirmed',
  professional: {
    id: 2,
    first_name: 'Paula',
    last_name: 'Ribeiro',
    photo: null,
    profession: 'Médica',
    registration_number: 'CRM 1',
  },
})
const past = appointment({
  id: 12,
  status: 'completed',
  start_time: '2026-11-02T13:00:00.000Z',
  end_time: '2026-11-02T13:50:00.000Z',
})
const shared = {
  id: 7,
  version: '2025.1',
  submitted_at: '2025-03-18T12:00:00.000Z',
  scores: { estresse: 20, sono: 40 },
  focus_pillars: ['estresse', 'sono'],
  shared_at: '2025-03-19T12:00:00.000Z',
  patient: {
    id: PEDRO,
    username: 'paciente',
    first_name: 'Pedro',
    last_name: 'Santos',
  },
}
const program = {
  id: 3,
  created_at: '2026-11-01T12:00:00.000Z',
  source: 'selection',
  questionnaire: null,
  starts_on: '2026-11-01',
  ends_on: '2026-12-26',
  weeks: 8,
  current_week: 5,
  finished: false,
  focus_pillars: ['sono', 'alimento'],
  pillars_order: ['sono', 'alimento', 'estresse', 'exercicio', 'relacionamentos', 'substancias'],
  progress: { done: 6, total: 24 },
}

type Answer = (request: Request) => Response | Promise<Response>
type Asked = {
  profile: URLSearchParams[]
  appointments: URLSearchParams[]
  shared: URLSearchParams[]
  program: string[]
}

/** The provider for this page; each answer can be replaced, and what the app asked is recorded. */
function patientProvider(answers: Partial<Record<'profile' | 'upcoming' | 'past' | 'shared' | 'program', Answer>> = {}) {
  const asked: Asked = {
    profile: [],
    appointments: [],
    shared: [],
    program: [],
  }
  providerMock.use(
    http.get(providerUrl('/users/patients/'), ({ request }) => {
      asked.profile.push(new URL(request.url).searchParams)
      return answers.profile ? answers.profile(request) : HttpResponse.json(profile)
    }),
    http.get(providerUrl('/appointments/'), ({ request }) => {
      const query = new URL(request.url).searchParams
      asked.appointments.push(query)
      const when = query.get('when') as 'upcoming' | 'past'
      const answer = answers[when]
      return answer ? answer(request) : HttpResponse.json(page(when === 'upcoming' ? [upcoming] : [past]))
    }),
    http.get(providerUrl('/questionnaire/shared-with-me/'), ({ request }) => {
      asked.shared.push(new URL(request.url).searchParams)
      return answers.shared ? answers.shared(request) : HttpResponse.json(page([shared]))
    }),
    http.get(providerUrl('/users/patients/:id/program/'), ({ request, params }) => {
      asked.program.push(String(params.id))
      return answers.program ? answers.program(request) : HttpResponse.json(program)
    }),
  )
  return asked
}

const request = async (user = demoProfessional, id = String(PEDRO)) =>
  run(
    loader,
    new Request(`http://app.test/profissional/pacientes/${id}`, {
      headers: { Cookie: await signedIn(user) },
    }),
    { id },
  )

type Loaded = {
  patient: { id: number; name: string; email: string }
  appointments: {
    upcoming: {
      items: { id: number; status: string; when: string }[]
      count: number
    } | null
    past: { items: { id: number }[] } | null
    zone: string | null
  } | null
  shared: 'unreadable' | null | { id: number; submittedAt: string; focus: string[] }
  program: 'unreadable' | null | { week: number; weeks: number; focus: string[] }
}

describe('the patient page loader', () => {
  test('reads the profile, both appointment lists, the shared assessment and the program at once, for this patient', async () => {
    const together = barrier(['profile', 'upcoming', 'past', 'shared', 'program'])
    const held = (name: string, body: unknown) => async () =>
      (await together(name)) ? HttpResponse.json(body as Record<string, unknown>) : HttpResponse.json({ detail: `${name} was asked alone` }, { status: 400 })
    const asked = patientProvider({
      profile: held('profile', profile),
      upcoming: held('upcoming', page([upcoming])),
      past: held('past', page([past])),
      shared: held('shared', page([shared])),
      program: held('program', program),
    })
    const loaded = await request()
    expect(loaded.status).toBe(200)
    const data = loaded.data as Loaded
    expect(asked.profile.map((query) => query.get('patient'))).toEqual([String(PEDRO)])
    expect(asked.appointments.map((query) => [query.get('patient'), query.get('when')]).sort()).toEqual([
      [String(PEDRO), 'past'],
      [String(PEDRO), 'upcoming'],
    ])
    expect(asked.shared.map((query) => query.get('patient'))).toEqual([String(PEDRO)])
    expect(asked.program).toEqual([String(PEDRO)])

    expect(data.patient).toEqual({
      id: PEDRO,
      name: 'Pedro Santos',
      email: 'paciente@innera.local',
    })
    expect(data.appointments?.upcoming?.items).toEqual([
      {
        id: 31,
        status: 'confirmed',
        when: 'qua., 2 de dez. de 2026, 09:00',
        zone: null,
      },
    ])
    expect(data.appointments?.past?.items.map((item) => item.id)).toEqual([12])
    expect(data.appointments?.zone).toMatch(/Brasília/)
    expect(data.shared).toEqual({
      id: 7,
      submittedAt: expect.stringContaining('18 de mar. de 2025'),
      focus: ['Gestão do estresse', 'Sono'],
    })
    expect(data.program).toMatchObject({
      week: 5,
      weeks: 8,
      focus: ['Sono', 'Alimentação'],
    })
  })

  test("times are in the appointment's zone (the professional's), whatever the professional's session says", async () => {
    patientProvider({
      upcoming: () => HttpResponse.json(page([{ ...upcoming, time_zone: 'Europe/Lisbon' }])),
      past: () => HttpResponse.json(page([])),
    })
    const data = (await request({ ...demoProfessional, time_zone: 'America/Sao_Paulo' })).data as Loaded
    expect(data.appointments?.upcoming?.items[0]!.when).toBe('qua., 2 de dez. de 2026, 12:00')
    expect(data.appointments?.zone).toMatch(/Lisbon/)
  })

  test.each([
    [403, 403],
    [404, 404],
  ])('a %i for the profile (not their patient, no patient) is the page’s %i', async (provider, page) => {
    patientProvider({
      profile: () => HttpResponse.json({ detail: 'no' }, { status: provider }),
    })
    expect((await request()).status).toBe(page)
  })

  test('an id that names nothing is a 404 without asking the provider', async () => {
    const asked = patientProvider()
    expect((await request(demoProfessional, 'abc')).status).toBe(404)
    expect(asked.profile).toHaveLength(0)
  })

  test('a part the provider could not answer says so; the rest of the page shows', async () => {
    patientProvider({
      program: () => HttpResponse.json({ detail: 'boom' }, { status: 500 }),
      shared: () => HttpResponse.error(),
      past: () => HttpResponse.json({ detail: 'boom' }, { status: 503 }),
    })
    const loaded = await request()
    expect(loaded.status).toBe(200)
    const data = loaded.data as Loaded
    expect(data.patient.name).toBe('Pedro Santos')
    expect(data.program).toBe('unreadable')
    expect(data.shared).toBe('unreadable')
    expect(data.appointments?.upcoming?.items.map((item) => item.id)).toEqual([31])
    expect(data.appointments?.past).toBeNull()
  })

  test('both appointment lists failing is one message; the pillar list failing leaves the slugs', async () => {
    const down = () => HttpResponse.json({ detail: 'boom' }, { status: 500 })
    patientProvider({ upcoming: down, past: down })
    providerMock.use(http.get(providerUrl('/pillars/'), down))
    const data = (await request()).data as Loaded
    expect(data.appointments).toBeNull()
    expect(data.program).toMatchObject({ focus: ['sono', 'alimento'] })
  })

  test('nothing shared yet and no program yet are not failures', async () => {
    patientProvider({
      shared: () => HttpResponse.json(page([])),
      program: () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 }),
    })
    const data = (await request()).data as Loaded
    expect(data.shared).toBeNull()
    expect(data.program).toBeNull()
  })

  test.each([
    ['a patient', demoPatient],
    ['an admin', demoAdmin],
  ])('%s gets a 403, like the list page, and the provider is not asked', async (_, user) => {
    const asked = patientProvider()
    expect((await request(user)).status).toBe(403)
    expect(asked.profile).toHaveLength(0)
  })
})

describe('the patient page', () => {
  beforeEach(() => {
    ignoreRouterFutureWarnings()
  })
  afterEach(() => cleanup())

  async function show() {
    return renderRoute(`/profissional/pacientes/${PEDRO}`, [{ path: '/profissional/pacientes/:id', Component: PatientPage, loader }], { cookie: await signedIn(demoProfessional) })
  }

  test('the name, the appointments with their status and link, the shared result, the program’s pillars', async () => {
    patientProvider()
    await show()
    expect(await screen.findByRole('heading', { level: 1, name: 'Pedro Santos' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'paciente@innera.local' })).toHaveAttribute('href', 'mailto:paciente@innera.local')
    expect(screen.getByRole('link', { name: 'Enviar mensagem' })).toHaveAttribute('href', `/mensagens?com=${PEDRO}`)
    const next = within(screen.getByRole('region', { name: 'Próximas' }))
    expect(next.getByText('Confirmada')).toBeInTheDocument()
    expect(
      next.getByRole('link', {
        name: /Consulta de qua., 2 de dez. de 2026, 09:00/,
      }),
    ).toHaveAttribute('href', '/consultas/31')
    expect(within(screen.getByRole('region', { name: 'Anteriores' })).getByRole('link', { name: /Detalhes/ })).toHaveAttribute('href', '/consultas/12')
    const sharedPart = within(screen.getByRole('region', { name: 'Avaliação compartilhada' }))
    expect(sharedPart.getByRole('link', { name: 'Ver o resultado completo' })).toHaveAttribute('href', '/avaliacao/resultado/7')
    const programPart = within(screen.getByRole('region', { name: 'Programa' }))
    expect(programPart.getByText(/Semana 5 de 8/)).toBeInTheDocument()
    expect(programPart.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Sono', 'Alimentação'])
  })

  test('a part that could not be read, and one with nothing yet, each in a line', async () => {
    patientProvider({
      program: () => HttpResponse.json({ detail: 'boom' }, { status: 500 }),
      shared: () => HttpResponse.json(page([])),
    })
    await show()
    expect(await screen.findByText('Não foi possível ler o programa agora. Tente de novo em instantes.')).toBeInTheDocument()
    expect(screen.getByText('Este paciente ainda não compartilhou nenhuma avaliação com você.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Consulta de qua., 2 de dez. de 2026/ })).toBeInTheDocument()
  })
})
