import type { LocalizedText, WeeklyAvailability } from './schema'

export const GROUP_NAMES = ['admin', 'profissional', 'paciente'] as const
export type GroupName = (typeof GROUP_NAMES)[number]

export type PillarSeed = { slug: string; icon: string; name: LocalizedText; description: LocalizedText }

/** The six pillars in the order the product shows them; positions alternate from the left. */
export const PILLARS: PillarSeed[] = [
  {
    slug: 'estresse',
    icon: 'brain',
    name: { pt: 'Gestão do estresse', en: 'Stress management', es: 'Manejo del estrés' },
    description: {
      pt: 'Aprenda a reconhecer os sinais do estresse no corpo e na mente e a responder a eles com pausas, respiração consciente e limites mais saudáveis. Pequenas práticas diárias ajudam a recuperar a calma e a clareza para lidar com os desafios da rotina.',
      en: 'Learn to recognise the signs of stress in your body and mind, and to answer them with pauses, mindful breathing and healthier boundaries. Small daily practices help you regain the calm and clarity to handle the demands of everyday life.',
      es: 'Aprende a reconocer las señales del estrés en el cuerpo y en la mente, y a responder a ellas con pausas, respiración consciente y límites más saludables. Pequeñas prácticas diarias te ayudan a recuperar la calma y la claridad para afrontar los desafíos de la rutina.',
    },
  },
  {
    slug: 'exercicio',
    icon: 'activity',
    name: { pt: 'Atividade física', en: 'Physical activity', es: 'Actividad física' },
    description: {
      pt: 'Mover o corpo com regularidade fortalece o coração, os músculos e o humor, e não exige academia nem grandes metas para começar. Vamos encontrar juntos atividades de que você goste e que caibam na sua rotina, avançando no seu ritmo.',
      en: "Moving your body regularly strengthens your heart, your muscles and your mood, and you don't need a gym or big goals to get started. Together we'll find activities you enjoy that fit your routine, progressing at your own pace.",
      es: 'Mover el cuerpo con regularidad fortalece el corazón, los músculos y el estado de ánimo, y no hace falta un gimnasio ni grandes metas para empezar. Juntos encontraremos actividades que disfrutes y que encajen en tu rutina, avanzando a tu ritmo.',
    },
  },
  {
    slug: 'alimento',
    icon: 'apple',
    name: { pt: 'Alimentação', en: 'Nutrition', es: 'Alimentación' },
    description: {
      pt: 'Uma alimentação baseada em comida de verdade, com frutas, verduras, legumes, grãos integrais e leguminosas, dá energia e sustenta a saúde a longo prazo. Sem dietas radicais: construímos hábitos possíveis, que respeitam seu paladar, sua cultura e seu orçamento.',
      en: 'Eating mostly whole foods, such as fruit, vegetables, whole grains and legumes, gives you energy and supports your health in the long run. No crash diets: we build realistic habits that respect your tastes, your culture and your budget.',
      es: 'Una alimentación basada en comida real, con frutas, verduras, cereales integrales y legumbres, te da energía y sostiene la salud a largo plazo. Sin dietas extremas: construimos hábitos posibles, que respetan tu paladar, tu cultura y tu presupuesto.',
    },
  },
  {
    slug: 'sono',
    icon: 'moon',
    name: { pt: 'Sono', en: 'Sleep', es: 'Sueño' },
    description: {
      pt: 'É durante o sono que o corpo se recupera e a mente organiza o dia, o que influencia sua energia, seu humor e sua concentração. Com horários mais regulares, um quarto acolhedor e uma rotina tranquila antes de deitar, seu descanso pode ficar mais profundo e reparador.',
      en: 'Sleep is when your body recovers and your mind sorts through the day, which shapes your energy, your mood and your focus. Regular hours, a restful bedroom and a calm wind-down routine can make your rest deeper and more restorative.',
      es: 'Durante el sueño el cuerpo se recupera y la mente ordena el día, lo que influye en tu energía, tu ánimo y tu concentración. Con horarios más regulares, un dormitorio acogedor y una rutina tranquila antes de acostarte, tu descanso puede volverse más profundo y reparador.',
    },
  },
  {
    slug: 'relacionamentos',
    icon: 'users',
    name: { pt: 'Relacionamentos', en: 'Social relationships', es: 'Relaciones sociales' },
    description: {
      pt: 'Conexões de confiança com família, amigos e comunidade são uma fonte essencial de bem-estar e de apoio nos momentos difíceis. Cultivar a escuta, o tempo de qualidade e o sentimento de pertencimento também é uma forma de cuidar da saúde.',
      en: 'Trusting connections with family, friends and community are an essential source of wellbeing and of support in hard times. Nurturing listening, quality time and a sense of belonging is also a way of caring for your health.',
      es: 'Las conexiones de confianza con la familia, los amigos y la comunidad son una fuente esencial de bienestar y de apoyo en los momentos difíciles. Cultivar la escucha, el tiempo de calidad y el sentido de pertenencia también es una forma de cuidar la salud.',
    },
  },
  {
    slug: 'substancias',
    icon: 'shield',
    name: { pt: 'Controle de substâncias', en: 'Substance control', es: 'Control de sustancias' },
    description: {
      pt: 'Reduzir ou evitar o tabaco, o excesso de álcool e outras substâncias nocivas protege o corpo e a mente e abre espaço para escolhas mais livres. Oferecemos acompanhamento sem julgamentos para você definir suas metas e, quando for preciso, buscar apoio profissional especializado.',
      en: 'Cutting down on or avoiding tobacco, excess alcohol and other harmful substances protects your body and mind and makes room for freer choices. We offer judgement-free coaching to help you set your own goals and, when needed, find specialised professional support.',
      es: 'Reducir o evitar el tabaco, el exceso de alcohol y otras sustancias nocivas protege el cuerpo y la mente y abre espacio para decisiones más libres. Ofrecemos un acompañamiento sin juicios para que definas tus metas y, cuando haga falta, busques apoyo profesional especializado.',
    },
  },
]

