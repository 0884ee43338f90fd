import { count, eq, gt, and, isNull, sql } from 'drizzle-orm'
import { authenticateWithRole } from '#server/auth/authenticate.ts'
import { contentDrafts, CONTENT_KINDS, type ContentKind, courses, lessons, liveClasses, pillars, products, questionnaireVersions } from '#server/db/schema.ts'
import type { Api } from '#server/http/api.ts'
import { PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import type { Services } from '#server/services.ts'

/**
 * The admin content editor's front page (issue 26, decision 0064): how many items of each kind are
 * published (products and courses: also how many are on offer) and how many drafts wait to be
 * published. Admins only.
 */
export function registerAdminContentRoutes(api: Api, services: Services): void {
  const { db, clock } = services

  api.endpoint('/admin/content/', {
    GET: async (c) => {
      await authenticateWithRole(c, services, 'admin')
      const now = new Date(clock())
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
      return c.json(
        {
          pillars: { published: pillarCount, drafts: draftsByKind.pillar },
          products: { published: productCount, on_sale: productsOnSale, drafts: draftsByKind.product },
          courses: { published: courseCount, offered: coursesOffered, lessons: lessonCount, drafts: draftsByKind.course + draftsByKind.lesson },
          live_classes: { upcoming: upcomingClasses, drafts: draftsByKind.live_class },
          questionnaire: { versions: versionCount, current: current[0]?.version ?? null, drafts: draftsByKind.questionnaire },
        },
        200,
        { 'Cache-Control': PRIVATE_NO_STORE },
      )
    },
  })
}
