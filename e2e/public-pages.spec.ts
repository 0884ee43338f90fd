import { type Page } from '@playwright/test'
import { expect, expectNoAxeViolations, newContext, test } from './fixtures'

type Lng = 'pt' | 'en' | 'es'
type PublicPage = { path: string; via: 'header' | 'footer'; link: string; h1: string }

const site: Record<Lng, { htmlLang: string; header: string; footer: string; back: string; homeH1: string; pages: PublicPage[] }> = {
  pt: {
    htmlLang: 'pt-BR',
    header: 'Navegação principal',
    footer: 'Rodapé',
    back: 'Voltar ao início',
    homeH1: 'Saúde que se constrói no dia a dia',
    pages: [
      { path: '/sobre', via: 'header', link: 'Quem somos', h1: 'Quem somos' },
      { path: '/medicina-do-estilo-de-vida', via: 'header', link: 'Medicina do estilo de vida', h1: 'Medicina do estilo de vida' },
      { path: '/programa', via: 'header', link: 'Programa', h1: 'Um programa feito para a sua rotina' },
      { path: '/faq', via: 'header', link: 'Perguntas frequentes', h1: 'Perguntas frequentes' },
      { path: '/privacidade', via: 'footer', link: 'Política de privacidade', h1: 'Política de privacidade' },
      { path: '/termos', via: 'footer', link: 'Termos e condições', h1: 'Termos e condições' },
      { path: '/cookies', via: 'footer', link: 'Política de cookies', h1: 'Política de cookies' },
    ],
  },
  en: {
    htmlLang: 'en',
    header: 'Main navigation',
    footer: 'Footer',
    back: 'Back to home',
    homeH1: 'Health built day by day',
    pages: [
      { path: '/sobre', via: 'header', link: 'About us', h1: 'About us' },
      { path: '/medicina-do-estilo-de-vida', via: 'header', link: 'Lifestyle medicine', h1: 'Lifestyle medicine' },
      { path: '/programa', via: 'header', link: 'Program', h1: 'A program made for your routine' },
      { path: '/faq', via: 'header', link: 'FAQ', h1: 'Frequently asked questions' },
      { path: '/privacidade', via: 'footer', link: 'Privacy policy', h1: 'Privacy policy' },
      { path: '/termos', via: 'footer', link: 'Terms and conditions', h1: 'Terms and conditions' },
      { path: '/cookies', via: 'footer', link: 'Cookie policy', h1: 'Cookie policy' },
    ],
  },
  es: {
    htmlLang: 'es',
    header: 'Navegación principal',
    footer: 'Pie de página',
    back: 'Volver al inicio',
    homeH1: 'Salud que se construye día a día',
    pages: [
      { path: '/sobre', via: 'header', link: 'Quiénes somos', h1: 'Quiénes somos' },
      { path: '/medicina-do-estilo-de-vida', via: 'header', link: 'Medicina del estilo de vida', h1: 'Medicina del estilo de vida' },
      { path: '/programa', via: 'header', link: 'Programa', h1: 'Un programa hecho para tu rutina' },
      { path: '/faq', via: 'header', link: 'Preguntas frecuentes', h1: 'Preguntas frecuentes' },
      { path: '/privacidade', via: 'footer', link: 'Política de privacidad', h1: 'Política de privacidad' },
      { path: '/termos', via: 'footer', link: 'Términos y condiciones', h1: 'Términos y condiciones' },
      { path: '/cookies', via: 'footer', link: 'Política de cookies', h1: 'Política de cookies' },
    ],
  },
}

