import { inArray } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { liveClasses, users, type LiveClassAccess, type LocalizedText, type Weekday } from '#server/db/schema.ts'
import { addDays, localDateOf, wallTimeResolver, weekdayOf } from '#server/dates.ts'

/**
 * The demo's live classes (decision 0058): a weekly pattern of four, materialised for the next 21
 * days at every start (each missing one by its slug `{pattern}-{YYYY-MM-DD}`, so an admin's later
 * changes stay), their times on São Paulo's wall clock.
 */
const SEED_DAYS_AHEAD = 21
const ZONE = 'America/Sao_Paulo'
const DAY = 86_400_000

type Pattern = {
  slug: string
  pillarSlug: string
  weekday: Weekday
  /** "HH:MM" in São Paulo. */
  time: string
  durationMinutes: number
  teacherEmail: string
  seats: number
  access: LiveClassAccess
  title: LocalizedText
  description: LocalizedText
}

const LIVE_CLASS_PATTERNS: Pattern[] = [
  {
    slug: 'yoga-para-dormir-melhor',
    pillarSlug: 'sono',
    weekday: 'tuesday',
    time: '19:00',
    durationMinutes: 45,
    teacherEmail: 'profissional@innera.local',
    seats: 30,
    access: 'members',
    title: { pt: 'Yoga para dormir melhor', en: 'Yoga for better sleep', es: 'Yoga para dormir mejor' },
    description: {
      pt: 'Uma sequência suave de posturas e respiração para desacelerar à noite e preparar o corpo para o sono.',
      en: 'A gentle sequence of postures and breathing to slow down in the evening and get the body ready for sleep.',
      es: 'Una secuencia suave de posturas y respiración para bajar el ritmo por la noche y preparar el cuerpo para dormir.',
    },
  },
  {
    slug: 'respiracao-e-pausa',
    pillarSlug: 'estresse',
    weekday: 'thursday',
    time: '12:30',
    durationMinutes: 30,
    teacherEmail: 'psicologa@innera.local',
    seats: 40,
    access: 'free',
    title: { pt: 'Respiração e pausa', en: 'Breathing and pause', es: 'Respiración y pausa' },
    description: {
      pt: 'Meia hora no meio do dia para praticar respiração lenta e pausas curtas que baixam o estresse.',
      en: 'Half an hour in the middle of the day to practise slow breathing and short pauses that lower stress.',
      es: 'Media hora a mitad del día para practicar la respiración lenta y pausas cortas que bajan el estrés.',
    },
  },
  {
    slug: 'treino-funcional-em-casa',
    pillarSlug: 'exercicio',
    weekday: 'saturday',
    time: '09:00',
    durationMinutes: 50,
    teacherEmail: 'educador@innera.local',
    seats: 25,
    access: 'free',
    title: { pt: 'Treino funcional em casa', en: 'Functional training at home', es: 'Entrenamiento funcional en casa' },
    description: {
      pt: 'Exercícios com o peso do corpo, sem equipamentos, adaptados a cada nível, para começar o fim de semana em movimento.',
      en: 'Bodyweight exercises with no equipment, adapted to every level, to start the weekend moving.',
      es: 'Ejercicios con el peso del cuerpo, sin equipos, adaptados a cada nivel, para empezar el fin de semana en movimiento.',
    },
  },
  {
    slug: 'cozinha-de-verdade-ao-vivo',
    pillarSlug: 'alimento',
    weekday: 'wednesday',
    time: '18:00',
    durationMinutes: 60,
    teacherEmail: 'nutricionista@innera.local',
    seats: 20,
    access: 'members',
    title: { pt: 'Cozinha de verdade ao vivo', en: 'Real food, live in the kitchen', es: 'Cocina de verdad en vivo' },
    description: {
      pt: 'Uma receita simples com comida de verdade, preparada ao vivo, com dicas de compras e de organização da semana.',
      en: 'A simple real-food recipe cooked live, with tips on shopping and planning the week.',
      es: 'Una receta sencilla con comida de verdad, preparada en vivo, con consejos de compras y de organización de la semana.',
    },
  },
]

/** The classes of the patterns starting in [now, now + 21 days), missing ones created; how many were. */
export async function seedLiveClasses(db: Database, now = Date.now()): Promise<number> {
  const teachers = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      inArray(
        users.email,
        LIVE_CLASS_PATTERNS.map((pattern) => pattern.teacherEmail),
      ),
    )
  const teacherId = new Map(teachers.map((row) => [row.email, row.id]))
  const today = localDateOf(now, ZONE)
  const values: (typeof liveClasses.$inferInsert)[] = []
  for (let offset = 0; offset <= SEED_DAYS_AHEAD; offset++) {
    const date = addDays(today, offset)
    for (const pattern of LIVE_CLASS_PATTERNS) {
      const teacher = teacherId.get(pattern.teacherEmail)
      if (teacher === undefined || weekdayOf(date) !== pattern.weekday) continue
      const startsAt = wallTimeResolver(date, ZONE)(Number(pattern.time.slice(0, 2)) * 60 + Number(pattern.time.slice(3, 5)))
      if (startsAt === undefined || startsAt < now || startsAt >= now + SEED_DAYS_AHEAD * DAY) continue
      values.push({
        slug: `${pattern.slug}-${date}`,
        pillarSlug: pattern.pillarSlug,
        title: pattern.title,
        description: pattern.description,
        teacherId: teacher,
        startsAt: new Date(startsAt),
        durationMinutes: pattern.durationMinutes,
        seats: pattern.seats,
        access: pattern.access,
      })
    }
  }
  if (values.length === 0) return 0
  return (await db.insert(liveClasses).values(values).onConflictDoNothing().returning({ id: liveClasses.id })).length
}
