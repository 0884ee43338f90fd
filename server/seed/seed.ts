import { eq, inArray, sql } from 'drizzle-orm'
import { hashPassword } from '#server/auth/passwords.ts'
import type { Database } from '#server/db/client.ts'
import { GROUP_NAMES, groups, pillars, products, professionalPatients, professionalProfiles, questionnaireQuestions, questionnaireVersions, userGroups, users } from '#server/db/schema.ts'
import { STARTING_AVAILABILITY, STARTING_SCHEDULE_RULES } from '#server/professionals/accreditation.ts'
import { DEMO_ACCOUNTS, DEMO_CARE_LINKS, DEMO_PASSWORD, PILLARS, PRODUCTS } from '#server/seed/data.ts'
import { optionsOf, QUESTIONNAIRE } from '#server/seed/questionnaire.ts'
import { readLessonManifest, seedCourses } from '#server/courses/seed.ts'
import { seedLiveClasses } from '#server/live-classes/seed.ts'
import { recordSignupConsents } from '#server/privacy/repository.ts'

type SeedReport = { groups: number; pillars: number; users: number; careLinks: number; profiles: number; questions: number; products: number; courses: number; lessons: number; liveClasses: number }

let demoPasswordHash: Promise<string> | undefined

/**
 * Creates whatever seed data is missing and touches nothing that exists, so it runs at every
 * start: an admin's later edits (a renamed pillar, a removed group, an unlinked patient)
 * survive restarts. Returns how many rows it created.
 */
export async function seedDatabase(db: Database): Promise<SeedReport> {
  const createdGroups = await db
    .insert(groups)
    .values(GROUP_NAMES.map((name) => ({ name })))
    .onConflictDoNothing()
    .returning({ id: groups.id })

  const createdPillars = await db
    .insert(pillars)
    .values(
      PILLARS.map((pillar, index) => ({
        ...pillar,
        order: index + 1,
        position: index % 2 === 0 ? ('left' as const) : ('right' as const),
      })),
    )
    .onConflictDoNothing()
    .returning({ id: pillars.id })

  const groupIds = new Map((await db.select().from(groups).where(inArray(groups.name, [...GROUP_NAMES]))).map((group) => [group.name, group.id]))

  // The same hash for every demo account: they share a published password anyway, and
  // hashing once keeps test resets fast.
  demoPasswordHash ??= hashPassword(DEMO_PASSWORD)
  const password = await demoPasswordHash

  const createdEmails = new Set<string>()
  for (const account of DEMO_ACCOUNTS) {
    const [created] = await db
      .insert(users)
      .values({
        email: account.email,
        username: account.username,
        password,
        firstName: account.firstName,
        lastName: account.lastName,
        specialty: account.specialty ?? '',
        bio: account.bio ?? '',
        ...(account.timeZone && { timeZone: account.timeZone }),
        emailVerified: true,
      })
      .onConflictDoNothing()
      .returning({ id: users.id })
    if (!created) continue
    createdEmails.add(account.email)
    await db.insert(userGroups).values({ userId: created.id, groupId: groupIds.get(account.group)! }).onConflictDoNothing()
    // The terms and the privacy policy accepted, as registration records them: the demo's privacy page reads as a real account's.
    await recordSignupConsents(db, created.id, Date.now())
  }

  // Links are made only alongside a newly created account, so unlinking one sticks.
  let careLinks = 0
  const newLinks = DEMO_CARE_LINKS.filter(([professional, patient]) => createdEmails.has(professional) || createdEmails.has(patient))
  if (newLinks.length > 0) {
    const emails = [...new Set(newLinks.flat())]
    const rows = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(sql`lower(${users.email})`, emails))
    const idByEmail = new Map(rows.map((row) => [row.email.toLowerCase(), row.id]))
    const values = newLinks
      .map(([professional, patient]) => ({ professionalId: idByEmail.get(professional), patientId: idByEmail.get(patient) }))
      .filter((link): link is { professionalId: number; patientId: number } => link.professionalId !== undefined && link.patientId !== undefined)
    if (values.length > 0) {
      careLinks = (await db.insert(professionalPatients).values(values).onConflictDoNothing().returning()).length
    }
  }

  return {
    groups: createdGroups.length,
    pillars: createdPillars.length,
    users: createdEmails.size,
    careLinks,
    profiles: await seedProfessionalProfiles(db),
    questions: await seedQuestionnaire(db),
    products: await seedProducts(db),
    ...(await seedCourses(db, await readLessonManifest())),
    liveClasses: await seedLiveClasses(db),
  }
}