/** What each legal text must say, exactly, in each language (docs/product.md §1, §9). */
const legalTexts: Record<Lng, Record<'/privacidade' | '/termos' | '/cookies', string[]>> = {
  pt: {
    '/termos': [
      'Versão 1.0',
      '18 de março de 2025',
      'coaching de estilo de vida',
      'não constituem aconselhamento médico',
      '7 dias corridos',
      'reembolso integral',
      'pelo menos 24 horas de antecedência',
      'o acesso é liberado imediatamente após o pagamento',
      'em até 7 dias úteis',
      'em até 24 horas',
      'em até 2 ciclos de faturamento',
      'PIX: em até 3 dias úteis',
      'Boleto bancário, para pagamentos feitos por esse meio: em até 10 dias úteis',
      'aviso prévio de 30 dias',
      'reais (BRL)',
      'cartão de crédito ou PIX',
      'um nome de usuário, o seu nome completo e um e-mail válido',
      'Menores de idade podem usar a Innera com o consentimento de um dos pais ou do responsável legal',
    ],
    '/privacidade': [
      'Versão 1.0',
      '18 de março de 2025',
      'dados pessoais sensíveis (LGPD, art. 11)',
      'Por até 5 anos depois que a conta ficar inativa.',
      'por mais 2 anos depois do cancelamento',
      'Por 12 meses.',
      'Acesso:',
      'Correção:',
      'Exclusão:',
      'Portabilidade:',
      'Revogação do consentimento:',
      'Oposição:',
      'Confirmação e informação:',
      'dpo@innera.com.br',
      'O serviço é destinado a pessoas com 18 anos ou mais.',
    ],
    '/cookies': [
      'Versão 1.0',
      'Necessários (sempre ativos)',
      'não podem ser desativados',
      'Preferências',
      'Análise',
      'Marketing',
      'a data e a hora em que foi feita e a versão desta política',
      '“Configurações de cookies”, no rodapé',
    ],
  },
  en: {
    '/termos': [
      'Version 1.0',
      '18 March 2025',
      'lifestyle coaching service',
      'they are not medical advice',
      '7 calendar days',
      'full refund',
      'at least 24 hours before',
      'access is granted immediately after payment',
      'within 7 business days',
      'within 24 hours',
      'within 2 billing cycles',
      'PIX: within 3 business days',
      'Bank slip (boleto), for payments made that way: within 10 business days',
      "30 days' notice",
      'Brazilian reais (BRL)',
      'credit card or PIX',
      'a username, your full name and a valid e-mail address',
      'Minors may use Innera with the consent of a parent or legal guardian',
    ],
    '/privacidade': [
      'Version 1.0',
      '18 March 2025',
      'sensitive personal data (LGPD, art. 11)',
      'Up to 5 years after the account becomes inactive.',
      'for 2 more years after you cancel it',
      '12 months.',
      'Access:',
      'Correction:',
      'Deletion:',
      'Portability:',
      'Withdrawal of consent:',
      'Objection:',
      'Confirmation and information:',
      'dpo@innera.com.br',
      'The service is intended for people aged 18 or over.',
    ],
    '/cookies': [
      'Version 1.0',
      'Necessary (always on)',
      'cannot be turned off',
      'Preferences',
      'Analytics',
      'Marketing',
      'the date and time you made it and the version of this policy',
      '“Cookie settings” in the footer',
    ],
  },
  es: {
    '/termos': [
      'Versión 1.0',
      '18 de marzo de 2025',
      'coaching de estilo de vida',
      'no constituyen consejo médico',
      '7 días naturales',
      'reembolso total',
      'al menos 24 horas de antelación',
      'el acceso se habilita inmediatamente después del pago',
      'en un plazo de 7 días hábiles',
      'en un plazo de 24 horas',
      'en un plazo de 2 ciclos de facturación',
      'PIX: en un plazo de 3 días hábiles',
      'Boleto bancario, para pagos hechos por ese medio: en un plazo de 10 días hábiles',
      'aviso previo de 30 días',
      'reales brasileños (BRL)',
      'tarjeta de crédito o PIX',
      'un nombre de usuario, tu nombre completo y un correo electrónico válido',
      'Los menores de edad pueden usar Innera con el consentimiento de uno de sus padres o de su tutor legal',
    ],
    '/privacidade': [
      'Versión 1.0',
      '18 de marzo de 2025',
      'datos personales sensibles (LGPD, art. 11)',
      'Hasta 5 años después de que la cuenta quede inactiva.',
      'durante 2 años más después de cancelarla',
      '12 meses.',
      'Acceso:',
      'Rectificación:',
      'Supresión:',
      'Portabilidad:',
      'Revocación del consentimiento:',
      'Oposición:',
      'Confirmación e información:',
      'dpo@innera.com.br',
      'El servicio está destinado a personas de 18 años o más.',
    ],
    '/cookies': [
      'Versión 1.0',
      'Necesarias (siempre activas)',
      'no se pueden desactivar',
      'Preferencias',
      'Análisis',
      'Marketing',
      'la fecha y la hora en que la hiciste y la versión de esta política',
      '«Configuración de cookies», en el pie',
    ],
  },
}

const home = (lng: Lng) => (lng === 'pt' ? '/' : `/?lng=${lng}`)

