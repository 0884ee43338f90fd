import { and, count, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { contentDrafts, CONTENT_KINDS, type ContentKind, courses, lessons, liveClasses, pillars, products, questionnaireVersions } from '#server/db/schema.ts'

/** What the admin content editor's front page counts (decision 0064), as GET /admin/content/ answers it. */
export type ContentOverview = {
  pillars: { published: number; drafts: number }
  products: { published: number; on_sale: number; drafts: number }
  courses: { published: number; offered: number; lessons: number; drafts: number }
  live_classes: { upcoming: number; drafts: number }
  questionnaire: { versions: number; current: string | null; drafts: number }
}

/**
 * How many items of each kind are published (products and courses: also how many are on offer;
 * live classes: how many are still to come at `now`) and how many drafts wait to be published.
 * Ten independent counts, read in parallel.
 */
export async function contentOverview(db: Database, now: Date): Promise<ContentOverview> {
  const total = async (query: Promise<{ value: number }[]>) => (await query)[0]?.value ?? 0
  const [pillarCount, productCount, productsOnSale, courseCount, coursesOffered, lessonCount, upcomingClasses, versionCount, current, drafts] = await Promise.all([
    total(db.select({ value: count() }).from(pillars)),
    total(db.select({ value: count() }).from(products)),
    total(db.select({ value: count() }).from(products).where(eq(products.active, true))),
    total(db.select({ value: count() }).from(courses)),
    total(db.select({ value: count() }).from(courses).where(eq(courses.active, true))),
    total(db.select({ value: count() }).from(lessons)),
    total(db.select({ value: count() }).from(liveClasses).where(and(isNull(liveClasses.cancelledAt), gt(liveClasses.startsAt, now)))),
    total(db.select({ value: count() }).from(questionnaireVersions)),
    db.select({ version: questionnaireVersions.version }).from(questionnaireVersions).where(eq(questionnaireVersions.isCurrent, true)),
    db.select({ kind: contentDrafts.kind, value: sql<number>`count(*)::int` }).from(contentDrafts).groupBy(contentDrafts.kind),
  ])
  const draftsByKind = Object.fromEntries(CONTENT_KINDS.map((kind) => [kind, drafts.find((row) => row.kind === kind)?.value ?? 0])) as Record<ContentKind, number>
  return {
    pillars: { published: pillarCount, drafts: draftsByKind.pillar },
    products: { published: productCount, on_sale: productsOnSale, drafts: draftsByKind.product },
    courses: { published: courseCount, offered: coursesOffered, lessons: lessonCount, drafts: draftsByKind.course + draftsByKind.lesson },
    live_classes: { upcoming: upcomingClasses, drafts: draftsByKind.live_class },
    questionnaire: { versions: versionCount, current: current[0]?.version ?? null, drafts: draftsByKind.questionnaire },
  }
}