/** Every demo account logs in with this password (documented in the README). */
export const DEMO_PASSWORD = 'innera-demo-2025'

/** A demo professional's profile and schedule (decision 0023). */
export type ProfessionalSeed = {
  profession: string
  registrationNumber: string
  pillars: string[]
  languages: string[]
  priceCents: number
  timeZone: string
}

export type DemoAccount = {
  email: string
  username: string
  firstName: string
  lastName: string
  group: GroupName
  specialty?: string
  bio?: string
  /** IANA; the users table's default (America/Sao_Paulo) when left out. */
  timeZone?: string
  professional?: ProfessionalSeed
}

/**
 * The demo professionals' week, in their own time zone: weekdays 08:00-12:00 and 13:00-18:00,
 * Saturday 09:00-12:00. With a 12-hour notice and a 60-day horizon there are always free times
 * from now + 12 h on.
 */
export const DEMO_AVAILABILITY: WeeklyAvailability = {
  monday: { enabled: true, slots: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }] },
  tuesday: { enabled: true, slots: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }] },
  wednesday: { enabled: true, slots: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }] },
  thursday: { enabled: true, slots: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }] },
  friday: { enabled: true, slots: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }] },
  saturday: { enabled: true, slots: [{ start: '09:00', end: '12:00' }] },
  sunday: { enabled: false, slots: [] },
}

export const DEMO_SCHEDULE_RULES = { consultationMinutes: 50, bufferMinutes: 10, minimumNoticeHours: 12, horizonDays: 60 }

export const DEMO_ACCOUNTS: DemoAccount[] = [
  { email: 'admin@innera.local', username: 'admin', firstName: 'Alice', lastName: 'Admin', group: 'admin' },
  {
    email: 'profissional@innera.local',
    username: 'profissional',
    firstName: 'Paula',
    lastName: 'Ribeiro',
    group: 'profissional',
    specialty: 'Medicina do estilo de vida',
    bio: 'Médica dedicada à medicina do estilo de vida, acompanha pacientes na construção de hábitos sustentáveis.',
    professional: {
      profession: 'Médica',
      registrationNumber: 'CRM-SP 123456',
      pillars: ['estresse', 'exercicio', 'sono', 'substancias'],
      languages: ['pt', 'en'],
      priceCents: 18000,
      timeZone: 'America/Sao_Paulo',
    },
  },
  {
    email: 'nutricionista@innera.local',
    username: 'nutricionista',
    firstName: 'Rafael',
    lastName: 'Costa',
    group: 'profissional',
    specialty: 'Nutrição',
    bio: 'Nutricionista focado em alimentação baseada em comida de verdade e em mudanças possíveis no dia a dia.',
    professional: {
      profession: 'Nutricionista',
      registrationNumber: 'CRN-3 45678',
      pillars: ['alimento', 'exercicio'],
      languages: ['pt'],
      priceCents: 15000,
      timeZone: 'America/Sao_Paulo',
    },
  },
  { email: 'paciente@innera.local', username: 'paciente', firstName: 'Pedro', lastName: 'Santos', group: 'paciente' },
  { email: 'paciente2@innera.local', username: 'paciente2', firstName: 'Mariana', lastName: 'Alves', group: 'paciente' },
  // Added with the appointments (decision 0023), after the others so their ids stay 1-5.
  {
    email: 'psicologa@innera.local',
    username: 'psicologa',
    firstName: 'Inês',
    lastName: 'Marques',
    group: 'profissional',
    specialty: 'Psicologia',
    bio: 'Psicóloga em Lisboa, trabalha com manejo do estresse, sono e relações, em português e em inglês.',
    timeZone: 'Europe/Lisbon',
    professional: {
      profession: 'Psicóloga',
      registrationNumber: 'OPP 024518',
      pillars: ['estresse', 'sono', 'relacionamentos'],
      languages: ['pt', 'en'],
      priceCents: 20000,
      timeZone: 'Europe/Lisbon',
    },
  },
  {
    email: 'educador@innera.local',
    username: 'educador',
    firstName: 'Lucas',
    lastName: 'Ferreira',
    group: 'profissional',
    specialty: 'Educação física',
    bio: 'Educador físico: movimento no dia a dia e apoio para reduzir o tabaco e o álcool, em português e em espanhol.',
    professional: {
      profession: 'Educador físico',
      registrationNumber: 'CREF 012345-G/SP',
      pillars: ['exercicio', 'substancias'],
      languages: ['pt', 'es'],
      priceCents: 12000,
      timeZone: 'America/Sao_Paulo',
    },
  },
]

/** Which professional follows which patient (by e-mail). */
export const DEMO_CARE_LINKS: [professional: string, patient: string][] = [
  ['profissional@innera.local', 'paciente@innera.local'],
  ['profissional@innera.local', 'paciente2@innera.local'],
  ['nutricionista@innera.local', 'paciente2@innera.local'],
]
