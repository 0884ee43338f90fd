// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import LessonPage, { loader } from '#app/routes/aula.$id.tsx'
import CoursePage, { loader as courseLoader } from '#app/routes/cursos.$id.tsx'
import CoursesPage, { loader as coursesLoader } from '#app/routes/cursos._index.tsx'
import { courseAnswer, coursePage, coursePillarsAnswer, freeCourseAnswer, lessonAnswer, lessonDetailAnswer, lockedLessonAnswer } from '#tests/mocks/courses.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { demoPatient, signedIn } from '#tests/mocks/session.ts'
import { ignoreRouterFutureWarnings, renderRoute } from '#tests/mocks/route-stub.ts'

/** The course pages as the browser draws them (decision 0057): cards, marks, the lock box, the player's markup. */

beforeEach(() => {
  ignoreRouterFutureWarnings()
})
afterEach(() => cleanup())

async function renderAt(path: string) {
  const routes = [
    { path: '/cursos', Component: CoursesPage, loader: coursesLoader },
    { path: '/cursos/:id', Component: CoursePage, loader: courseLoader },
    { path: '/aula/:id', Component: LessonPage, loader },
  ]
  return renderRoute(path, routes, { cookie: await signedIn(demoPatient) })
}

async function renderLesson(answer: ReturnType<typeof lessonDetailAnswer>) {
  providerMock.use(http.get(providerUrl('/videos/lessons/12/'), () => HttpResponse.json(answer)))
  return renderAt('/aula/12')
}

describe('course pages', () => {
  test('the list: a card per course under its pillar, with its price or how it is had, and its progress', async () => {
    providerMock.use(
      http.get(providerUrl('/videos/courses/pillars/'), () => HttpResponse.json(coursePillarsAnswer)),
      http.get(providerUrl('/videos/courses/'), () => HttpResponse.json(coursePage([freeCourseAnswer, courseAnswer({ access: null, progress: { ...courseAnswer().progress, started: false, completed_lessons: 0 } })]))),
    )
    await renderAt('/cursos')
    expect(await screen.findByRole('heading', { level: 1, name: 'Cursos' })).toBeInTheDocument()
    expect(screen.getByLabelText('Pilar')).toHaveDisplayValue('Todos os pilares')
    expect(screen.getByRole('heading', { level: 2, name: 'Atividade física' })).toBeInTheDocument()
    const free = screen.getByRole('article', { name: 'Mexa-se' })
    expect(free).toHaveTextContent('3 aulas · 1:35')
    expect(within(free).getByText('Gratuito')).toBeInTheDocument()
    expect(within(free).queryByRole('progressbar')).toBeNull()
    const locked = screen.getByRole('article', { name: 'Sono reparador' })
    expect(within(locked).getByText(/^R\$\s197,00$/)).toBeInTheDocument()
    expect(within(locked).getByText('Bloqueado')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /^Ver o curso ?: Sono reparador$/ })).toHaveAttribute('href', '/cursos/1')
  })

  test('a course: its progress, "Continuar" to the next lesson, the lessons with their marks', async () => {
    providerMock.use(
      http.get(providerUrl('/videos/courses/1/'), () => HttpResponse.json(courseAnswer())),
      http.get(providerUrl('/videos/lessons/'), () => HttpResponse.json([lessonAnswer(1, { progress: { position_seconds: 30, watched_seconds: 30, completed: true, completed_at: '2026-09-20T12:00:00Z' } }), lessonAnswer(2), lessonAnswer(3)])),
    )
    await renderAt('/cursos/1')
    expect(await screen.findByRole('heading', { level: 1, name: 'Sono reparador' })).toBeInTheDocument()
    expect(screen.getByLabelText('1 de 3 aulas concluídas')).toHaveAttribute('value', '1')
    expect(screen.getByText('Comprado')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Continuar' })).toHaveAttribute('href', '/aula/12')
    const lessons = screen.getAllByRole('listitem').filter((item) => item.closest('[data-testid="lessons"]'))
    expect(lessons).toHaveLength(3)
    expect(lessons[0]).toHaveTextContent('Concluída')
    expect(lessons[0]).toHaveTextContent('Prévia gratuita')
    expect(screen.getByRole('link', { name: 'Aula 2: Aula 2 do sono' })).toHaveAttribute('href', '/aula/12')
  })
})

describe('lesson page', () => {
  test('unlocked: the native player with the signed source at the resume point, three caption tracks (the page’s language on), the file, the transcript, the form', async () => {
    const { container } = await renderLesson(lessonDetailAnswer())
    expect(await screen.findByRole('heading', { level: 1, name: 'Aula 2 do sono' })).toBeInTheDocument()
    const video = container.querySelector('video')!
    expect(video).toHaveAttribute('controls')
    expect(video).toHaveAttribute('preload', 'metadata')
    expect(video).toHaveAttribute('poster', '/media/lessons/sono-2.jpg')
    expect(video.querySelector('source')).toHaveAttribute('src', '/media/lessons/sono-2.mp4?expires=1790000000&signature=abc123#t=8')
    const tracks = [...video.querySelectorAll('track')]
    expect(tracks.map((track) => [track.getAttribute('kind'), track.getAttribute('srclang'), track.getAttribute('label'), track.hasAttribute('default')])).toEqual([
      ['captions', 'pt', 'Português', true],
      ['captions', 'en', 'English', false],
      ['captions', 'es', 'Español', false],
    ])
    expect(tracks[0]).toHaveAttribute('src', '/media/lessons/sono-2.pt.vtt?expires=1790000000&signature=abc123')
    expect(screen.getByRole('link', { name: 'Baixar o vídeo (MP4, 1,2 MB)' })).toHaveAttribute('href', '/media/lessons/sono-2.mp4?expires=1790000000&signature=abc123')
    expect(screen.getByText('Aula 2 de 3')).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 2, name: 'Transcrição' })).toBeInTheDocument()
    expect(screen.getByText('Vamos falar do sono.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Marcar como concluída' })).toBeInTheDocument()
    const lessons = screen.getByRole('navigation', { name: 'Outras aulas do curso' })
    expect(lessons.querySelector('a[rel="prev"]')).toHaveAttribute('href', '/aula/11')
    expect(lessons.querySelector('a[rel="next"]')).toHaveAttribute('href', '/aula/13')
  })

  test('locked: no video, source or track; what it is, why, and the way to the shop', async () => {
    const { container } = await renderLesson(lockedLessonAnswer())
    expect(await screen.findByRole('heading', { level: 2, name: 'Esta aula está bloqueada' })).toBeInTheDocument()
    expect(container.querySelector('video, source, track')).toBeNull()
    expect(container.innerHTML).not.toMatch(/\.mp4|\.vtt|signature/)
    expect(screen.getByText('Resumo 2.')).toBeInTheDocument()
    expect(screen.getByText('Duração: 0:30')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ver o curso na loja' })).toHaveAttribute('href', '/produto/9')
    expect(screen.getByRole('link', { name: 'Ver os planos' })).toHaveAttribute('href', '/solucoes?tipo=subscription')
    expect(screen.queryByRole('button', { name: 'Marcar como concluída' })).toBeNull()
  })
})
