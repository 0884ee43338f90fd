import { type Page } from '@playwright/test'
import { parse } from 'csv-parse/sync'
import yauzl from 'yauzl'
import { expect, expectNoAxeViolations, registerFreshPatient, test } from './fixtures'

/**
 * LGPD self-service (issue 26, decision 0060): a patient downloads their data and deletes their
 * account from /configuracoes/privacidade, which passes axe at 360 px and on a desktop.
 */

/** Every file of a ZIP, by name. */
async function unzip(bytes: Buffer) {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))))
  const files = new Map<string, Buffer>()
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error)
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('error', reject)
        stream.on('end', () => {
          files.set(entry.fileName, Buffer.concat(chunks))
          zip.readEntry()
        })
      })
    })
    zip.on('end', resolve)
    zip.on('error', reject)
    zip.readEntry()
  })
  return files
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/auth?mode=login')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Senha', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Entrar', exact: true }).click()
}

test('a patient downloads their data as a ZIP, then deletes the account with the password and is refused at the next sign-in; the page passes axe', async ({ page }) => {
  test.slow()
  const patient = await registerFreshPatient(page, 'privacidade')
  await page.goto('/configuracoes')
  await page.getByRole('link', { name: /^Privacidade e dados/ }).click()
  await expect(page).toHaveURL(/\/configuracoes\/privacidade$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Privacidade e dados' })).toBeVisible()
  // The consents given at registration, each with its date and version.
  const consents = page.getByRole('region', { name: 'Consentimentos' })
  for (const document of ['Termos de uso', 'Política de privacidade']) {
    await expect(consents.getByRole('listitem').filter({ has: page.getByRole('heading', { name: document }) })).toContainText(/Aceito em .+ \(versão \d/)
  }
  await expect(page.getByText('Nenhum profissional vê seus resultados.')).toBeVisible()
  await page.setViewportSize({ width: 360, height: 800 })
  await expectNoAxeViolations(page)
  await page.setViewportSize({ width: 1280, height: 800 })
  await expectNoAxeViolations(page)

  // The export: a ZIP streamed by the provider, its CSVs with a BOM for spreadsheets.
  const downloading = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Exportar meus dados (ZIP)' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^innera-dados-\d{4}-\d{2}-\d{2}\.zip$/)
  const chunks: Buffer[] = []
  for await (const chunk of (await download.createReadStream()) as AsyncIterable<Buffer>) chunks.push(chunk)
  const files = await unzip(Buffer.concat(chunks))
  expect([...files.keys()]).toEqual(expect.arrayContaining(['LEIA-ME.txt', 'profile.json', 'consents.csv', 'appointments.csv', 'purchases.csv']))
  expect(JSON.parse(files.get('profile.json')!.toString('utf8'))).toMatchObject({ user: { email: patient.email, username: patient.username } })
  const consentsCsv = files.get('consents.csv')!
  expect([...consentsCsv.subarray(0, 3)], 'a UTF-8 BOM first').toEqual([0xef, 0xbb, 0xbf])
  const [header, ...records] = parse(consentsCsv, { bom: true }) as string[][]
  expect(header).toEqual(['recorded_at', 'document', 'version', 'granted', 'source', 'cookie_preferences', 'cookie_analytics', 'cookie_marketing'])
  const rows = records.map((record) => Object.fromEntries(header!.map((name, index) => [name, record[index]])))
  expect(rows).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ document: 'terms', granted: 'true', source: 'signup' }),
      expect.objectContaining({ document: 'privacy', granted: 'true', source: 'signup' }),
    ]),
  )

  // The deletion: what goes and what the law keeps said first; the password and the box.
  const deletion = page.getByRole('region', { name: 'Excluir minha conta' })
  await expect(deletion.getByText('Nenhuma consulta futura.')).toBeVisible()
  await expect(deletion.getByRole('heading', { name: 'Mantido, porque a lei exige' })).toBeVisible()
  await deletion.getByLabel('Sua senha').fill(patient.password)
  await deletion.getByLabel('Entendo que a exclusão é definitiva e que não poderei mais entrar com esta conta').check()
  await deletion.getByRole('button', { name: 'Excluir minha conta' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('status').filter({ hasText: 'Sua conta foi excluída.' })).toBeVisible()
  await expect(page.locator('summary[aria-label^="Menu da conta"]')).toHaveCount(0)

  await signIn(page, patient.email, patient.password)
  await expect(page.getByRole('alert')).toHaveText('Falha no login. Verifique suas credenciais.')
  await expect(page).toHaveURL(/\/auth\?mode=login$/)
})
