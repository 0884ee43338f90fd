import { type Page } from '@playwright/test'
import { type FaultMode } from './support/fault-proxy.ts'
import { accountMenu, accounts, badAnswerFaults, expect, loginAs, messages, networkFaults, sessionData, test } from './fixtures'

/**
 * Every form, submitted while the provider fails in each way: the SPEC §8 message shows, nothing
 * typed is lost (passwords excepted: they come back empty by design), and a signed-in user stays
 * signed in. With JavaScript on (fetch submissions) and off (document POSTs).
 */
type FormCase = {
  name: string
  /** Signed in as this account first, when the form needs it. */
  as?: keyof typeof accounts
  path: string
  /** The provider call the form makes: bad answers are aimed at it alone. */
  call: string | RegExp
  /** Field name → value typed (text) or chosen (select, checkbox). */
  fields: Record<string, string | boolean>
  passwords?: Record<string, string>
  submit: string
}

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
const strongPassword = 'Faults-suite-2025!'

const forms: FormCase[] = [
  {
    name: 'login',
    path: '/auth?mode=login',
    call: '/authentication/custom-login/',
    fields: { email: accounts.paciente },
    passwords: { password: 'innera-demo-2025' },
    submit: 'Entrar',
  },
  {
    name: 'register',
    path: '/auth?mode=register',
    call: '/users/register/',
    fields: { name: 'Ana Falhas', username: `ana.${unique}`, email: `ana.${unique}@example.com`, acceptTerms: true },
    passwords: { password: strongPassword, confirmPassword: strongPassword },
    submit: 'Criar conta',
  },
  { name: 'forgot password', path: '/auth?mode=forgot', call: '/users/password-reset/', fields: { email: accounts.paciente }, submit: 'Enviar link' },
  { name: 'resend confirmation', path: '/auth?mode=resend', call: '/users/send-confirmation/', fields: { email: accounts.paciente }, submit: 'Reenviar e-mail' },
  {
    name: 'password reset',
    path: '/auth/reset/MQ/abc-123',
    call: /^\/users\/password-reset-confirm\//,
    fields: {},
    passwords: { password: strongPassword, confirmPassword: strongPassword },
    submit: 'Salvar nova senha',
  },
  {
    name: 'profile',
    as: 'paciente',
    path: '/perfil',
    call: '/users/profile/update/',
    fields: { first_name: 'Pedro Falhas', last_name: 'Santos Teste', phone: '+55 11 99999-0000', birth_date: '1990-05-17', bio: 'Texto que não pode se perder.' },
    submit: 'Salvar perfil',
  },
  {
    name: 'change password',
    as: 'paciente',
    path: '/configuracoes',
    call: '/users/change-password/',
    fields: {},
    passwords: { old_password: 'innera-demo-2025', new_password: strongPassword, confirm_password: strongPassword },
    submit: 'Alterar senha',
  },
  {
    name: 'contact',
    path: '/contato',
    call: '/contact/',
    fields: { name: 'Carla Contato', email: 'carla@example.com', phone: '(11) 3333-4444', subject: 'partnership', message: 'Uma mensagem longa o bastante para passar.' },
    submit: 'Enviar mensagem',
  },
]

async function fill(page: Page, form: FormCase) {
  for (const [name, value] of Object.entries(form.fields)) {
    const field = page.locator(`form [name="${name}"]:not([type="hidden"])`).first()
    const tag = await field.evaluate((element) => element.tagName.toLowerCase())
    if (typeof value === 'boolean') await field.setChecked(value)
    else if (tag === 'select') await field.selectOption(value)
    else await field.fill(value)
  }
  for (const [name, value] of Object.entries(form.passwords ?? {})) await page.locator(`form [name="${name}"]`).fill(value)
}

