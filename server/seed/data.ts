import type { GroupName, LocalizedText, PILLAR_SLUGS, PlanInterval, ProductType } from '#server/db/schema.ts'

type PillarSeed = { slug: (typeof PILLAR_SLUGS)[number]; icon: string; name: LocalizedText; description: LocalizedText }

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
type ProfessionalSeed = {
  profession: string
  registrationNumber: string
  pillars: string[]
  languages: string[]
  priceCents: number
  timeZone: string
}

type DemoAccount = {
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

/**
 * The solutions catalogue (issue 24, decision 0045), in the order the shop shows it. Prices are
 * integer cents of BRL: a consultation is R$ 180,00 and packages are discounted (4 for 10 % off,
 * 8 for 15 % off). `professional` names a demo professional by e-mail (absent: any professional).
 * The category is the shop's shelf: care with a professional (`atendimento`), programs
 * (`programas`), courses and materials (`conteudos`), memberships (`assinaturas`).
 */
type ProductSeed = {
  slug: string
  productType: ProductType
  category: string
  pillarSlug: string | null
  name: LocalizedText
  description: LocalizedText
  priceCents: number
  consultations?: number
  professional?: string
  weeks?: number
  planInterval?: PlanInterval
  trialDays?: number
}

export const PRODUCTS: ProductSeed[] = [
  {
    slug: 'consulta-avulsa',
    productType: 'consultation_package',
    category: 'atendimento',
    pillarSlug: null,
    consultations: 1,
    priceCents: 18_000,
    name: { pt: 'Consulta avulsa', en: 'Single consultation', es: 'Consulta individual' },
    description: {
      pt: 'Uma consulta on-line de 50 minutos com um profissional credenciado da Innera, à sua escolha. Ideal para tirar dúvidas, revisar sua avaliação de saúde ou dar o primeiro passo.',
      en: 'One 50-minute online consultation with an Innera-accredited professional of your choice. Ideal for answering questions, reviewing your health assessment or taking the first step.',
      es: 'Una consulta en línea de 50 minutos con un profesional acreditado de Innera, a tu elección. Ideal para resolver dudas, revisar tu evaluación de salud o dar el primer paso.',
    },
  },
  {
    slug: 'pacote-4-consultas',
    productType: 'consultation_package',
    category: 'atendimento',
    pillarSlug: null,
    consultations: 4,
    priceCents: 64_800,
    name: { pt: 'Pacote de 4 consultas', en: 'Package of 4 consultations', es: 'Paquete de 4 consultas' },
    description: {
      pt: 'Quatro consultas on-line de 50 minutos com qualquer profissional da Innera, com 10% de desconto sobre o valor avulso. Bom para um mês de acompanhamento semanal.',
      en: 'Four 50-minute online consultations with any Innera professional, 10% off the single-consultation price. Good for a month of weekly follow-up.',
      es: 'Cuatro consultas en línea de 50 minutos con cualquier profesional de Innera, con un 10% de descuento sobre el precio individual. Bueno para un mes de seguimiento semanal.',
    },
  },
  {
    slug: 'pacote-8-consultas',
    productType: 'consultation_package',
    category: 'atendimento',
    pillarSlug: null,
    consultations: 8,
    priceCents: 122_400,
    name: { pt: 'Pacote de 8 consultas', en: 'Package of 8 consultations', es: 'Paquete de 8 consultas' },
    description: {
      pt: 'Oito consultas on-line de 50 minutos com qualquer profissional da Innera, com 15% de desconto sobre o valor avulso. Para quem quer um acompanhamento contínuo ao longo de dois a três meses.',
      en: 'Eight 50-minute online consultations with any Innera professional, 15% off the single-consultation price. For steady follow-up over two to three months.',
      es: 'Ocho consultas en línea de 50 minutos con cualquier profesional de Innera, con un 15% de descuento sobre el precio individual. Para un seguimiento continuo durante dos o tres meses.',
    },
  },
  {
    slug: 'pacote-4-consultas-paula-ribeiro',
    productType: 'consultation_package',
    category: 'atendimento',
    pillarSlug: null,
    consultations: 4,
    professional: 'profissional@innera.local',
    priceCents: 64_800,
    name: { pt: 'Pacote de 4 consultas com Dra. Paula Ribeiro', en: 'Package of 4 consultations with Dr Paula Ribeiro', es: 'Paquete de 4 consultas con la Dra. Paula Ribeiro' },
    description: {
      pt: 'Quatro consultas on-line de 50 minutos com a Dra. Paula Ribeiro, médica de medicina do estilo de vida, para trabalhar estresse, sono, atividade física e o controle de substâncias com um plano feito para você.',
      en: 'Four 50-minute online consultations with Dr Paula Ribeiro, a lifestyle-medicine physician, to work on stress, sleep, physical activity and substance control with a plan made for you.',
      es: 'Cuatro consultas en línea de 50 minutos con la Dra. Paula Ribeiro, médica de medicina del estilo de vida, para trabajar el estrés, el sueño, la actividad física y el control de sustancias con un plan hecho para ti.',
    },
  },
  {
    slug: 'programa-essencial-8-semanas',
    productType: 'program',
    category: 'programas',
    pillarSlug: null,
    weeks: 8,
    priceCents: 89_000,
    name: { pt: 'Programa Essencial (8 semanas)', en: 'Essential Program (8 weeks)', es: 'Programa Esencial (8 semanas)' },
    description: {
      pt: 'Oito semanas de metas semanais nos pilares que mais pedem sua atenção, montadas a partir da sua avaliação de saúde, com duas consultas de acompanhamento e acesso aos cursos da plataforma.',
      en: 'Eight weeks of weekly goals in the pillars that need your attention most, built from your health assessment, with two follow-up consultations and access to the platform’s courses.',
      es: 'Ocho semanas de metas semanales en los pilares que más necesitan tu atención, construidas a partir de tu evaluación de salud, con dos consultas de seguimiento y acceso a los cursos de la plataforma.',
    },
  },
  {
    slug: 'programa-completo-12-semanas',
    productType: 'program',
    category: 'programas',
    pillarSlug: null,
    weeks: 12,
    priceCents: 129_000,
    name: { pt: 'Programa Completo (12 semanas)', en: 'Complete Program (12 weeks)', es: 'Programa Completo (12 semanas)' },
    description: {
      pt: 'Doze semanas para transformar a rotina nos seis pilares, no seu ritmo: metas semanais personalizadas, quatro consultas de acompanhamento, acompanhamento de hábitos e todos os cursos e materiais da plataforma.',
      en: 'Twelve weeks to change your routine across the six pillars, at your own pace: personalised weekly goals, four follow-up consultations, habit tracking and every course and material on the platform.',
      es: 'Doce semanas para transformar tu rutina en los seis pilares, a tu ritmo: metas semanales personalizadas, cuatro consultas de seguimiento, seguimiento de hábitos y todos los cursos y materiales de la plataforma.',
    },
  },
  {
    slug: 'plano-programa-12-semanas',
    productType: 'subscription',
    category: 'programas',
    pillarSlug: null,
    planInterval: 'program',
    weeks: 12,
    trialDays: 0,
    priceCents: 24_900,
    name: { pt: 'Plano do programa (12 semanas)', en: 'Program plan (12 weeks)', es: 'Plan del programa (12 semanas)' },
    description: {
      pt: 'Acesso completo à plataforma durante as 12 semanas do seu programa: cursos, materiais, plano semanal e acompanhamento de hábitos. Sem renovação automática.',
      en: 'Full access to the platform for the 12 weeks of your program: courses, materials, weekly plan and habit tracking. No automatic renewal.',
      es: 'Acceso completo a la plataforma durante las 12 semanas de tu programa: cursos, materiales, plan semanal y seguimiento de hábitos. Sin renovación automática.',
    },
  },
  {
    slug: 'curso-sono-reparador',
    productType: 'course',
    category: 'conteudos',
    pillarSlug: 'sono',
    priceCents: 19_700,
    name: { pt: 'Curso Sono reparador', en: 'Restful Sleep course', es: 'Curso Sueño reparador' },
    description: {
      pt: 'Três aulas curtas em vídeo, narradas e legendadas, sobre o relógio biológico, a rotina antes de deitar, a cafeína e as telas, com passos práticos para dormir melhor a partir desta noite.',
      en: 'Three short narrated and captioned video lessons on your body clock, the bedtime routine, caffeine and screens, with practical steps to sleep better from tonight.',
      es: 'Tres clases cortas en vídeo, narradas y subtituladas, sobre el reloj biológico, la rutina antes de dormir, la cafeína y las pantallas, con pasos prácticos para dormir mejor desde esta noche.',
    },
  },
  {
    slug: 'curso-estresse-sob-controle',
    productType: 'course',
    category: 'conteudos',
    pillarSlug: 'estresse',
    priceCents: 19_700,
    name: { pt: 'Curso Estresse sob controle', en: 'Stress Under Control course', es: 'Curso Estrés bajo control' },
    description: {
      pt: 'Três aulas curtas em vídeo, narradas e legendadas, para reconhecer os sinais do estresse e responder a eles com a respiração, pausas ao longo do dia e limites mais saudáveis.',
      en: 'Three short narrated and captioned video lessons to recognise the signs of stress and answer them with breathing, pauses through the day and healthier boundaries.',
      es: 'Tres clases cortas en vídeo, narradas y subtituladas, para reconocer las señales del estrés y responder a ellas con la respiración, pausas a lo largo del día y límites más saludables.',
    },
  },
  {
    slug: 'curso-comida-de-verdade',
    productType: 'course',
    category: 'conteudos',
    pillarSlug: 'alimento',
    priceCents: 16_700,
    name: { pt: 'Curso Comida de verdade no dia a dia', en: 'Real Food Every Day course', es: 'Curso Comida real en el día a día' },
    description: {
      pt: 'Três aulas curtas em vídeo, narradas e legendadas, sobre o que é comida de verdade, como montar um prato equilibrado, ler rótulos, cozinhar mais em casa e comer bem gastando menos.',
      en: 'Three short narrated and captioned video lessons on what real food is, putting together a balanced plate, reading labels, cooking more at home and eating well for less.',
      es: 'Tres clases cortas en vídeo, narradas y subtituladas, sobre qué es la comida real, cómo armar un plato equilibrado, leer etiquetas, cocinar más en casa y comer bien gastando menos.',
    },
  },
  {
    slug: 'diario-do-sono',
    productType: 'digital_material',
    category: 'conteudos',
    pillarSlug: 'sono',
    priceCents: 1_990,
    name: { pt: 'Diário do sono (PDF)', en: 'Sleep diary (PDF)', es: 'Diario del sueño (PDF)' },
    description: {
      pt: 'Um diário de duas semanas para imprimir ou preencher no celular: horários de deitar e acordar, despertares, cafeína e como você se sentiu. Ajuda você e seu profissional a enxergar padrões.',
      en: 'A two-week diary to print or fill in on your phone: bedtime and wake-up times, awakenings, caffeine and how you felt. It helps you and your professional see patterns.',
      es: 'Un diario de dos semanas para imprimir o completar en el móvil: horas de acostarse y levantarse, despertares, cafeína y cómo te sentiste. Te ayuda a ti y a tu profesional a ver patrones.',
    },
  },
  {
    slug: 'guia-planejamento-refeicoes',
    productType: 'digital_material',
    category: 'conteudos',
    pillarSlug: 'alimento',
    priceCents: 3_490,
    name: { pt: 'Guia de planejamento de refeições (PDF)', en: 'Meal-planning guide (PDF)', es: 'Guía de planificación de comidas (PDF)' },
    description: {
      pt: 'Cardápios semanais com comida de verdade, lista de compras por estação e receitas simples para marmitas, pensados para a rotina e o orçamento brasileiros.',
      en: 'Weekly menus built on whole foods, seasonal shopping lists and simple recipes for packed lunches, designed around Brazilian routines and budgets.',
      es: 'Menús semanales con comida real, listas de compras por temporada y recetas sencillas para llevar, pensados para la rutina y el presupuesto brasileños.',
    },
  },
  {
    slug: 'diario-30-dias-menos-alcool',
    productType: 'digital_material',
    category: 'conteudos',
    pillarSlug: 'substancias',
    priceCents: 2_490,
    name: { pt: 'Diário de 30 dias: menos álcool (PDF)', en: '30-day diary: less alcohol (PDF)', es: 'Diario de 30 días: menos alcohol (PDF)' },
    description: {
      pt: 'Um diário de 30 dias para registrar quando e quanto você bebe, os gatilhos e as alternativas que funcionaram, sem julgamentos e no seu ritmo.',
      en: 'A 30-day diary to record when and how much you drink, your triggers and the alternatives that worked, without judgement and at your own pace.',
      es: 'Un diario de 30 días para registrar cuándo y cuánto bebes, los desencadenantes y las alternativas que funcionaron, sin juicios y a tu ritmo.',
    },
  },
  {
    slug: 'plano-mensal',
    productType: 'subscription',
    category: 'assinaturas',
    pillarSlug: null,
    planInterval: 'monthly',
    trialDays: 0,
    priceCents: 8_990,
    name: { pt: 'Plano mensal', en: 'Monthly plan', es: 'Plan mensual' },
    description: {
      pt: 'Acesso a todos os cursos, materiais e ferramentas de hábitos da Innera, cobrado todo mês. Cancele quando quiser.',
      en: 'Access to every Innera course, material and habit tool, billed every month. Cancel whenever you like.',
      es: 'Acceso a todos los cursos, materiales y herramientas de hábitos de Innera, cobrado cada mes. Cancela cuando quieras.',
    },
  },
  {
    slug: 'plano-anual',
    productType: 'subscription',
    category: 'assinaturas',
    pillarSlug: null,
    planInterval: 'yearly',
    trialDays: 0,
    priceCents: 89_900,
    name: { pt: 'Plano anual', en: 'Yearly plan', es: 'Plan anual' },
    description: {
      pt: 'Tudo o que o plano mensal oferece, por um ano, pelo preço de dez meses: dois meses por nossa conta.',
      en: 'Everything in the monthly plan for a year, at the price of ten months: two months on us.',
      es: 'Todo lo que ofrece el plan mensual durante un año, al precio de diez meses: dos meses de regalo.',
    },
  },
  {
    slug: 'teste-7-dias',
    productType: 'subscription',
    category: 'assinaturas',
    pillarSlug: null,
    planInterval: 'trial',
    trialDays: 7,
    priceCents: 990,
    name: { pt: 'Experimente por 7 dias', en: 'Try it for 7 days', es: 'Pruébalo durante 7 días' },
    description: {
      pt: 'Sete dias de acesso completo aos cursos, materiais e ferramentas de hábitos para conhecer a Innera antes de escolher um plano. Sem renovação automática.',
      en: 'Seven days of full access to courses, materials and habit tools to get to know Innera before choosing a plan. No automatic renewal.',
      es: 'Siete días de acceso completo a cursos, materiales y herramientas de hábitos para conocer Innera antes de elegir un plan. Sin renovación automática.',
    },
  },
]
