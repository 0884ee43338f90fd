import { DEFAULT_TIME_ZONE, timeZoneName } from '#app/domain/appointments.ts'
import { courseStage } from '#app/domain/courses.ts'
import { formatInstantDate } from '#app/domain/viewer-times.ts'
import { type Language } from '#app/i18n/config.ts'
import { type LiveClass } from '#app/provider/class-schemas.ts'
import { type Course } from '#app/provider/course-schemas.ts'
import { type OwnedProduct } from '#app/provider/product-schemas.ts'
import { type Subscription } from '#app/provider/subscription-schemas.ts'
import { type Pillar } from '#app/provider/schemas.ts'
import { productView } from '#app/features/products/product-views.server.ts'
import { classTime } from '#app/features/live-classes/live-classes.server.ts'
import { subscriptionView } from '#app/features/purchases/subscription.server.ts'

/**
 * "My products" (`/meus-produtos`, docs/product.md §2): what the signed-in user has, grouped as the
 * page shows it. A material is downloadable from when it is available; a package shows its
 * consultations left (a used-up one is left out); subscriptions that ended are on /assinaturas.
 * Courses (decision 0057) are those the user has or started, with their progress and where to go
 * on; without that list (`courses` null: the provider failed) the courses bought, as products.
 * The live classes (decision 0058) the user has a seat in, soonest first, when in their zone;
 * without that list (the provider failed) the section is left out.
 */
export function myProductsView(
  owned: readonly OwnedProduct[],
  subscriptions: readonly Subscription[],
  {
    language,
    pillars,
    now,
    courses = null,
    liveClasses = null,
    timeZone = DEFAULT_TIME_ZONE,
  }: { language: Language; pillars: readonly Pillar[]; now: number; courses?: readonly Course[] | null; liveClasses?: readonly LiveClass[] | null; timeZone?: string },
) {
  const view = (item: OwnedProduct) => ({
    ...productView(item.product, { language, pillars }),
    purchaseId: item.purchase_id,
    // The date it became the user's where they are (decision 0077).
    since: formatInstantDate(item.available_at, timeZone, language),
    available: Date.parse(item.available_at) <= now,
  })
  const of = (kind: OwnedProduct['kind']) => owned.filter((item) => item.kind === kind)
  const bought = of('course').map((item) => ({ ...view(item), href: `/produto/${item.product.id}`, progress: null, next: null }))
  const myCourse = (course: Course) => {
    const stage = courseStage(course.progress)
    const next = course.progress.next_lesson_id
    return {
      id: course.id,
      name: course.title[language],
      href: `/cursos/${course.id}`,
      since: bought.find((item) => item.id === course.product?.id)?.since ?? null,
      progress: { done: course.progress.completed_lessons, total: course.progress.total_lessons },
      next: stage === 'done' || next === null ? { href: `/cursos/${course.id}`, label: 'review' as const } : { href: `/aula/${next}`, label: stage === 'new' ? ('start' as const) : ('continue' as const) },
    }
  }
  return {
    courses: courses
      ? [...courses.map(myCourse), ...bought.filter((item) => !courses.some((course) => course.product?.id === item.id)).map((item) => ({ ...item, next: null }))]
      : bought,
    programs: of('program').map(view),
    materials: of('material').map((item) => ({ ...view(item), downloadable: item.download_url !== null })),
    packages: of('consultation_credits')
      .filter((item) => (item.credits?.remaining ?? 0) > 0)
      .map((item) => ({ ...view(item), remaining: item.credits!.remaining, total: item.credits!.total, professionalId: item.credits!.professional_id })),
    liveClasses: (liveClasses ?? []).map((cls) => ({
      id: cls.id,
      name: cls.title[language],
      href: `/aulas-ao-vivo/${cls.id}`,
      when: `${classTime(cls, timeZone, language)} (${timeZoneName(timeZone, language, cls.starts_at)})`,
    })),
    subscriptions: subscriptions.filter((item) => item.status !== 'ended').map((item) => subscriptionView(item, language)),
  }
}

export type MyProductsView = ReturnType<typeof myProductsView>
