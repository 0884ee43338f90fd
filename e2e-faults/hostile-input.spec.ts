import { type APIRequestContext, type APIResponse } from '@playwright/test'
import { accounts, expect, loginAs, test } from './fixtures'

/**
 * Every action, posted to directly (no browser, no client validation) with bad and hostile input:
 * never a 5xx, never the script reflected unescaped, and a form page that says what is wrong.
 */
const SCRIPT = '<script>alert(1)</script>'
const IMG = '"><img src=x onerror=alert(1)>'
const hostileValues: Record<string, string> = {
  script: SCRIPT,
  attribute: IMG,
  long: 'x'.repeat(10_000),
  rtl: 'admin\u202Egnp.exe\u202C@example.com',
  nul: 'abc\u0000def@example.com',
  unicode: '𝕴𝖓𝖓𝖊𝖗𝖆 😀 \uFEFFe\u0301 \u200B\u2028',
  empty: '',
  spaces: '   ',
}

type Action = {
  path: string
  fields: string[]
  as?: keyof typeof accounts
  /** The form is re-rendered with the problem shown (rather than a redirect or a JSON answer). */
  page?: boolean
}

const actions: Action[] = [
  { path: '/auth?mode=login', fields: ['email', 'password', 'redirectTo'], page: true },
  { path: '/auth?mode=register', fields: ['name', 'username', 'email', 'password', 'confirmPassword', 'acceptTerms', 'website'], page: true },
  { path: '/auth?mode=forgot', fields: ['email', 'website'], page: true },
  { path: '/auth?mode=resend', fields: ['email', 'website'], page: true },
  { path: '/auth?mode=nonsense', fields: ['email'] },
  { path: '/auth/reset/MQ/abc-123', fields: ['password', 'confirmPassword', 'website'], page: true },
  { path: '/auth/reset/%3Cscript%3Ealert(1)%3C%2Fscript%3E/%00%E2%80%AE', fields: ['password', 'confirmPassword'] },
  { path: '/auth/confirm/MQ/abc-123', fields: [] },
  { path: '/contato', fields: ['name', 'email', 'phone', 'subject', 'message', 'website'], page: true },
  { path: '/perfil', fields: ['first_name', 'last_name', 'phone', 'birth_date', 'bio'], as: 'paciente', page: true },
  { path: '/configuracoes', fields: ['old_password', 'new_password', 'confirm_password'], as: 'paciente', page: true },
  { path: '/admin/messages', fields: ['intent', 'id'], as: 'admin' },
  { path: '/admin/products', fields: ['product_id', 'price'], as: 'admin' },
  { path: '/pilares', fields: ['intent', 'mode', 'pillar'], as: 'paciente' },
  { path: '/meu-programa', fields: ['intent', 'source', 'weeks', 'goal', 'done'], as: 'paciente' },
  { path: '/avaliacao', fields: ['intent', 'step', 'q1', 'q2'], as: 'paciente' },
  { path: '/avaliacao/resultado/1', fields: ['intent', 'professional'], as: 'paciente' },
  { path: '/resources/locale', fields: ['lng', 'redirectTo'] },
  { path: '/resources/cookie-consent', fields: ['intent', 'redirectTo', 'preferences', 'analytics', 'marketing'] },
  { path: '/resources/session/refresh', fields: [] },
  { path: '/logout', fields: [] },
  { path: '/auth/google', fields: [] },
  { path: '/no-such-page', fields: ['anything'] },
]

type Payload = { name: string; options: Parameters<APIRequestContext['post']>[1] }

/** Bodies that are not forms at all: a browser never sends them, a script might. */
function nonFormBodies(): Payload[] {
  return [
    { name: 'no body, no content type', options: {} },
    { name: 'JSON body', options: { data: { email: ['not', 'a', 'string'], password: 42, lng: { nested: true } } } },
    { name: 'text/plain body', options: { headers: { 'Content-Type': 'text/plain' }, data: `${SCRIPT}\u0000` } },
    { name: 'broken multipart', options: { headers: { 'Content-Type': 'multipart/form-data; boundary=xyz' }, data: '--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\nunterminated' } },
  ]
}