async function expectKept(page: Page, form: FormCase) {
  for (const [name, value] of Object.entries(form.fields)) {
    const field = page.locator(`form [name="${name}"]:not([type="hidden"])`).first()
    if (typeof value === 'boolean') await expect(field, `${name} still checked`).toBeChecked({ checked: value })
    else await expect(field, `${name} kept`).toHaveValue(value)
  }
  for (const name of Object.keys(form.passwords ?? {})) await expect(page.locator(`form [name="${name}"]`), `${name} empty`).toHaveValue('')
}

async function submitWith(page: Page, form: FormCase, fault: (mode: FaultMode, target?: { paths: (string | RegExp)[] }) => Promise<void>, mode: FaultMode, aimed: boolean) {
  await fault({ kind: 'pass' })
  await page.goto(form.path)
  await fill(page, form)
  await fault(mode, aimed ? { paths: [form.call] } : undefined)
  const submitted = page.waitForResponse((response) => response.request().method() === 'POST')
  await page.getByRole('button', { name: form.submit, exact: true }).click()
  const response = await submitted
  expect(response.status(), 'no 5xx').toBeLessThan(500)
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`forms with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    for (const form of forms) {
      test.describe(form.name, () => {
        test.beforeEach(async ({ page }) => {
          const probe = await page.request.get(form.path, { maxRedirects: 0 })
          test.skip(form.name === 'contact' && probe.status() === 404, 'no contact page in this build')
          if (form.as) await loginAs(page, accounts[form.as])
        })

        test('the provider unreachable or too slow: the network message, nothing typed lost, the session kept', async ({ page, context, fault }) => {
          const before = await sessionData(context)
          // 'Slower than the timeout' is the server's case: checked without JavaScript only.
          for (const { name, mode } of networkFaults.filter(({ mode }) => !javaScriptEnabled || mode.kind !== 'slow')) {
            await test.step(name, async () => {
              await submitWith(page, form, fault, mode, false)
              await expect(page.getByRole('alert').filter({ hasText: messages.network })).toBeVisible()
              await expectKept(page, form)
              if (form.as) {
                await expect(accountMenu(page), 'still signed in').toBeVisible()
                expect((await sessionData(context))?.refresh, 'the session is kept').toBe(before?.refresh)
              }
            })
          }
        })

        if (form.as) {
          test('a storm of 401s (refresh too): the session ends, and the sign-in page says so', async ({ page, context, fault }) => {
            await submitWith(page, form, fault, { kind: 'unauthorized' }, false)
            await expect(page).toHaveURL(/\/auth\?mode=login/)
            await expect(page.getByRole('status')).toContainText(messages.sessionExpired)
            expect((await sessionData(context))?.refresh).toBeUndefined()
          })
        }

        test('a bad answer to its call (500, malformed JSON, HTML): its message, nothing typed lost', async ({ page, context, fault }) => {
          const before = await sessionData(context)
          for (const { name, mode, message } of badAnswerFaults) {
            await test.step(name, async () => {
              await submitWith(page, form, fault, mode, true)
              await expect(page.getByRole('alert').filter({ hasText: message })).toBeVisible()
              await expectKept(page, form)
              if (form.as) {
                await expect(accountMenu(page), 'still signed in').toBeVisible()
                expect((await sessionData(context))?.refresh, 'the session is kept').toBe(before?.refresh)
              }
            })
          }
        })
      })
    }
  })
}

/**
 * A form with nothing typed (choices and buttons): building the program from the chosen pillars.
 * The provider failing says so and keeps the session; the chosen pillars are kept (a cookie).
 */
for (const javaScriptEnabled of [true, false]) {
  test.describe(`program creation with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    test.beforeEach(async ({ page, baseURL }) => {
      await loginAs(page, accounts.paciente)
      const chosen = await page.request.post('/pilares', { form: { intent: 'choose', mode: 'single', pillar: 'sono' }, headers: { Origin: baseURL! }, maxRedirects: 0 })
      expect(chosen.status()).toBe(303)
    })

    async function submit(page: Page) {
      await page.goto('/meu-programa')
      await page.getByRole('radio', { name: /Os pilares que escolhi/ }).check()
      const submitted = page.waitForResponse((response) => response.request().method() === 'POST')
      await page.getByRole('button', { name: 'Montar programa' }).click()
      expect((await submitted).status(), 'no 5xx').toBeLessThan(500)
    }

    test('the provider unreachable: the network message, the session kept', async ({ page, context, fault }) => {
      const before = await sessionData(context)
      // Not 'slow': the proxy forwards a slow request after the app gave up, and the program would
      // then exist for the tests that follow (the same demo patient).
      for (const { name, mode } of networkFaults.filter(({ mode }) => mode.kind !== 'slow')) {
        await test.step(name, async () => {
          await fault({ kind: 'pass' })
          await page.goto('/meu-programa')
          await page.getByRole('radio', { name: /Os pilares que escolhi/ }).check()
          await fault(mode)
          await page.getByRole('button', { name: 'Montar programa' }).click()
          await expect(page.getByText(messages.network).first()).toBeVisible()
          await expect(accountMenu(page), 'still signed in').toBeVisible()
          expect((await sessionData(context))?.refresh, 'the session is kept').toBe(before?.refresh)
        })
      }
    })

    test('a bad answer to the creation (500, malformed JSON, HTML): its message, the page kept', async ({ page, context, fault }) => {
      const before = await sessionData(context)
      for (const { name, mode, message } of badAnswerFaults) {
        await test.step(name, async () => {
          await fault({ kind: 'pass' })
          await fault(mode, { paths: ['/program/'], methods: ['POST'] })
          await submit(page)
          await expect(page.getByRole('alert').filter({ hasText: message })).toBeVisible()
          await expect(page.getByRole('heading', { level: 1, name: 'Meu programa' })).toBeVisible()
          expect((await sessionData(context))?.refresh).toBe(before?.refresh)
        })
      }
    })
  })
}

