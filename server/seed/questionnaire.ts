import type { LocalizedText } from '#server/db/schema.ts'

/**
 * The health assessment (question bank), written for Innera in pt-BR, English and Spanish.
 * Coaching wording, not diagnosis: every item asks about habits or experiences the person can
 * work on. A published version is never edited; a change of wording is a new version.
 */
const CURRENT_QUESTIONNAIRE_VERSION = '2025.1'

/** Five option labels, from value 0 to value 4. */
type Scale = { pt: readonly string[]; en: readonly string[]; es: readonly string[] }

type QuestionSeed = {
  code: string
  pillar: string
  text: LocalizedText
  scale: Scale
  /** True when the higher option is the less healthy one: the item scores 4 - value. */
  reverse?: boolean
}

type QuestionnaireSeed = {
  version: string
  title: LocalizedText
  description: LocalizedText
  estimatedMinutes: number
  questions: QuestionSeed[]
}

const FREQUENCY: Scale = {
  pt: ['Nunca', 'Raramente', 'Às vezes', 'Frequentemente', 'Sempre'],
  en: ['Never', 'Rarely', 'Sometimes', 'Often', 'Always'],
  es: ['Nunca', 'Rara vez', 'A veces', 'A menudo', 'Siempre'],
}

const AGREEMENT: Scale = {
  pt: ['Discordo totalmente', 'Discordo', 'Nem concordo nem discordo', 'Concordo', 'Concordo totalmente'],
  en: ['Strongly disagree', 'Disagree', 'Neither agree nor disagree', 'Agree', 'Strongly agree'],
  es: ['Totalmente en desacuerdo', 'En desacuerdo', 'Ni de acuerdo ni en desacuerdo', 'De acuerdo', 'Totalmente de acuerdo'],
}

const DAYS_A_WEEK: Scale = {
  pt: ['Nenhum dia', '1 a 2 dias', '3 a 4 dias', '5 a 6 dias', 'Todos os dias'],
  en: ['No days', '1 to 2 days', '3 to 4 days', '5 to 6 days', 'Every day'],
  es: ['Ningún día', '1 a 2 días', '3 a 4 días', '5 a 6 días', 'Todos los días'],
}

const NIGHTS_A_WEEK: Scale = {
  pt: ['Nenhuma noite', '1 a 2 noites', '3 a 4 noites', '5 a 6 noites', 'Todas as noites'],
  en: ['No nights', '1 to 2 nights', '3 to 4 nights', '5 to 6 nights', 'Every night'],
  es: ['Ninguna noche', '1 a 2 noches', '3 a 4 noches', '5 a 6 noches', 'Todas las noches'],
}

const STRENGTH_DAYS: Scale = {
  pt: ['Nenhum', '1 dia', '2 dias', '3 dias', '4 dias ou mais'],
  en: ['None', '1 day', '2 days', '3 days', '4 days or more'],
  es: ['Ninguno', '1 día', '2 días', '3 días', '4 días o más'],
}

const SITTING_HOURS: Scale = {
  pt: ['Menos de 4 horas', 'De 4 a 6 horas', 'De 6 a 8 horas', 'De 8 a 10 horas', 'Mais de 10 horas'],
  en: ['Less than 4 hours', '4 to 6 hours', '6 to 8 hours', '8 to 10 hours', 'More than 10 hours'],
  es: ['Menos de 4 horas', 'De 4 a 6 horas', 'De 6 a 8 horas', 'De 8 a 10 horas', 'Más de 10 horas'],
}

const PORTIONS_A_DAY: Scale = {
  pt: ['Nenhuma', '1 porção', '2 porções', '3 a 4 porções', '5 porções ou mais'],
  en: ['None', '1 portion', '2 portions', '3 to 4 portions', '5 portions or more'],
  es: ['Ninguna', '1 porción', '2 porciones', '3 a 4 porciones', '5 porciones o más'],
}

const OCCASIONS: Scale = {
  pt: ['Nunca', 'Menos de uma vez por mês', 'Mensalmente', 'Semanalmente', 'Todos os dias ou quase todos'],
  en: ['Never', 'Less than monthly', 'Monthly', 'Weekly', 'Daily or almost daily'],
  es: ['Nunca', 'Menos de una vez al mes', 'Mensualmente', 'Semanalmente', 'A diario o casi a diario'],
}

