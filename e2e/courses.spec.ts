import { expect, expectNoAxeViolations, registerFreshPatient, test } from './fixtures'

test.describe('courses with JavaScript', () => {
  test('a patient starts a free course, watches part of a lesson with captions in three languages, and comes back to where it stopped; the pages pass axe at 360 px and on a desktop', async ({ page }) => {
    await registerFreshPatient(page, 'cursos')
    await page.goto('/cursos?pilar=exercicio')
    await expect(page.getByRole('heading', { level: 1, name: 'Cursos' })).toBeVisible()
    await page.getByRole('link', { name: /^Ver o curso/ }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Movimento no dia a dia' })).toBeVisible()
    const coursePath = new URL(page.url()).pathname
    await page.getByRole('link', { name: 'Começar o curso' }).click()
    await expect(page).toHaveURL(/\/aula\/\d+$/)
    const lessonPath = new URL(page.url()).pathname

    // The captions: one track per language, the page's own on by default, each a WebVTT file.
    const tracks = page.locator('video track')
    await expect(tracks).toHaveCount(3)
    expect(await tracks.evaluateAll((elements) => elements.map((track) => [track.getAttribute('srclang'), track.hasAttribute('default')]))).toEqual([
      ['pt', true],
      ['en', false],
      ['es', false],
    ])
    for (const src of await tracks.evaluateAll((elements) => elements.map((track) => track.getAttribute('src')!))) {
      expect((await (await page.request.get(src)).text()).startsWith('WEBVTT')).toBe(true)
    }
    await expect(page.getByRole('heading', { name: 'Transcrição' })).toBeVisible()

    // Plays at twice the speed for a few seconds, then pauses: the page reports what was played.
    const reported = page.waitForResponse((response) => response.url().endsWith('/progresso') && response.status() === 200)
    await page.locator('video').evaluate((video: HTMLVideoElement) => {
      video.muted = true
      video.playbackRate = 2
      return video.play()
    })
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 8)
    await page.locator('video').evaluate((video: HTMLVideoElement) => video.pause())
    await reported

    // Back on the course, "continue" opens that lesson where it stopped.
    await page.goto(coursePath)
    await page.getByRole('link', { name: 'Continuar' }).click()
    await expect(page).toHaveURL(new RegExp(`${lessonPath}$`))
    await expect(page.locator('video source')).toHaveAttribute('src', /#t=\d+(\.\d+)?$/)

    for (const path of ['/cursos', coursePath, lessonPath]) {
      await page.goto(path)
      await page.setViewportSize({ width: 360, height: 800 })
      await expectNoAxeViolations(page)
      await page.setViewportSize({ width: 1280, height: 800 })
      await expectNoAxeViolations(page)
    }
  })
})

test.describe('courses without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a patient marks a lesson as done with a form, and the course counts it', async ({ page }) => {
    await registerFreshPatient(page, 'aulas')
    await page.goto('/cursos?pilar=exercicio')
    await page.getByRole('link', { name: /^Ver o curso/ }).click()
    const coursePath = new URL(page.url()).pathname
    await page.getByRole('link', { name: 'Começar o curso' }).click()
    await page.getByRole('button', { name: 'Marcar como concluída' }).click()
    await expect(page.getByText('Aula concluída.')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Marcar como concluída' })).toHaveCount(0)
    await page.goto(coursePath)
    await expect(page.getByText('1 de 3 aulas concluídas').first()).toBeVisible()
    await expect(page.getByRole('link', { name: 'Continuar' })).toBeVisible()
  })
})
