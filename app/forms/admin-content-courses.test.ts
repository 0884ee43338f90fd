import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { courseContentSchema, newCourseSchema, newLessonSchema } from './admin-content-courses.ts'

const form = (fields: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.append(name, value)
  return data
}
/** The field errors of a refused submission (none for an accepted one). */
const errorsOf = (submission: { status?: string; error?: unknown }) => (submission.status === 'error' ? (submission.error as Record<string, string[]>) : {})
const course = { 'title.pt': 'Sono', 'title.en': 'Sleep', 'title.es': 'Sueño', 'description.pt': 'a', 'description.en': 'b', 'description.es': 'c', pillar: 'sono', sort_order: '10', active: 'on' }

describe('the course form', () => {
  it('keeps a draft with languages and the pillar missing, and refuses to publish it, naming each', () => {
    const draft = parseWithZod(form({ ...course, 'title.es': '', pillar: '', intent: 'save' }), { schema: courseContentSchema })
    expect(draft.status).toBe('success')
    const refused = parseWithZod(form({ ...course, 'title.es': '', pillar: '', intent: 'publish' }), { schema: courseContentSchema })
    expect(refused.status).toBe('error')
    expect(Object.keys(errorsOf(refused)).sort()).toEqual(['', 'pillar', 'title.es'])
  })
  it('reads a free course, a product, an inactive course; bounds the order', () => {
    const value = parseWithZod(form({ ...course, active: '', product_id: '7', intent: 'publish' }), { schema: courseContentSchema })
    expect(value.status === 'success' && value.value).toMatchObject({ active: false, product_id: 7, sort_order: 10 })
    expect(errorsOf(parseWithZod(form({ ...course, sort_order: '1000001', intent: 'save' }), { schema: courseContentSchema }))).toHaveProperty('sort_order')
  })
  it("takes a new course's slug by the tables' rule, not the editor's own address", () => {
    for (const slug of ['Sono', 'sono leve', 'new', 'a'.repeat(81)]) expect(errorsOf(parseWithZod(form({ ...course, slug, intent: 'save' }), { schema: newCourseSchema })), slug).toHaveProperty('slug')
    expect(parseWithZod(form({ ...course, slug: 'sono-leve', intent: 'save' }), { schema: newCourseSchema }).status).toBe('success')
  })
})

describe('the new lesson form', () => {
  it('needs a video, and a number from 1 to 200 to publish', () => {
    const lesson = { 'title.pt': 'A', 'title.en': 'B', 'title.es': 'C', 'summary.pt': 'a', 'summary.en': 'b', 'summary.es': 'c', video: 'sono-4' }
    expect(parseWithZod(form({ ...lesson, intent: 'save' }), { schema: newLessonSchema }).status).toBe('success')
    expect(errorsOf(parseWithZod(form({ ...lesson, intent: 'publish' }), { schema: newLessonSchema }))).toHaveProperty('number')
    expect(errorsOf(parseWithZod(form({ ...lesson, number: '201', intent: 'save' }), { schema: newLessonSchema }))).toHaveProperty('number')
    expect(errorsOf(parseWithZod(form({ ...lesson, video: '', number: '4', intent: 'save' }), { schema: newLessonSchema }))).toHaveProperty('video')
  })
})