async function expectPage(page: Page, lng: Lng, target: PublicPage) {
  await expect(page).toHaveURL((url) => url.pathname === target.path)
  await expect(page.locator('html')).toHaveAttribute('lang', site[lng].htmlLang)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(target.h1)
  await expect(page.locator('main#main')).toHaveCount(1)
}

async function openFromNavigation(page: Page, lng: Lng, target: PublicPage) {
  const nav = page.getByRole('navigation', { name: target.via === 'header' ? site[lng].header : site[lng].footer })
  const link = nav.getByRole('link', { name: target.link, exact: true })
  // On a wide screen FAQ and contact sit under "Mais" (decision 0080): opened first.
  if (target.via === 'header' && !(await link.isVisible())) await nav.locator('summary:visible').click()
  await link.click()
  await expectPage(page, lng, target)
}

for (const lng of ['pt', 'en', 'es'] as const) {
  test.describe(`public pages in ${lng}`, () => {
    for (const target of site[lng].pages) {
      // axe once per page, in Portuguese (here and at 360 px below): the same markup in each
      // language; what a language changes (its texts, lang) is checked in every one (expectPage).
      test(`${target.path} is reachable from the ${target.via}, has one h1${lng === 'pt' ? ' and no axe violations' : ''}`, async ({ page }) => {
        await page.goto(home(lng))
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(site[lng].homeH1)
        await openFromNavigation(page, lng, target)
        if (lng === 'pt') await expectNoAxeViolations(page)
      })
    }

    for (const path of ['/termos', '/privacidade', '/cookies'] as const) {
      test(`${path} says what it must, has a working table of contents and back-to-home links`, async ({ page }) => {
        const target = site[lng].pages.find((candidate) => candidate.path === path)!
        await page.goto(home(lng))
        await openFromNavigation(page, lng, target)

        const main = page.locator('main')
        for (const text of legalTexts[lng][path]) await expect(main, text).toContainText(text)

        // The table of contents lists every section and jumps to it.
        const toc = page.getByRole('navigation', { name: /nesta página|on this page|en esta página/i })
        const entries = toc.getByRole('link')
        const sections = main.locator('section > h2')
        await expect(entries).toHaveCount(await sections.count())
        const last = entries.last()
        const anchor = (await last.getAttribute('href'))!
        await last.click()
        await expect(page).toHaveURL((url) => url.hash === anchor)
        await expect(page.locator(anchor)).toBeInViewport()

        // Back to home, from the top and from the bottom.
        const backLinks = main.getByRole('link', { name: site[lng].back })
        await expect(backLinks).toHaveCount(2)
        await backLinks.first().click()
        await expect(page).toHaveURL((url) => url.pathname === '/')
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(site[lng].homeH1)
        await page.goBack()
        await expectPage(page, lng, target)
        await page.getByRole('link', { name: site[lng].back }).last().click()
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(site[lng].homeH1)
      })
    }
  })
}

