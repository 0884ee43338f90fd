import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'

/** The provider as the app's tests see it: msw answers at this root. */
export const PROVIDER_URL = 'http://provider.test/'

export const providerUrl = (path: string) => new URL(path.replace(/^\//, ''), PROVIDER_URL).toString()

export const demoPillars = [
  ['estresse', 'brain', 'Gestão do estresse', 'Stress management', 'Manejo del estrés'],
  ['exercicio', 'activity', 'Atividade física', 'Physical activity', 'Actividad física'],
  ['alimento', 'apple', 'Alimentação', 'Nutrition', 'Alimentación'],
  ['sono', 'moon', 'Sono', 'Sleep', 'Sueño'],
  ['relacionamentos', 'users', 'Relacionamentos', 'Social relationships', 'Relaciones sociales'],
  ['substancias', 'shield', 'Controle de substâncias', 'Substance control', 'Control de sustancias'],
].map(([slug, icon, pt, en, es], index) => ({
  id: index + 1,
  slug: slug!,
  order: index + 1,
  icon: icon!,
  position: index % 2 === 0 ? 'left' : 'right',
  name: { pt: pt!, en: en!, es: es! },
  description: { pt: `Sobre ${pt}`, en: `About ${en}`, es: `Sobre ${es}` },
}))

export const defaultHandlers = [
  http.get(providerUrl('/pillars/'), () => HttpResponse.json(demoPillars)),
  http.get(providerUrl('/healthz/'), () => HttpResponse.json({ status: 'ok', database: 'ok' })),
  // Professionals' pages read the Google Calendar status (decision 0025): not connected unless a test says otherwise.
  http.get(providerUrl('/calendar/integration-status/'), () =>
    HttpResponse.json({ calendar_enabled: false, token_valid: false, primary_calendar_id: null, last_sync: null, connected: false, needs_reconnect: false, sync_in_progress: false, google_email: null }),
  ),
  // Booking's confirm step asks the professional's Google Calendar (decision 0025): free unless a test says otherwise.
  http.post(providerUrl('/calendar/availability/'), () => HttpResponse.json({ available: true, conflicts: [], warnings: [] })),
  // The patient's dashboard and program page show the habits (issue 14): none unless a test says otherwise.
  http.get(providerUrl('/habits/'), () => HttpResponse.json({ today: '2026-11-25', time_zone: 'America/Sao_Paulo', count: 0, next: null, previous: null, results: [] })),
  // The pillars with courses beside /pilares, /meu-programa and the courses of /meus-produtos (decision 0057): none unless a test says otherwise.
  http.get(providerUrl('/videos/courses/pillars/'), () => HttpResponse.json([])),
  http.get(providerUrl('/videos/courses/'), () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
  // The live classes of /aulas-ao-vivo and the seats of /meus-produtos (decision 0058): none unless a test says otherwise.
  http.get(providerUrl('/products/zoom/sessions/'), () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
  http.get(providerUrl('/products/sessions/upcoming/'), () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
  // Signing in merges the carts (decision 0047): the account's is empty unless a test says otherwise.
  http.get(providerUrl('/cart/'), () => HttpResponse.json({ items: [], updated_at: null })),
  // A patient's product page asks for a payment of it still open (decision 0072): none unless a test says otherwise.
  http.get(providerUrl('/purchases/'), () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
  // The member navigation counts the unread messages (issue 44): none unless a test says otherwise.
  http.get(providerUrl('/messages/unread/'), () => HttpResponse.json({ unread: 0 })),
]

export const providerMock = setupServer(...defaultHandlers)
