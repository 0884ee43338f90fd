/**
 * Courses and lessons as the provider answers them (decision 0057), for the route tests: the sleep
 * course (paid, owned, one lesson of three done), its second lesson's page, any field replaced.
 */
export function courseAnswer(overrides: Record<string, unknown> = {}) {
  return {
    id: 1,
    slug: 'sono-reparador',
    pillar: 'sono',
    pillar_id: 4,
    title: { pt: 'Sono reparador', en: 'Restful sleep', es: 'Sueño reparador' },
    description: { pt: 'Dormir melhor.', en: 'Sleep better.', es: 'Dormir mejor.' },
    product: { id: 9, price_cents: 19700, currency: 'BRL' },
    lessons_count: 3,
    duration_seconds: 95.4,
    poster_url: 'http://127.0.0.1:8000/media/lessons/sono-1.jpg',
    access: 'owned',
    progress: { completed_lessons: 1, total_lessons: 3, percent: 33.3, started: true, next_lesson_id: 12, next_position_seconds: 8.5 },
    ...overrides,
  }
}

export const freeCourseAnswer = courseAnswer({
  id: 2,
  slug: 'mexa-se',
  pillar: 'exercicio',
  pillar_id: 2,
  title: { pt: 'Mexa-se', en: 'Get moving', es: 'Muévete' },
  product: null,
  access: 'free',
  poster_url: 'http://127.0.0.1:8000/media/lessons/mexa-se-1.jpg',
  progress: { completed_lessons: 0, total_lessons: 3, percent: 0, started: false, next_lesson_id: 21, next_position_seconds: 0 },
})

export function lessonAnswer(number: number, overrides: Record<string, unknown> = {}) {
  return {
    id: 10 + number,
    course_id: 1,
    number,
    slug: `sono-${number}`,
    title: { pt: `Aula ${number} do sono`, en: `Sleep lesson ${number}`, es: `Clase ${number} del sueño` },
    summary: { pt: `Resumo ${number}.`, en: `Summary ${number}.`, es: `Resumen ${number}.` },
    duration_seconds: 30,
    free: number === 1,
    locked: false,
    poster_url: `http://127.0.0.1:8000/media/lessons/sono-${number}.jpg`,
    progress: { position_seconds: 0, watched_seconds: 0, completed: false, completed_at: null },
    ...overrides,
  }
}

const signed = (file: string) => `http://127.0.0.1:8000/media/lessons/${file}?expires=1790000000&signature=abc123`

/** Lesson 2's page, playing for the user, resumed at 8.5 s. */
export function lessonDetailAnswer(overrides: Record<string, unknown> = {}) {
  return {
    ...lessonAnswer(2, { progress: { position_seconds: 8.5, watched_seconds: 8, completed: false, completed_at: null } }),
    course: courseAnswer(),
    previous_id: 11,
    next_id: 13,
    video: { url: signed('sono-2.mp4'), type: 'video/mp4', bytes: 1_234_567, expires_at: '2026-09-21T15:00:00.000Z' },
    captions: ['pt', 'en', 'es'].map((lang) => ({ lang, url: signed(`sono-2.${lang}.vtt`) })),
    transcript: [
      { start: 0, end: 4.2, text: 'Boa noite.' },
      { start: 4.2, end: 9.8, text: 'Vamos falar do sono.' },
    ],
    lock: null,
    ...overrides,
  }
}

/** The same lesson, locked: no media at all. */
export const lockedLessonAnswer = () =>
  lessonDetailAnswer({ locked: true, course: courseAnswer({ access: null }), video: null, captions: [], transcript: [], lock: { reason: 'purchase', product_id: 9 } })

export const coursePillarsAnswer = [
  { pillar: 'exercicio', pillar_id: 2, name: { pt: 'Atividade física', en: 'Physical activity', es: 'Actividad física' }, courses_count: 1 },
  { pillar: 'sono', pillar_id: 4, name: { pt: 'Sono', en: 'Sleep', es: 'Sueño' }, courses_count: 1 },
]

export const coursePage = (results: unknown[]) => ({ count: results.length, next: null, previous: null, results })
