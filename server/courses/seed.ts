import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { inArray } from 'drizzle-orm'
import { findMigrationsDir, type Database } from '#server/db/client.ts'
import { courses, lessons, products, type LessonCues } from '#server/db/schema.ts'
import { COURSES } from '#server/courses/content.ts'

/** What scripts/make-lessons.mjs wrote beside the videos: each lesson's length, size and cues. */
export type LessonManifest = Record<string, { duration_seconds: number; bytes: number; cues: LessonCues }>

/** The lessons' files: `server/media/lessons/`, found beside the migrations from source and from the bundle alike. */
export function findLessonsDir(): string {
  // <project>/server/db/migrations → <project>/server/media/lessons
  return join(dirname(dirname(findMigrationsDir())), 'media', 'lessons')
}

/** The manifest, or nothing (no lessons are seeded) when the videos were never made. */
export async function readLessonManifest(directory = findLessonsDir()): Promise<LessonManifest> {
  try {
    return JSON.parse(await readFile(join(directory, 'manifest.json'), 'utf8')) as LessonManifest
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw error
  }
}

/**
 * The courses and their lessons (decision 0057), each missing one by its slug, like the catalogue:
 * an admin's later changes stay. A paid course waits for its product; a lesson needs its video.
 */
export async function seedCourses(db: Database, manifest: LessonManifest): Promise<{ courses: number; lessons: number }> {
  const productSlugs = COURSES.flatMap((course) => (course.productSlug ? [course.productSlug] : []))
  const productRows = productSlugs.length === 0 ? [] : await db.select({ id: products.id, slug: products.slug }).from(products).where(inArray(products.slug, productSlugs))
  const productId = new Map(productRows.map((row) => [row.slug, row.id]))
  const courseValues = COURSES.flatMap((course, index) => {
    const product = course.productSlug === null ? null : productId.get(course.productSlug)
    if (product === undefined) return []
    return [{ slug: course.slug, pillarSlug: course.pillarSlug, productId: product, title: course.title, description: course.description, sortOrder: (index + 1) * 10 }]
  })
  if (courseValues.length === 0) return { courses: 0, lessons: 0 }
  const createdCourses = await db.insert(courses).values(courseValues).onConflictDoNothing().returning({ id: courses.id })
  const courseRows = await db
    .select({ id: courses.id, slug: courses.slug })
    .from(courses)
    .where(
      inArray(
        courses.slug,
        courseValues.map((course) => course.slug),
      ),
    )
  const courseId = new Map(courseRows.map((row) => [row.slug, row.id]))
  const lessonValues = COURSES.flatMap((course) => {
    const id = courseId.get(course.slug)
    if (id === undefined) return []
    return course.lessons.flatMap((lesson, index) => {
      const media = manifest[lesson.slug]
      if (!media) return []
      return [
        {
          courseId: id,
          number: index + 1,
          slug: lesson.slug,
          title: lesson.title,
          summary: lesson.summary,
          free: lesson.free,
          durationMs: Math.round(media.duration_seconds * 1000),
          videoBytes: media.bytes,
          cues: media.cues,
        },
      ]
    })
  })
  const createdLessons = lessonValues.length === 0 ? [] : await db.insert(lessons).values(lessonValues).onConflictDoNothing().returning({ id: lessons.id })
  return { courses: createdCourses.length, lessons: createdLessons.length }
}