test.describe('content of the public pages', () => {
  test('the privacy policy reaches the data protection officer by e-mail and through the contact page', async ({ page }) => {
    await page.goto('/privacidade')
    const dpo = page.locator('section', { has: page.locator('h2#dpo') })
    await expect(dpo.getByRole('link', { name: 'dpo@innera.com.br' })).toHaveAttribute('href', 'mailto:dpo@innera.com.br')
    await expect(dpo.getByRole('link', { name: 'página de contato' })).toHaveAttribute('href', '/contato')
  })

  test('the cookie policy links to the privacy policy', async ({ page }) => {
    await page.goto('/cookies?lng=en')
    await page.getByRole('main').getByRole('link', { name: 'Privacy policy' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy policy')
  })

  test('lifestyle medicine shows the six pillars, the evidence and that it is coaching', async ({ page }) => {
    await page.goto('/medicina-do-estilo-de-vida')
    const pillars = page.locator('#pillars-title ~ ol > li h3')
    await expect(pillars).toHaveText(['Gestão do estresse', 'Atividade física', 'Alimentação', 'Sono', 'Relacionamentos', 'Controle de substâncias'])
    await expect(page.getByRole('main')).toContainText('mais de 25.000 estudos')
    await expect(page.getByRole('heading', { name: 'Coaching, não aconselhamento médico' })).toBeVisible()

    await page.goto('/medicina-do-estilo-de-vida?lng=en')
    await expect(page.getByRole('main')).toContainText('over 25,000 scientific studies')
  })

  test('the program page leads to the assessment and to sign-up', async ({ page }) => {
    await page.goto('/programa')
    const main = page.getByRole('main')
    await expect(main).toContainText('8 a 12 semanas')
    await expect(main).toContainText('cerca de 10 minutos')
    for (const link of await main.getByRole('link', { name: 'Fazer a avaliação gratuita' }).all()) {
      await expect(link).toHaveAttribute('href', '/avaliacao')
    }
    for (const link of await main.getByRole('link', { name: 'Criar minha conta' }).all()) {
      await expect(link).toHaveAttribute('href', '/auth?mode=register')
    }
    await expect(main.getByRole('link', { name: 'Fazer a avaliação gratuita' })).toHaveCount(2)
  })

  test('about us invites people to write through the contact page', async ({ page }) => {
    await page.goto('/sobre?lng=es')
    await expect(page.getByRole('heading', { name: 'Quién fundó Innera' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Trabaja con nosotros' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Escribir desde la página de contacto' })).toHaveAttribute('href', '/contato')
  })
})

test.describe('FAQ disclosures', () => {
  for (const javaScriptEnabled of [false, true]) {
    test(`open and close with mouse and keyboard (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({ browser }) => {
      const context = await newContext(browser, { javaScriptEnabled })
      const page = await context.newPage()
      await page.goto('/faq')

      const questions = page.locator('main details')
      const count = await questions.count()
      expect(count).toBeGreaterThanOrEqual(10)
      expect(count).toBeLessThanOrEqual(14)
      for (const question of await questions.all()) await expect(question).not.toHaveAttribute('open')

      const cancellation = page.locator('details', { has: page.getByText('Posso cancelar uma consulta?') })
      const answer = cancellation.getByText('pelo menos 24 horas de antecedência')
      await expect(answer).toBeHidden()
      await cancellation.getByText('Posso cancelar uma consulta?').click()
      await expect(cancellation).toHaveAttribute('open', '')
      await expect(answer).toBeVisible()
      await cancellation.locator('summary').click()
      await expect(answer).toBeHidden()

      const payment = page.locator('details', { has: page.getByText('Quais são as formas de pagamento?') })
      await payment.locator('summary').focus()
      await page.keyboard.press('Enter')
      await expect(payment.getByText('Cartão de crédito ou PIX')).toBeVisible()
      await expect(payment.getByText('reais (BRL)')).toBeVisible()

      await context.close()
    })
  }

  test('the FAQ covers the assessment, the program, refunds, data and contact', async ({ page }) => {
    await page.goto('/faq?lng=en')
    const main = page.getByRole('main')
    for (const question of [
      'What is Innera?',
      'Does Innera replace my doctor?',
      'How does the health assessment work?',
      'How long does the program last?',
      'How do consultations work?',
      'Can I cancel a consultation?',
      'How can I pay?',
      'Can I change my mind about a purchase?',
      'How is my data protected?',
      'Is there a minimum age to use Innera?',
      'Which languages is Innera available in?',
      'How do I contact Innera?',
    ]) {
      await expect(main.locator('summary', { hasText: question })).toHaveCount(1)
    }
  })
})

test.describe('without JavaScript', () => {
  test('the footer reaches the terms and the back link returns home', async ({ browser }) => {
    const context = await newContext(browser, { javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/')
    await page.getByRole('navigation', { name: 'Rodapé' }).getByRole('link', { name: 'Termos e condições' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Termos e condições')
    await expect(page.getByRole('main')).toContainText('Versão 1.0 · Em vigor desde 18 de março de 2025')
    await page.getByRole('link', { name: 'Voltar ao início' }).first().click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(site.pt.homeH1)
    await context.close()
  })
})

test.describe('small screens', () => {
  // Run by the mobile project only (@small-screen); pinned here too, should it be run alone.
  test.use({ viewport: { width: 360, height: 740 } })

  test('the menu reaches the public pages @small-screen', async ({ page }) => {
    await page.goto('/')
    const nav = page.getByRole('navigation', { name: site.pt.header })
    await nav.getByText('Menu').click()
    await nav.getByRole('link', { name: 'Quem somos' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Quem somos')
  })

  for (const target of site.pt.pages) {
    test(`${target.path} fits 360 px without sideways scrolling and passes axe @small-screen`, async ({ page }) => {
      await page.goto(target.path)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(target.h1)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      expect(overflow, `${target.path} scrolls sideways`).toBeLessThanOrEqual(0)
      await expectNoAxeViolations(page)
    })
  }
})