/**
 * The assessment's last step: 36 answers kept in a server-side draft. A provider that fails at
 * the moment of sending says so, and every answer is still there to send again.
 */
test.describe('assessment submission with JavaScript off', () => {
  test.use({ javaScriptEnabled: false })

  test('a step posted while the provider is unreachable keeps its answers', async ({ page, context, fault }) => {
    await loginAs(page, accounts.paciente)
    await page.goto('/avaliacao')
    const fieldsets = page.locator('main form fieldset')
    const count = await fieldsets.count()
    for (let index = 0; index < count; index++) await fieldsets.nth(index).locator('input[type="radio"][value="3"]').check()
    const before = await sessionData(context)
    await fault({ kind: 'refused' })
    await page.getByRole('button', { name: 'Avançar' }).click()
    // The questionnaire read a moment ago still serves: the next step shows, the session is kept.
    await expect(page.getByRole('button', { name: 'Voltar' })).toBeVisible()
    expect((await sessionData(context))?.refresh, 'the session is kept').toBe(before?.refresh)
    await fault({ kind: 'pass' })
    await page.getByRole('button', { name: 'Voltar' }).click()
    await expect(page.locator('main form fieldset input[type="radio"][value="3"]:checked')).toHaveCount(count)
  })

  test('the provider failing says so and keeps every answer', async ({ page, context, fault }) => {
    test.slow() // seven pages of questions before the faults
    await loginAs(page, accounts.paciente)
    await page.goto('/avaliacao')
    for (let step = 0; step < 6; step++) {
      const fieldsets = page.locator('main form fieldset')
      const count = await fieldsets.count()
      for (let index = 0; index < count; index++) await fieldsets.nth(index).locator('input[type="radio"][value="2"]').check()
      await page.getByRole('button', { name: step === 5 ? 'Revisar respostas' : 'Avançar' }).click()
    }
    const review = page.getByRole('heading', { name: 'Revise suas respostas' })
    await expect(review).toBeVisible()
    const answered = await page.locator('main').textContent()
    const before = await sessionData(context)

    const faults = [
      ...networkFaults.filter(({ mode }) => mode.kind !== 'slow').map(({ name, mode }) => ({ name, mode, message: messages.network, aimed: false })),
      ...badAnswerFaults.map((fault) => ({ ...fault, aimed: true })),
    ]
    for (const { name, mode, message, aimed } of faults) {
      await test.step(name, async () => {
        await fault(mode, aimed ? { paths: ['/questionnaire/submit/'] } : undefined)
        await page.getByRole('button', { name: 'Enviar avaliação' }).click()
        await expect(page.getByText(message).first()).toBeVisible()
        expect((await sessionData(context))?.refresh, 'the session is kept').toBe(before?.refresh)
        await fault({ kind: 'pass' })
        await page.goto('/avaliacao')
        await expect(review, 'still on the review, every answer kept').toBeVisible()
        expect(await page.locator('main').textContent()).toBe(answered)
      })
    }
  })
})