/**
 * The question bank. A version seen for the first time becomes the current one (the one patients
 * answer); older versions stay, so their results can still be shown with their own questions.
 * One transaction, so a version is never left half-published.
 */
async function seedQuestionnaire(db: Database): Promise<number> {
  const { version, title, description, estimatedMinutes, questions } = QUESTIONNAIRE
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(questionnaireVersions)
      .values({ version, title, description, estimatedMinutes })
      .onConflictDoNothing()
      .returning({ version: questionnaireVersions.version })
    if (created) {
      await tx.update(questionnaireVersions).set({ isCurrent: false }).where(eq(questionnaireVersions.isCurrent, true))
      await tx.update(questionnaireVersions).set({ isCurrent: true }).where(eq(questionnaireVersions.version, version))
    }
    const inserted = await tx
      .insert(questionnaireQuestions)
      .values(
        questions.map((question, index) => ({
          version,
          code: question.code,
          pillarSlug: question.pillar,
          order: index + 1,
          text: question.text,
          options: optionsOf(question.scale),
          reverse: question.reverse ?? false,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: questionnaireQuestions.id })
    return inserted.length
  })
}

/**
 * The demo professionals' profiles and schedules, for those accounts that exist and have none
 * yet (also accounts seeded before profiles existed): a schedule a professional has edited stays.
 */
async function seedProfessionalProfiles(db: Database): Promise<number> {
  const accounts = DEMO_ACCOUNTS.filter((account) => account.professional)
  const rows = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(sql`lower(${users.email})`, accounts.map((account) => account.email)))
  const idByEmail = new Map(rows.map((row) => [row.email.toLowerCase(), row.id]))
  const values = accounts.flatMap(({ email, professional }) => {
    const userId = idByEmail.get(email)
    return userId === undefined ? [] : [{ userId, ...professional!, ...STARTING_SCHEDULE_RULES, availability: STARTING_AVAILABILITY, accredited: true }]
  })
  if (values.length === 0) return 0
  return (await db.insert(professionalProfiles).values(values).onConflictDoNothing().returning({ userId: professionalProfiles.userId })).length
}

/**
 * The solutions catalogue (decision 0045): each product missing by its slug, so an admin's later
 * changes (a new price, a deactivated product) stay. A package with a named professional is left
 * out while that account does not exist.
 */
async function seedProducts(db: Database): Promise<number> {
  const emails = [...new Set(PRODUCTS.flatMap((product) => (product.professional ? [product.professional] : [])))]
  const rows =
    emails.length === 0
      ? []
      : await db
          .select({ id: users.id, email: users.email })
          .from(users)
          .where(inArray(sql`lower(${users.email})`, emails))
  const idByEmail = new Map(rows.map((row) => [row.email.toLowerCase(), row.id]))
  const values = PRODUCTS.flatMap(({ professional, ...product }, index) => {
    const professionalId = professional === undefined ? null : idByEmail.get(professional)
    if (professionalId === undefined) return []
    return [
      {
        ...product,
        professionalId,
        consultations: product.consultations ?? null,
        weeks: product.weeks ?? null,
        planInterval: product.planInterval ?? null,
        trialDays: product.trialDays ?? null,
        sortOrder: (index + 1) * 10,
      },
    ]
  })
  return (await db.insert(products).values(values).onConflictDoNothing().returning({ id: products.id })).length
}
