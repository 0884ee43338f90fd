import { expect, expectNoAxeViolations, hydrated, registerFreshPatient, test } from './fixtures'

const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

for (const javaScriptEnabled of [true, false]) {
  test.describe(`account, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    test('the profile is edited, with a photo', async ({ page }) => {
      await page.goto('/')
      await registerFreshPatient(page, javaScriptEnabled ? 'perfiljs' : 'perfil')
      await page.goto('/perfil')
      await page.getByLabel('Nome', { exact: true }).fill('Joana')
      await page.getByLabel('Sobrenome').fill('Prado')
      await page.getByLabel('Telefone').fill('abc')
      await page.getByLabel('Sobre você').fill('Gosto de caminhar.')
      await page.getByRole('button', { name: 'Salvar perfil' }).click()
      await expect(page.getByText('Informe um telefone válido')).toBeVisible()
      await expect(page.getByLabel('Sobre você')).toHaveValue('Gosto de caminhar.')
      await expect(page.getByLabel('Sobrenome')).toHaveValue('Prado')

      await page.getByLabel('Telefone').fill('+55 11 98888-7777')
      await page.getByLabel('Foto').setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: PNG_1X1 })
      await page.getByRole('button', { name: 'Salvar perfil' }).click()
      await expect(page.getByRole('status')).toContainText('Perfil atualizado.')
      const photo = page.getByRole('img', { name: 'Sua foto de perfil' })
      await expect(photo).toHaveAttribute('src', /^\/media\/photos\//)
      // The photo comes through the app's /media route and really loads (it may take a moment).
      if (javaScriptEnabled) {
        await expect.poll(() => photo.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)).toBe(true)
      }
      await expect(page.locator('summary[aria-label="Menu da conta de Joana Prado"]')).toBeVisible()
    })

    test('the password is changed in the settings, and a wrong current password is refused', async ({ page }) => {
      await page.goto('/')
      const account = await registerFreshPatient(page, javaScriptEnabled ? 'senhajs' : 'senha')
      await page.goto('/configuracoes')
      await page.getByLabel('Senha atual', { exact: true }).fill('not-my-password')
      await page.getByLabel('Nova senha', { exact: true }).fill('uma-nova-senha-boa')
      await page.getByLabel('Confirme a nova senha').fill('uma-nova-senha-boa')
      await page.getByRole('button', { name: 'Alterar senha' }).click()
      await expect(page.getByText('A senha atual está incorreta.')).toBeVisible()
      await expect(page.getByLabel('Senha atual', { exact: true })).toHaveValue('')

      await page.getByLabel('Senha atual', { exact: true }).fill(account.password)
      await page.getByLabel('Nova senha', { exact: true }).fill('uma-nova-senha-boa')
      await page.getByLabel('Confirme a nova senha').fill('uma-nova-senha-boa')
      await page.getByRole('button', { name: 'Alterar senha' }).click()
      await expect(page.getByRole('status')).toContainText('Senha alterada.')

      await page.getByRole('radio', { name: 'English' }).check()
      await page.getByRole('button', { name: 'Salvar idioma' }).click()
      await expect(page.locator('html')).toHaveAttribute('lang', 'en')
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings')
    })
  })
}

test.describe('toasts', () => {
  test('one toast at a time: a new one replaces the current; it closes by itself after 5 seconds or on request', async ({ page }) => {
    await page.goto('/')
    await registerFreshPatient(page, 'toast')
    await page.goto('/perfil')
    // The welcome toast of the registration shows first; close it (a button only JavaScript handles).
    await hydrated(page)
    await page.getByRole('button', { name: 'Fechar aviso' }).click()
    await expect(page.locator('[data-toast-type]')).toHaveCount(0)
    await page.getByRole('button', { name: 'Salvar perfil' }).click()
    const toasts = page.locator('[data-toast-type]')
    await expect(toasts).toHaveCount(1)
    await expect(toasts).toContainText('Perfil atualizado.')
    // Three seconds later a second toast replaces the first, and its own 5 seconds start then.
    await page.waitForTimeout(3_000)
    await page.getByRole('button', { name: 'Salvar perfil' }).click()
    await page.waitForTimeout(3_000)
    await expect(toasts).toHaveCount(1)
    await page.waitForTimeout(2_600)
    await expect(toasts).toHaveCount(0)

    await page.getByRole('button', { name: 'Salvar perfil' }).click()
    await expect(toasts).toHaveCount(1)
    await page.getByRole('button', { name: 'Fechar aviso' }).click()
    await expect(toasts).toHaveCount(0)
  })

  test('the account pages pass axe with a toast showing', async ({ page }) => {
    await page.goto('/')
    await registerFreshPatient(page, 'axe')
    await page.goto('/perfil')
    await page.getByRole('button', { name: 'Salvar perfil' }).click()
    await expect(page.locator('[data-toast-type]')).toHaveCount(1)
    await expectNoAxeViolations(page)
  })
})
