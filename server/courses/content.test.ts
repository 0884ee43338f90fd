import { existsSync, readFileSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { LocalizedText } from '#server/db/schema.ts'
import { PRODUCTS } from '#server/seed/data.ts'
import { COURSES } from '#server/courses/content.ts'

const LESSONS_DIR = fileURLToPath(new URL('../media/lessons/', import.meta.url))
const LANGUAGES = ['pt', 'en', 'es'] as const
const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

type Cue = { start: number; end: number; text: string }
type ManifestEntry = { duration_seconds: number; bytes: number; cues: Record<(typeof LANGUAGES)[number], Cue[]> }
const manifest = JSON.parse(readFileSync(`${LESSONS_DIR}manifest.json`, 'utf8')) as Record<string, ManifestEntry>

const lessons = COURSES.flatMap((course) => course.lessons.map((lesson) => ({ course, lesson })))

/** Every language present, trimmed, not empty and at most `max` characters. */
function expectText(text: LocalizedText, max: number, where: string) {
  for (const language of LANGUAGES) {
    const value = text[language]
    expect(value.trim(), `${where} (${language})`).not.toBe('')
    expect(value, `${where} (${language})`).toBe(value.trim())
    expect(value.length, `${where} (${language}): ${value}`).toBeLessThanOrEqual(max)
  }
}

describe('the courses’ content', () => {
  it('has four courses, one per pillar, three lessons of three or four slides each', () => {
    expect(COURSES.map((course) => course.pillarSlug).sort()).toEqual(['alimento', 'estresse', 'exercicio', 'sono'])
    for (const course of COURSES) {
      expect(course.lessons).toHaveLength(3)
      for (const lesson of course.lessons) expect(lesson.slides.length).toBeGreaterThanOrEqual(3)
      for (const lesson of course.lessons) expect(lesson.slides.length).toBeLessThanOrEqual(4)
    }
  })

  it('has every text in pt, en and es, within its length', () => {
    for (const course of COURSES) {
      expectText(course.title, 80, `${course.slug} title`)
      expectText(course.description, 400, `${course.slug} description`)
      for (const lesson of course.lessons) {
        expectText(lesson.title, 80, `${lesson.slug} title`)
        expectText(lesson.summary, 200, `${lesson.slug} summary`)
        for (const [index, slide] of lesson.slides.entries()) {
          expectText(slide.heading, 60, `${lesson.slug} slide ${index + 1} heading`)
          expectText(slide.text, 170, `${lesson.slug} slide ${index + 1} text`)
        }
      }
    }
  })

  it('has unique kebab-case slugs', () => {
    const courseSlugs = COURSES.map((course) => course.slug)
    const lessonSlugs = lessons.map(({ lesson }) => lesson.slug)
    for (const slug of [...courseSlugs, ...lessonSlugs]) expect(slug).toMatch(KEBAB)
    expect(new Set(courseSlugs).size).toBe(courseSlugs.length)
    expect(new Set(lessonSlugs).size).toBe(lessonSlugs.length)
    for (const { course, lesson } of lessons) expect(lesson.slug.startsWith(`${course.slug}-`)).toBe(true)
  })

  it('sells each paid course as a catalogue course product of its pillar, the first lesson free as a preview', () => {
    const paid = COURSES.filter((course) => course.productSlug !== null)
    expect(paid.map((course) => course.slug).sort()).toEqual(['comida-de-verdade', 'estresse-sob-controle', 'sono-reparador'])
    for (const course of paid) {
      const product = PRODUCTS.find((candidate) => candidate.slug === course.productSlug)
      expect(product, course.slug).toMatchObject({ productType: 'course', pillarSlug: course.pillarSlug })
      expect(course.lessons.map((lesson) => lesson.free)).toEqual([true, false, false])
    }
    const free = COURSES.filter((course) => course.productSlug === null)
    expect(free.map((course) => course.slug)).toEqual(['movimento-no-dia-a-dia'])
    for (const course of free) for (const lesson of course.lessons) expect(lesson.free).toBe(false)
  })
})

describe('the lessons’ media (node scripts/make-lessons.mjs)', () => {
  it('has a manifest entry for every lesson and no other', () => {
    expect(Object.keys(manifest).sort()).toEqual(lessons.map(({ lesson }) => lesson.slug).sort())
  })

  it('matches the content: one cue per slide, in each language, with the slide’s text', () => {
    for (const { lesson } of lessons) {
      const entry = manifest[lesson.slug]!
      expect(entry.duration_seconds, lesson.slug).toBeGreaterThanOrEqual(20)
      expect(entry.duration_seconds, lesson.slug).toBeLessThanOrEqual(40)
      for (const language of LANGUAGES) {
        const cues = entry.cues[language]
        expect(cues.map((cue) => cue.text), `${lesson.slug} ${language} (run node scripts/make-lessons.mjs)`).toEqual(lesson.slides.map((slide) => slide.text[language]))
        expect(cues[0]!.start).toBe(0)
        for (const [index, cue] of cues.entries()) {
          expect(cue.end).toBeGreaterThan(cue.start)
          if (index > 0) expect(cue.start).toBe(cues[index - 1]!.end)
        }
        expect(Math.abs(cues.at(-1)!.end - entry.duration_seconds)).toBeLessThan(0.2)
      }
    }
  })

  it('has the video, the poster and the captions of every lesson', () => {
    for (const { lesson } of lessons) {
      const video = `${LESSONS_DIR}${lesson.slug}.mp4`
      expect(existsSync(video), video).toBe(true)
      expect(statSync(video).size).toBe(manifest[lesson.slug]!.bytes)
      expect(existsSync(`${LESSONS_DIR}${lesson.slug}.jpg`)).toBe(true)
      for (const language of LANGUAGES) {
        const captions = readFileSync(`${LESSONS_DIR}${lesson.slug}.${language}.vtt`, 'utf8')
        expect(captions.startsWith('WEBVTT\n\n')).toBe(true)
        expect(captions.match(/^\d{2}:\d{2}:\d{2}\.\d{3} --> \d{2}:\d{2}:\d{2}\.\d{3}$/gm)).toHaveLength(lesson.slides.length)
      }
    }
  })
})