const NICOTINE_USE: Scale = {
  pt: ['Não uso', 'Menos de uma vez por semana', 'Algumas vezes por semana', 'Quase todos os dias', 'Todos os dias'],
  en: ["I don't use them", 'Less than once a week', 'A few times a week', 'Almost every day', 'Every day'],
  es: ['No los uso', 'Menos de una vez a la semana', 'Algunas veces a la semana', 'Casi todos los días', 'Todos los días'],
}

export const QUESTIONNAIRE: QuestionnaireSeed = {
  version: CURRENT_QUESTIONNAIRE_VERSION,
  estimatedMinutes: 10,
  title: {
    pt: 'Avaliação de saúde',
    en: 'Health assessment',
    es: 'Evaluación de salud',
  },
  description: {
    pt: 'São 36 perguntas sobre os seus hábitos nos seis pilares, e leva cerca de 10 minutos. Responda pensando nas últimas duas semanas, a não ser que a pergunta diga outro período. Não há respostas certas ou erradas. A avaliação é uma ferramenta de autoconhecimento e de coaching: não é um diagnóstico e não substitui o acompanhamento médico.',
    en: 'There are 36 questions about your habits across the six pillars, and it takes about 10 minutes. Answer with the last two weeks in mind, unless a question names another period. There are no right or wrong answers. The assessment is a tool for self-awareness and coaching: it is not a diagnosis and does not replace medical care.',
    es: 'Son 36 preguntas sobre tus hábitos en los seis pilares y lleva unos 10 minutos. Responde pensando en las últimas dos semanas, salvo que la pregunta indique otro período. No hay respuestas correctas ni incorrectas. La evaluación es una herramienta de autoconocimiento y de coaching: no es un diagnóstico ni sustituye la atención médica.',
  },
  questions: [
    // Stress management
    {
      code: 'estresse_overwhelmed',
      pillar: 'estresse',
      reverse: true,
      scale: FREQUENCY,
      text: {
        pt: 'Com que frequência você se sentiu sobrecarregado(a) pelas suas responsabilidades?',
        en: 'How often have you felt overwhelmed by your responsibilities?',
        es: '¿Con qué frecuencia te has sentido abrumado(a) por tus responsabilidades?',
      },
    },
    {
      code: 'estresse_irritable',
      pillar: 'estresse',
      reverse: true,
      scale: FREQUENCY,
      text: {
        pt: 'Com que frequência você ficou irritado(a) ou impaciente com coisas pequenas?',
        en: 'How often have you felt irritable or impatient over small things?',
        es: '¿Con qué frecuencia te has sentido irritable o impaciente por cosas pequeñas?',
      },
    },
    {
      code: 'estresse_body_tension',
      pillar: 'estresse',
      reverse: true,
      scale: FREQUENCY,
      text: {
        pt: 'Com que frequência você percebeu sinais de tensão no corpo, como ombros rígidos, mandíbula travada ou dor de cabeça?',
        en: 'How often have you noticed signs of tension in your body, such as tight shoulders, a clenched jaw or headaches?',
        es: '¿Con qué frecuencia has notado señales de tensión en el cuerpo, como hombros rígidos, mandíbula apretada o dolor de cabeza?',
      },
    },
    {
      code: 'estresse_calm_down',
      pillar: 'estresse',
      scale: FREQUENCY,
      text: {
        pt: 'Quando algo deixou você tenso(a), com que frequência você conseguiu se acalmar em pouco tempo?',
        en: 'When something has made you tense, how often have you been able to calm down fairly soon?',
        es: 'Cuando algo te ha puesto tenso(a), ¿con qué frecuencia has logrado calmarte en poco tiempo?',
      },
    },
    {
      code: 'estresse_time_for_self',
      pillar: 'estresse',
      scale: FREQUENCY,
      text: {
        pt: 'Com que frequência você reservou um tempo do dia para descansar ou fazer algo de que gosta?',
        en: 'How often have you set aside time in your day to rest or do something you enjoy?',
        es: '¿Con qué frecuencia has reservado un tiempo del día para descansar o hacer algo que disfrutas?',
      },
    },
    {
      code: 'estresse_relaxation_practice',
      pillar: 'estresse',
      scale: DAYS_A_WEEK,
      text: {
        pt: 'Em quantos dias por semana você faz alguma prática de relaxamento, como respiração consciente, meditação, oração ou alongamento?',
        en: 'On how many days a week do you do a relaxation practice, such as mindful breathing, meditation, prayer or stretching?',
        es: '¿Cuántos días a la semana haces alguna práctica de relajación, como respiración consciente, meditación, oración o estiramientos?',
      },
    },

    // Physical activity
    {
      code: 'exercicio_active_days',
      pillar: 'exercicio',
      scale: DAYS_A_WEEK,
      text: {
        pt: 'Em uma semana típica, em quantos dias você faz pelo menos 30 minutos de atividade física moderada, como caminhada rápida, bicicleta ou dança?',
        en: 'In a typical week, on how many days do you do at least 30 minutes of moderate physical activity, such as brisk walking, cycling or dancing?',
        es: 'En una semana típica, ¿cuántos días haces al menos 30 minutos de actividad física moderada, como caminar a paso rápido, andar en bicicleta o bailar?',
      },
    },
    {
      code: 'exercicio_strength',
      pillar: 'exercicio',
      scale: STRENGTH_DAYS,
      text: {
        pt: 'Em quantos dias por semana você faz exercícios de força, como musculação, exercícios com o peso do corpo ou com elásticos?',
        en: 'On how many days a week do you do strength exercises, such as weight training, bodyweight exercises or resistance bands?',
        es: '¿Cuántos días a la semana haces ejercicios de fuerza, como pesas, ejercicios con el peso del cuerpo o con bandas elásticas?',
      },
    },
    {
      code: 'exercicio_sitting',
      pillar: 'exercicio',
      reverse: true,
      scale: SITTING_HOURS,
      text: {
        pt: 'Em um dia típico, quanto tempo você passa sentado(a), somando trabalho, estudo, transporte e telas?',
        en: 'On a typical day, how long do you spend sitting, counting work, study, commuting and screen time?',
        es: 'En un día típico, ¿cuánto tiempo pasas sentado(a), sumando trabajo, estudio, transporte y pantallas?',
      },
    },
    {
      code: 'exercicio_movement_breaks',
      pillar: 'exercicio',
      scale: FREQUENCY,
      text: {
        pt: 'Quando passa muito tempo sentado(a), com que frequência você se levanta para se movimentar pelo menos uma vez por hora?',
        en: 'When you sit for long periods, how often do you get up and move at least once an hour?',
        es: 'Cuando pasas mucho tiempo sentado(a), ¿con qué frecuencia te levantas para moverte al menos una vez por hora?',
      },
    },
    {
      code: 'exercicio_everyday_movement',
      pillar: 'exercicio',
      scale: DAYS_A_WEEK,
      text: {
        pt: 'Em quantos dias por semana você inclui movimento na rotina, como ir a pé ou de bicicleta a algum lugar, subir escadas ou brincar de forma ativa com crianças ou animais?',
        en: 'On how many days a week do you build movement into your routine, such as walking or cycling to get somewhere, taking the stairs or playing actively with children or pets?',
        es: '¿Cuántos días a la semana incluyes movimiento en tu rutina, como ir a pie o en bicicleta a algún lugar, subir escaleras o jugar de forma activa con niños o mascotas?',
      },
    },
    {
      code: 'exercicio_enjoyment',
      pillar: 'exercicio',
      scale: AGREEMENT,
      text: {
        pt: 'Tenho uma atividade física de que gosto e que cabe na minha rotina.',
        en: 'I have a physical activity I enjoy that fits into my routine.',
        es: 'Tengo una actividad física que disfruto y que encaja en mi rutina.',
      },
    },

    // Nutrition
    {
      code: 'alimento_fruit_vegetables',
      pillar: 'alimento',
      scale: PORTIONS_A_DAY,
      text: {
        pt: 'Em um dia típico, quantas porções de frutas, verduras e legumes você come? (Uma porção é, por exemplo, uma fruta média ou meio prato de salada.)',
        en: 'On a typical day, how many portions of fruit and vegetables do you eat? (A portion is, for example, a medium piece of fruit or half a plate of salad.)',
        es: 'En un día típico, ¿cuántas porciones de frutas y verduras comes? (Una porción es, por ejemplo, una fruta mediana o medio plato de ensalada.)',
      },
    },
    {
      code: 'alimento_legumes_whole_grains',
      pillar: 'alimento',
      scale: DAYS_A_WEEK,
      text: {
        pt: 'Em quantos dias por semana você come feijão, lentilha, grão-de-bico ou outras leguminosas, ou grãos integrais como arroz integral e aveia?',
        en: 'On how many days a week do you eat beans, lentils, chickpeas or other legumes, or whole grains such as brown rice and oats?',
        es: '¿Cuántos días a la semana comes frijoles, lentejas, garbanzos u otras legumbres, o cereales integrales como arroz integral y avena?',
      },
    },
    {
      code: 'alimento_ultra_processed',
      pillar: 'alimento',
      reverse: true,
      scale: DAYS_A_WEEK,
      text: {
        pt: 'Em quantos dias por semana você consome alimentos ultraprocessados, como refrigerantes, salgadinhos de pacote, biscoitos recheados, embutidos ou refeições prontas congeladas?',
        en: 'On how many days a week do you have ultra-processed foods, such as soft drinks, packaged snacks, sandwich cookies, processed meats or frozen ready meals?',
        es: '¿Cuántos días a la semana consumes alimentos ultraprocesados, como refrescos, snacks de paquete, galletas rellenas, embutidos o comidas congeladas listas para calentar?',
      },
    },
    {
      code: 'alimento_home_cooked',
      pillar: 'alimento',
      scale: DAYS_A_WEEK,
      text: {
        pt: 'Em quantos dias por semana as suas refeições principais são preparadas em casa ou feitas com ingredientes frescos?',
        en: 'On how many days a week are your main meals cooked at home or made with fresh ingredients?',
        es: '¿Cuántos días a la semana tus comidas principales se preparan en casa o con ingredientes frescos?',
      },
    },
    {
      code: 'alimento_water',
      pillar: 'alimento',
      scale: FREQUENCY,
      text: {
        pt: 'Com que frequência você bebe água ao longo do dia, sem esperar sentir muita sede?',
        en: 'How often do you drink water throughout the day, without waiting until you feel very thirsty?',
        es: '¿Con qué frecuencia bebes agua a lo largo del día, sin esperar a tener mucha sed?',
      },
    },
    {
      code: 'alimento_emotional_eating',
      pillar: 'alimento',
      reverse: true,
      scale: FREQUENCY,
      text: {
        pt: 'Com que frequência você come por ansiedade, tédio ou cansaço, mesmo sem estar com fome?',
        en: "How often do you eat because of anxiety, boredom or tiredness, even when you're not hungry?",
        es: '¿Con qué frecuencia comes por ansiedad, aburrimiento o cansancio, aun sin tener hambre?',
      },
    },

    // Sleep
    {
      code: 'sono_duration',
      pillar: 'sono',
      scale: NIGHTS_A_WEEK,
      text: {
        pt: 'Em quantas noites por semana você dorme entre 7 e 9 horas?',
        en: 'On how many nights a week do you sleep between 7 and 9 hours?',
        es: '¿Cuántas noches a la semana duermes entre 7 y 9 horas?',
      },
    },
    {
      code: 'sono_regular_schedule',
      pillar: 'sono',
      scale: DAYS_A_WEEK,
      text: {
        pt: 'Em quantos dias por semana você vai dormir e acorda em horários parecidos, com no máximo uma hora de diferença?',
        en: 'On how many days a week do you go to bed and get up at about the same times, within an hour?',
        es: '¿Cuántos días a la semana te acuestas y te levantas a horas parecidas, con una hora de diferencia como máximo?',
      },
    },
    {
      code: 'sono_falling_asleep',
      pillar: 'sono',
      reverse: true,
      scale: FREQUENCY,
      text: {
        pt: 'Com que frequência você demorou mais de 30 minutos para pegar no sono?',
        en: 'How often has it taken you more than 30 minutes to fall asleep?',
        es: '¿Con qué frecuencia has tardado más de 30 minutos en conciliar el sueño?',
      },
    },
    {
      code: 'sono_screens_before_bed',
      pillar: 'sono',
      reverse: true,
      scale: FREQUENCY,
      text: {
        pt: 'Com que frequência você usa celular, computador ou TV na última hora antes de dormir?',
        en: 'How often do you use your phone, computer or TV in the last hour before going to sleep?',
        es: '¿Con qué frecuencia usas el celular, la computadora o la televisión en la última hora antes de dormir?',
      },
    },
    {
      code: 'sono_wake_rested',
      pillar: 'sono',
      scale: FREQUENCY,
      text: {
        pt: 'Com que frequência você acordou sentindo-se descansado(a)?',
        en: 'How often have you woken up feeling rested?',
        es: '¿Con qué frecuencia te has despertado sintiéndote descansado(a)?',
      },
    },
    {
      code: 'sono_daytime_sleepiness',
      pillar: 'sono',
      reverse: true,
      scale: FREQUENCY,
      text: {
        pt: 'Com que frequência o sono ou o cansaço atrapalharam as suas atividades durante o dia?',
        en: 'How often has sleepiness or tiredness got in the way of your daytime activities?',
        es: '¿Con qué frecuencia el sueño o el cansancio han interferido en tus actividades durante el día?',
      },
    },

    // Social relationships
    {
      code: 'relacionamentos_support',
      pillar: 'relacionamentos',
      scale: AGREEMENT,
      text: {
        pt: 'Tenho pessoas com quem posso contar quando preciso de ajuda ou apoio.',
        en: 'I have people I can count on when I need help or support.',
        es: 'Tengo personas con las que puedo contar cuando necesito ayuda o apoyo.',
      },
    },
    {
      code: 'relacionamentos_quality_time',
      pillar: 'relacionamentos',
      scale: DAYS_A_WEEK,
      text: {
        pt: 'Em quantos dias por semana você passa um tempo de qualidade com pessoas queridas, pessoalmente ou por chamada?',
        en: 'On how many days a week do you spend quality time with people you care about, in person or on a call?',
        es: '¿Cuántos días a la semana pasas tiempo de calidad con personas queridas, en persona o por llamada?',
      },
    },
    {
      code: 'relacionamentos_loneliness',
      pillar: 'relacionamentos',
      reverse: true,
      scale: FREQUENCY,
      text: {
        pt: 'Com que frequência você se sentiu sozinho(a) ou isolado(a)?',
        en: 'How often have you felt lonely or isolated?',
        es: '¿Con qué frecuencia te has sentido solo(a) o aislado(a)?',
      },
    },
    {
      code: 'relacionamentos_openness',
      pillar: 'relacionamentos',
      scale: AGREEMENT,
      text: {
        pt: 'Eu me sinto à vontade para falar sobre o que sinto com alguém de confiança.',
        en: 'I feel comfortable talking about how I feel with someone I trust.',
        es: 'Me siento cómodo(a) hablando de lo que siento con alguien de confianza.',
      },
    },
    {
      code: 'relacionamentos_belonging',
      pillar: 'relacionamentos',
      scale: AGREEMENT,
      text: {
        pt: 'Eu me sinto parte de um grupo ou comunidade, como amigos, colegas, vizinhança, grupo religioso, esportivo ou de voluntariado.',
        en: 'I feel part of a group or community, such as friends, colleagues, my neighbourhood, or a faith, sports or volunteer group.',
        es: 'Me siento parte de un grupo o comunidad, como amigos, compañeros, el barrio o un grupo religioso, deportivo o de voluntariado.',
      },
    },
    {
      code: 'relacionamentos_strain',
      pillar: 'relacionamentos',
      reverse: true,
      scale: FREQUENCY,
      text: {
        pt: 'Com que frequência as suas relações mais próximas foram fonte de tensão ou desgaste para você?',
        en: 'How often have your closest relationships been a source of tension or strain for you?',
        es: '¿Con qué frecuencia tus relaciones más cercanas han sido una fuente de tensión o desgaste para ti?',
      },
    },

    // Substance control: about use and its effects, never about the person.
    {
      code: 'substancias_alcohol_free_days',
      pillar: 'substancias',
      scale: DAYS_A_WEEK,
      text: {
        pt: 'Em uma semana típica, em quantos dias você não toma nenhuma bebida alcoólica? (Se você não bebe, escolha “Todos os dias”.)',
        en: 'In a typical week, on how many days do you have no alcoholic drinks at all? (If you don’t drink, choose “Every day”.)',
        es: 'En una semana típica, ¿cuántos días no tomas ninguna bebida alcohólica? (Si no bebes, elige “Todos los días”.)',
      },
    },
    {
      code: 'substancias_heavy_drinking',
      pillar: 'substancias',
      reverse: true,
      scale: OCCASIONS,
      text: {
        pt: 'Nos últimos três meses, com que frequência você tomou 5 doses ou mais de bebida alcoólica em uma mesma ocasião? (Uma dose é, por exemplo, uma lata de cerveja, uma taça de vinho ou uma dose de destilado.)',
        en: 'In the last three months, how often have you had 5 or more alcoholic drinks on one occasion? (One drink is, for example, a can of beer, a glass of wine or a shot of spirits.)',
        es: 'En los últimos tres meses, ¿con qué frecuencia has tomado 5 o más tragos de bebida alcohólica en una misma ocasión? (Un trago es, por ejemplo, una lata de cerveza, una copa de vino o una medida de licor destilado.)',
      },
    },
    {
      code: 'substancias_nicotine',
      pillar: 'substancias',
      reverse: true,
      scale: NICOTINE_USE,
      text: {
        pt: 'Com que frequência você fuma ou usa produtos com nicotina, como cigarro, cigarro eletrônico (vape), narguilé ou charuto?',
        en: 'How often do you smoke or use nicotine products, such as cigarettes, e-cigarettes (vapes), hookah or cigars?',
        es: '¿Con qué frecuencia fumas o usas productos con nicotina, como cigarrillos, cigarrillos electrónicos (vapeadores), narguile o puros?',
      },
    },
    {
      code: 'substancias_other_substances',
      pillar: 'substancias',
      reverse: true,
      scale: OCCASIONS,
      text: {
        pt: 'Nos últimos três meses, com que frequência você usou outras substâncias, como maconha ou outras drogas, ou remédios para dormir, calmantes ou estimulantes sem prescrição?',
        en: 'In the last three months, how often have you used other substances, such as cannabis or other drugs, or sleeping pills, tranquillisers or stimulants without a prescription?',
        es: 'En los últimos tres meses, ¿con qué frecuencia has usado otras sustancias, como marihuana u otras drogas, o pastillas para dormir, tranquilizantes o estimulantes sin receta?',
      },
    },
    {
      code: 'substancias_coping',
      pillar: 'substancias',
      reverse: true,
      scale: FREQUENCY,
      text: {
        pt: 'Com que frequência você recorre ao álcool, ao cigarro ou a outras substâncias para lidar com o estresse, a tristeza ou o tédio?',
        en: 'How often do you turn to alcohol, tobacco or other substances to cope with stress, sadness or boredom?',
        es: '¿Con qué frecuencia recurres al alcohol, al tabaco o a otras sustancias para lidiar con el estrés, la tristeza o el aburrimiento?',
      },
    },
    {
      code: 'substancias_impact',
      pillar: 'substancias',
      reverse: true,
      scale: FREQUENCY,
      text: {
        pt: 'Com que frequência o uso de álcool, tabaco ou outras substâncias afetou o seu sono, o seu trabalho, as suas relações ou o seu bem-estar?',
        en: 'How often has your use of alcohol, tobacco or other substances affected your sleep, your work, your relationships or your wellbeing?',
        es: '¿Con qué frecuencia el consumo de alcohol, tabaco u otras sustancias ha afectado tu sueño, tu trabajo, tus relaciones o tu bienestar?',
      },
    },
  ],
}

/** The stored options of a question: values 0-4, each labelled in the three languages. */
export function optionsOf(scale: Scale) {
  return [0, 1, 2, 3, 4].map((value) => ({ value, label: { pt: scale.pt[value]!, en: scale.en[value]!, es: scale.es[value]! } }))
}