/** Forms with missing fields, wrong types, and each hostile value in every field. */
function hostileForms(action: Action): Payload[] {
  // The honeypot is left empty: a filled one gets a deliberately vague answer (it is for bots).
  const fields = action.fields.filter((field) => field !== 'website')
  const every = (value: string) => Object.fromEntries(fields.map((field) => [field, value]))
  const list: Payload[] = [
    { name: 'no fields', options: { form: {} } },
    { name: 'malformed urlencoded', options: { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, data: '%E0%A4%A=1&&=&%%%' } },
    { name: 'a file where text is expected', options: { multipart: Object.fromEntries(fields.map((field) => [field, { name: 'x.txt', mimeType: 'text/plain', buffer: Buffer.from(SCRIPT) }])) } },
  ]
  for (const [name, value] of Object.entries(hostileValues)) list.push({ name: `${name} in every field`, options: { form: every(value) } })
  // Repeated fields (arrays where one value is expected).
  const repeated = new URLSearchParams()
  for (const field of fields) {
    repeated.append(field, SCRIPT)
    repeated.append(field, hostileValues.long!)
  }
  list.push({ name: 'every field twice', options: { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, data: repeated.toString() } })
  if (action.fields.includes('website')) list.push({ name: 'honeypot filled', options: { form: { ...every('x'), website: 'http://spam.example' } } })
  return list
}

/** What is wrong with one answer, if anything (collected, so that one run lists every problem). */
async function problemsOf(response: APIResponse, label: string, action: Action): Promise<string[]> {
  const problems: string[] = []
  if (response.status() >= 500) problems.push(`${label}: answered ${response.status()}`)
  const body = await response.text()
  const type = response.headers()['content-type'] ?? ''
  if (type.includes('html')) {
    if (body.includes(SCRIPT)) problems.push(`${label}: the script is reflected unescaped`)
    if (body.includes('<img src=x onerror')) problems.push(`${label}: the attribute is reflected unescaped`)
  } else if (body.includes(SCRIPT) && response.headers()['x-content-type-options'] !== 'nosniff') {
    // Data answers may echo what was sent (the form's last values), but must never be sniffed as HTML.
    problems.push(`${label}: echoes the script in ${type || 'an untyped answer'} without nosniff`)
  }
  // A clear message: the form marks the field or shows a form-level alert.
  if (action.page && response.status() === 400 && type.includes('text/html') && !/aria-invalid="true"|role="alert"/.test(body)) {
    problems.push(`${label}: 400 without saying what is wrong`)
  }
  return problems
}

async function post(request: APIRequestContext, action: Action, payloads: Payload[], baseURL: string) {
  const url = new URL(action.path, baseURL)
  const dataUrl = `${url.pathname.replace(/\/$/, '')}.data${url.search}`
  const problems: string[] = []
  for (const { name, options } of payloads) {
    const headers = { Origin: baseURL, ...(options?.headers ?? {}) }
    // As a browser without JavaScript (a document POST) and as Remix's own fetch (single fetch).
    const document = await request.post(action.path, { ...options, headers, maxRedirects: 0, failOnStatusCode: false })
    problems.push(...(await problemsOf(document, `${name} (document)`, action)))
    const data = await request.post(dataUrl, { ...options, headers, maxRedirects: 0, failOnStatusCode: false })
    problems.push(...(await problemsOf(data, `${name} (.data)`, { ...action, page: false })))
  }
  return problems
}

for (const action of actions) {
  test.describe(`POST ${action.path}`, () => {
    test.beforeEach(async ({ page }) => {
      if (action.as) await loginAs(page, accounts[action.as])
    })

    test('bad and hostile form input: no 5xx, no reflected script, a clear message', async ({ page, baseURL }) => {
      expect(await post(page.request, action, hostileForms(action), baseURL!)).toEqual([])
    })

    test('a body that is not a form: refused without a 5xx', async ({ page, baseURL }) => {
      // The "clear message" here is the 400 page (there is no form to mark): checked below.
      expect(await post(page.request, { ...action, page: false }, nonFormBodies(), baseURL!)).toEqual([])
      if (action.page) {
        const response = await page.request.post(action.path, { headers: { Origin: baseURL!, 'Content-Type': 'application/json' }, data: { email: 1 }, maxRedirects: 0 })
        expect(response.status()).toBe(400)
        expect(await response.text()).toContain('Requisição inválida')
      }
    })
  })
}