/**
 * Buttons that change one thing (a goal ticked, a message marked handled): the provider failing
 * says so, nothing changes, and the session is kept. Server behaviour: JavaScript off.
 */
test.describe('buttons that write, with JavaScript off', () => {
  test.use({ javaScriptEnabled: false })

  const faults = [
    ...networkFaults.filter(({ mode }) => mode.kind !== 'slow').map(({ name, mode }) => ({ name, mode, message: messages.network, aimed: false })),
    ...badAnswerFaults.map((fault) => ({ ...fault, aimed: true })),
  ]

  test('ticking a goal', async ({ page, context, fault, baseURL }) => {
    await loginAs(page, accounts.paciente2)
    const headers = { Origin: baseURL! }
    await page.request.post('/pilares', { form: { intent: 'choose', mode: 'single', pillar: 'sono' }, headers, maxRedirects: 0 })
    const created = await page.request.post('/meu-programa', { form: { intent: 'create', source: 'selection', weeks: 'auto' }, headers, maxRedirects: 0 })
    expect(created.status(), 'a program to tick').toBe(303)
    await page.goto('/meu-programa')
    const open = page.getByRole('button', { name: /^Concluir :/ })
    const count = await open.count()
    expect(count).toBeGreaterThan(0)
    const before = await sessionData(context)
    for (const { name, mode, message, aimed } of faults) {
      await test.step(name, async () => {
        await fault(mode, aimed ? { paths: [/^\/program\/goals\/\d+\/$/], methods: ['POST'] } : undefined)
        await open.first().click()
        await expect(page.getByText(message).first()).toBeVisible()
        expect((await sessionData(context))?.refresh, 'the session is kept').toBe(before?.refresh)
        await fault({ kind: 'pass' })
        await page.goto('/meu-programa')
        await expect(open, 'no goal was ticked').toHaveCount(count)
      })
    }
  })

  test('marking a contact message handled', async ({ page, context, fault, baseURL }) => {
    const sent = await page.request.post('/contato', {
      form: { name: 'Rita Retorno', email: 'rita@example.com', subject: 'other', message: 'Uma mensagem para a equipe atender.' },
      headers: { Origin: baseURL! },
      maxRedirects: 0,
    })
    expect(sent.status(), 'a message to handle').toBe(303)
    await loginAs(page, accounts.admin)
    await page.goto('/admin/messages')
    const open = page.getByRole('button', { name: 'Marcar como atendida' })
    const count = await open.count()
    expect(count).toBeGreaterThan(0)
    const before = await sessionData(context)
    for (const { name, mode, message, aimed } of faults) {
      await test.step(name, async () => {
        await fault(mode, aimed ? { paths: [/^\/contact\/\d+\/$/], methods: ['PATCH'] } : undefined)
        await open.first().click()
        await expect(page.getByText(message).first()).toBeVisible()
        expect((await sessionData(context))?.refresh, 'the session is kept').toBe(before?.refresh)
        await fault({ kind: 'pass' })
        await page.goto('/admin/messages')
        await expect(open, 'no message was marked').toHaveCount(count)
      })
    }
  })
})
