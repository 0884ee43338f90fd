import type { LocalizedText } from '#server/db/schema.ts'

/**
 * The courses' own text (decision 0057): four courses, one per pillar that has one, three short
 * lessons each. `scripts/make-lessons.mjs` turns every lesson into a narrated video (the slides'
 * Portuguese text is the narration; English and Spanish are its captions), and the seed reads the
 * titles and summaries from here. Change a slide's text, then run `node scripts/make-lessons.mjs`.
 * No I/O here: plain data.
 */

/** One slide: `text` is one or two short sentences, the narration in `pt` and its translations. */
type SlideContent = { heading: LocalizedText; text: LocalizedText }

type LessonContent = { slug: string; title: LocalizedText; summary: LocalizedText; free: boolean; slides: SlideContent[] }

/** `productSlug` is the catalogue's course product (server/seed/data.ts), or null for a free course. */
type CourseContent = { slug: string; pillarSlug: string; productSlug: string | null; title: LocalizedText; description: LocalizedText; lessons: LessonContent[] }

export const COURSES: CourseContent[] = [
  {
    slug: 'sono-reparador',
    pillarSlug: 'sono',
    productSlug: 'curso-sono-reparador',
    title: { pt: 'Sono reparador', en: 'Restful sleep', es: 'Sueño reparador' },
    description: {
      pt: 'Como funciona o relógio biológico, que rotina ajuda a adormecer e o que fazer com a cafeína e as telas para dormir melhor, com passos práticos para começar hoje à noite.',
      en: 'How your body clock works, which routine helps you fall asleep and what to do about caffeine and screens to sleep better, with practical steps to start tonight.',
      es: 'Cómo funciona el reloj biológico, qué rutina ayuda a conciliar el sueño y qué hacer con la cafeína y las pantallas para dormir mejor, con pasos prácticos para empezar esta noche.',
    },
    lessons: [
      {
        slug: 'sono-reparador-1-ritmo-circadiano',
        free: true,
        title: { pt: 'O relógio biológico', en: 'Your body clock', es: 'El reloj biológico' },
        summary: {
          pt: 'O ritmo circadiano organiza o sono ao longo das 24 horas: a luz da manhã e horários regulares ajudam a acertá-lo.',
          en: 'The circadian rhythm organises sleep across the 24 hours: morning light and regular hours help to set it.',
          es: 'El ritmo circadiano organiza el sueño a lo largo de las 24 horas: la luz de la mañana y los horarios regulares ayudan a ajustarlo.',
        },
        slides: [
          {
            heading: { pt: 'Um relógio de 24 horas', en: 'A 24-hour clock', es: 'Un reloj de 24 horas' },
            text: {
              pt: 'O corpo tem um relógio interno que organiza o sono, a fome e a disposição em ciclos de cerca de 24 horas.',
              en: 'Your body has an internal clock that organises sleep, hunger and energy in cycles of about 24 hours.',
              es: 'El cuerpo tiene un reloj interno que organiza el sueño, el hambre y la energía en ciclos de unas 24 horas.',
            },
          },
          {
            heading: { pt: 'A luz acerta o relógio', en: 'Light sets the clock', es: 'La luz ajusta el reloj' },
            text: {
              pt: 'A luz natural da manhã é o sinal mais forte para acertá-lo. Procure ficar alguns minutos ao ar livre logo cedo.',
              en: 'Natural morning light is the strongest signal to set it. Try to spend a few minutes outdoors early in the day.',
              es: 'La luz natural de la mañana es la señal más fuerte para ajustarlo. Intenta pasar unos minutos al aire libre temprano.',
            },
          },
          {
            heading: { pt: 'Horários regulares', en: 'Regular hours', es: 'Horarios regulares' },
            text: {
              pt: 'Acordar no mesmo horário todos os dias, inclusive no fim de semana, estabiliza o relógio e facilita o sono à noite.',
              en: 'Waking up at the same time every day, weekends included, steadies the clock and makes it easier to sleep at night.',
              es: 'Despertarse a la misma hora todos los días, también el fin de semana, estabiliza el reloj y facilita el sueño por la noche.',
            },
          },
          {
            heading: { pt: 'Quanto dormir', en: 'How much to sleep', es: 'Cuánto dormir' },
            text: {
              pt: 'A maioria dos adultos precisa de sete a nove horas de sono por noite. A regularidade importa tanto quanto a quantidade.',
              en: 'Most adults need seven to nine hours of sleep a night. Regularity matters as much as quantity.',
              es: 'La mayoría de los adultos necesita de siete a nueve horas de sueño por noche. La regularidad importa tanto como la cantidad.',
            },
          },
        ],
      },
      {
        slug: 'sono-reparador-2-rotina-antes-de-deitar',
        free: false,
        title: { pt: 'A rotina antes de deitar', en: 'The bedtime routine', es: 'La rutina antes de dormir' },
        summary: {
          pt: 'Desacelerar antes de deitar, preparar o quarto e saber o que fazer quando o sono não vem.',
          en: 'Winding down before bed, preparing the bedroom and knowing what to do when sleep does not come.',
          es: 'Bajar el ritmo antes de acostarse, preparar el dormitorio y saber qué hacer cuando el sueño no llega.',
        },
        slides: [
          {
            heading: { pt: 'Desacelerar', en: 'Wind down', es: 'Bajar el ritmo' },
            text: {
              pt: 'Reserve de 30 a 60 minutos antes de deitar para desacelerar: luz baixa, banho morno ou uma leitura leve.',
              en: 'Set aside 30 to 60 minutes before bed to wind down: dim lights, a warm shower or some light reading.',
              es: 'Reserva de 30 a 60 minutos antes de acostarte para bajar el ritmo: luz tenue, una ducha tibia o una lectura ligera.',
            },
          },
          {
            heading: { pt: 'Um quarto para dormir', en: 'A room for sleeping', es: 'Un cuarto para dormir' },
            text: {
              pt: 'Um quarto escuro, silencioso e fresco ajuda a manter o sono. Use a cama para dormir, não para trabalhar.',
              en: 'A dark, quiet and cool room helps you stay asleep. Use the bed for sleeping, not for working.',
              es: 'Un cuarto oscuro, silencioso y fresco ayuda a mantener el sueño. Usa la cama para dormir, no para trabajar.',
            },
          },
          {
            heading: { pt: 'Sem sono? Levante', en: 'Not sleepy? Get up', es: '¿Sin sueño? Levántate' },
            text: {
              pt: 'Se não adormecer em cerca de 20 minutos, saia da cama e faça algo calmo, com pouca luz. Volte quando sentir sono.',
              en: 'If you have not fallen asleep in about 20 minutes, get up and do something calm in dim light. Go back when you feel sleepy.',
              es: 'Si no te duermes en unos 20 minutos, levántate y haz algo tranquilo con poca luz. Vuelve cuando tengas sueño.',
            },
          },
          {
            heading: { pt: 'Jantar e álcool', en: 'Dinner and alcohol', es: 'Cena y alcohol' },
            text: {
              pt: 'Evite refeições pesadas perto da hora de deitar. O álcool dá sono, mas deixa o sono mais leve e interrompido.',
              en: 'Avoid heavy meals close to bedtime. Alcohol makes you drowsy, but it leaves sleep lighter and broken.',
              es: 'Evita las comidas pesadas cerca de la hora de dormir. El alcohol da sueño, pero lo vuelve más ligero e interrumpido.',
            },
          },
        ],
      },
      {
        slug: 'sono-reparador-3-cafeina-e-telas',
        free: false,
        title: { pt: 'Cafeína, telas e sono', en: 'Caffeine, screens and sleep', es: 'Cafeína, pantallas y sueño' },
        summary: {
          pt: 'Até que horas tomar café, como as telas atrapalham o sono e quando vale a pena procurar ajuda.',
          en: 'How late to have coffee, how screens get in the way of sleep and when it is worth seeking help.',
          es: 'Hasta qué hora tomar café, cómo las pantallas dificultan el sueño y cuándo vale la pena buscar ayuda.',
        },
        slides: [
          {
            heading: { pt: 'A cafeína dura horas', en: 'Caffeine lasts for hours', es: 'La cafeína dura horas' },
            text: {
              pt: 'O efeito da cafeína demora a passar: cerca de metade dela ainda está no corpo cinco horas depois do café.',
              en: 'The effect of caffeine takes a while to wear off: about half of it is still in your body five hours after the coffee.',
              es: 'El efecto de la cafeína tarda en pasar: cerca de la mitad sigue en el cuerpo cinco horas después del café.',
            },
          },
          {
            heading: { pt: 'O último café', en: 'The last coffee', es: 'El último café' },
            text: {
              pt: 'Evite café, chá preto, mate, energéticos e refrigerantes de cola nas seis horas antes de deitar.',
              en: 'Avoid coffee, black tea, mate, energy drinks and colas in the six hours before bed.',
              es: 'Evita el café, el té negro, el mate, las bebidas energéticas y los refrescos de cola en las seis horas antes de acostarte.',
            },
          },
          {
            heading: { pt: 'Telas à noite', en: 'Screens at night', es: 'Pantallas de noche' },
            text: {
              pt: 'Mensagens e vídeos mantêm a mente alerta, e a luz forte à noite atrasa o relógio. Deixe o celular longe da cama.',
              en: 'Messages and videos keep the mind alert, and bright light at night delays the clock. Keep your phone away from the bed.',
              es: 'Los mensajes y los vídeos mantienen la mente alerta, y la luz fuerte por la noche retrasa el reloj. Deja el móvil lejos de la cama.',
            },
          },
          {
            heading: { pt: 'Quando procurar ajuda', en: 'When to seek help', es: 'Cuándo buscar ayuda' },
            text: {
              pt: 'Se a insônia dura mais de três meses, ou se há ronco alto com pausas na respiração, procure um profissional de saúde.',
              en: 'If insomnia lasts more than three months, or there is loud snoring with pauses in breathing, see a health professional.',
              es: 'Si el insomnio dura más de tres meses, o hay ronquidos fuertes con pausas en la respiración, consulta a un profesional de salud.',
            },
          },
        ],
      },
    ],
  },
  {
    slug: 'estresse-sob-controle',
    pillarSlug: 'estresse',
    productSlug: 'curso-estresse-sob-controle',
    title: { pt: 'Estresse sob controle', en: 'Stress under control', es: 'Estrés bajo control' },
    description: {
      pt: 'Reconheça os sinais do estresse no corpo e na mente e responda a eles com respiração lenta, pausas ao longo do dia e limites mais saudáveis no trabalho.',
      en: 'Recognise the signs of stress in your body and mind, and answer them with slow breathing, pauses through the day and healthier boundaries at work.',
      es: 'Reconoce las señales del estrés en el cuerpo y en la mente, y responde a ellas con respiración lenta, pausas a lo largo del día y límites más saludables en el trabajo.',
    },
    lessons: [
      {
        slug: 'estresse-sob-controle-1-sinais-do-estresse',
        free: true,
        title: { pt: 'Os sinais do estresse', en: 'The signs of stress', es: 'Las señales del estrés' },
        summary: {
          pt: 'O que é o estresse, quando ele deixa de ajudar e como reconhecer os seus próprios sinais.',
          en: 'What stress is, when it stops helping and how to recognise your own signs.',
          es: 'Qué es el estrés, cuándo deja de ayudar y cómo reconocer tus propias señales.',
        },
        slides: [
          {
            heading: { pt: 'Uma resposta útil', en: 'A useful response', es: 'Una respuesta útil' },
            text: {
              pt: 'O estresse é a resposta do corpo a um desafio: o coração acelera e a atenção aumenta. Por pouco tempo, ele ajuda.',
              en: 'Stress is the body’s response to a challenge: the heart speeds up and attention sharpens. For a short while, it helps.',
              es: 'El estrés es la respuesta del cuerpo a un desafío: el corazón se acelera y la atención aumenta. Por poco tiempo, ayuda.',
            },
          },
          {
            heading: { pt: 'Quando não desliga', en: 'When it does not switch off', es: 'Cuando no se apaga' },
            text: {
              pt: 'O problema é quando ele não desliga. O estresse prolongado afeta o sono, o humor, a digestão e a pressão arterial.',
              en: 'The trouble is when it does not switch off. Long-lasting stress affects sleep, mood, digestion and blood pressure.',
              es: 'El problema es cuando no se apaga. El estrés prolongado afecta el sueño, el ánimo, la digestión y la presión arterial.',
            },
          },
          {
            heading: { pt: 'Os seus sinais', en: 'Your signs', es: 'Tus señales' },
            text: {
              pt: 'Repare nos seus sinais: ombros tensos, mandíbula travada, irritação, cansaço ou dificuldade de concentração.',
              en: 'Notice your signs: tense shoulders, a clenched jaw, irritability, tiredness or trouble concentrating.',
              es: 'Fíjate en tus señales: hombros tensos, mandíbula apretada, irritación, cansancio o dificultad para concentrarte.',
            },
          },
          {
            heading: { pt: 'Dar nome ajuda', en: 'Naming it helps', es: 'Ponerle nombre ayuda' },
            text: {
              pt: 'Perceber e dar nome ao que sente é o primeiro passo para responder com calma, em vez de apenas reagir.',
              en: 'Noticing and naming what you feel is the first step to responding calmly, instead of just reacting.',
              es: 'Darte cuenta de lo que sientes y ponerle nombre es el primer paso para responder con calma, en lugar de solo reaccionar.',
            },
          },
        ],
      },
      {
        slug: 'estresse-sob-controle-2-respiracao',
        free: false,
        title: { pt: 'A respiração como freio', en: 'Breathing as a brake', es: 'La respiración como freno' },
        summary: {
          pt: 'Uma técnica de respiração lenta, de três a cinco minutos, para baixar a tensão em qualquer lugar.',
          en: 'A slow-breathing technique, three to five minutes long, to ease tension anywhere.',
          es: 'Una técnica de respiración lenta, de tres a cinco minutos, para bajar la tensión en cualquier lugar.',
        },
        slides: [
          {
            heading: { pt: 'Um freio ao seu alcance', en: 'A brake within reach', es: 'Un freno a tu alcance' },
            text: {
              pt: 'Respirar devagar ativa o sistema nervoso parassimpático, o freio natural do corpo, e ajuda a baixar a tensão.',
              en: 'Breathing slowly activates the parasympathetic nervous system, the body’s natural brake, and helps ease tension.',
              es: 'Respirar despacio activa el sistema nervioso parasimpático, el freno natural del cuerpo, y ayuda a bajar la tensión.',
            },
          },
          {
            heading: { pt: 'Quatro para dentro, seis para fora', en: 'Four in, six out', es: 'Cuatro adentro, seis afuera' },
            text: {
              pt: 'Inspire pelo nariz contando até quatro e solte o ar devagar contando até seis. A expiração mais longa acalma.',
              en: 'Breathe in through your nose counting to four, and let the air out slowly counting to six. The longer out-breath calms.',
              es: 'Inspira por la nariz contando hasta cuatro y suelta el aire despacio contando hasta seis. La espiración más larga calma.',
            },
          },
          {
            heading: { pt: 'Três a cinco minutos', en: 'Three to five minutes', es: 'De tres a cinco minutos' },
            text: {
              pt: 'São cerca de seis respirações por minuto. Faça por três a cinco minutos, sentado ou deitado, com os ombros soltos.',
              en: 'That is about six breaths a minute. Keep it up for three to five minutes, sitting or lying down, with relaxed shoulders.',
              es: 'Son unas seis respiraciones por minuto. Hazlo de tres a cinco minutos, sentado o acostado, con los hombros sueltos.',
            },
          },
          {
            heading: { pt: 'Na sua rotina', en: 'In your routine', es: 'En tu rutina' },
            text: {
              pt: 'Associe a prática a momentos fixos: antes de uma reunião, no trânsito parado ou antes de dormir.',
              en: 'Tie the practice to set moments: before a meeting, in a traffic jam or before going to sleep.',
              es: 'Asocia la práctica a momentos fijos: antes de una reunión, en un atasco o antes de dormir.',
            },
          },
        ],
      },
      {
        slug: 'estresse-sob-controle-3-pausas-e-limites',
        free: false,
        title: { pt: 'Pausas e limites no dia a dia', en: 'Pauses and boundaries every day', es: 'Pausas y límites en el día a día' },
        summary: {
          pt: 'Pausas curtas, uma tarefa de cada vez e limites claros no trabalho, e quando procurar ajuda.',
          en: 'Short pauses, one task at a time and clear boundaries at work, and when to seek help.',
          es: 'Pausas cortas, una tarea a la vez y límites claros en el trabajo, y cuándo buscar ayuda.',
        },
        slides: [
          {
            heading: { pt: 'Pausas curtas', en: 'Short pauses', es: 'Pausas cortas' },
            text: {
              pt: 'Pausas curtas ao longo do dia recuperam a energia e a atenção. Levante, alongue o corpo e olhe para longe.',
              en: 'Short pauses through the day restore energy and attention. Stand up, stretch and look into the distance.',
              es: 'Las pausas cortas a lo largo del día recuperan la energía y la atención. Levántate, estírate y mira a lo lejos.',
            },
          },
          {
            heading: { pt: 'Uma coisa de cada vez', en: 'One thing at a time', es: 'Una cosa a la vez' },
            text: {
              pt: 'Pular de tarefa em tarefa cansa. Reserve blocos de tempo para o que importa e silencie as notificações.',
              en: 'Jumping from task to task is tiring. Set aside blocks of time for what matters and silence notifications.',
              es: 'Saltar de tarea en tarea cansa. Reserva bloques de tiempo para lo que importa y silencia las notificaciones.',
            },
          },
          {
            heading: { pt: 'Limites saudáveis', en: 'Healthy boundaries', es: 'Límites saludables' },
            text: {
              pt: 'Dizer não a algumas demandas é dizer sim à sua saúde. Combine horários para responder às mensagens de trabalho.',
              en: 'Saying no to some demands is saying yes to your health. Agree on set times to answer work messages.',
              es: 'Decir que no a algunas demandas es decir que sí a tu salud. Acuerda horarios para responder los mensajes de trabajo.',
            },
          },
          {
            heading: { pt: 'Peça ajuda', en: 'Ask for help', es: 'Pide ayuda' },
            text: {
              pt: 'Se o estresse tira o seu sono ou a vontade de fazer as coisas por semanas, converse com um profissional de saúde.',
              en: 'If stress takes away your sleep or your wish to do things for weeks, talk to a health professional.',
              es: 'Si el estrés te quita el sueño o las ganas de hacer las cosas durante semanas, habla con un profesional de salud.',
            },
          },
        ],
      },
    ],
  },
  {
    slug: 'comida-de-verdade',
    pillarSlug: 'alimento',
    productSlug: 'curso-comida-de-verdade',
    title: { pt: 'Comida de verdade no dia a dia', en: 'Real food every day', es: 'Comida real en el día a día' },
    description: {
      pt: 'O que o Guia Alimentar para a População Brasileira recomenda, como montar um prato equilibrado com arroz, feijão, legumes e frutas, ler rótulos e comer bem gastando menos.',
      en: 'What the Dietary Guidelines for the Brazilian Population recommend, how to put together a balanced plate with rice, beans, vegetables and fruit, read labels and eat well for less.',
      es: 'Lo que recomienda la Guía Alimentaria para la Población Brasileña, cómo armar un plato equilibrado con arroz, frijoles, verduras y frutas, leer etiquetas y comer bien gastando menos.',
    },
    lessons: [
      {
        slug: 'comida-de-verdade-1-o-que-e-comida-de-verdade',
        free: true,
        title: { pt: 'O que é comida de verdade', en: 'What real food is', es: 'Qué es la comida real' },
        summary: {
          pt: 'Alimentos in natura, minimamente processados e ultraprocessados, e a regra de ouro do Guia Alimentar.',
          en: 'Fresh, minimally processed and ultra-processed foods, and the golden rule of the Dietary Guidelines.',
          es: 'Alimentos naturales, mínimamente procesados y ultraprocesados, y la regla de oro de la Guía Alimentaria.',
        },
        slides: [
          {
            heading: { pt: 'A base da alimentação', en: 'The basis of your diet', es: 'La base de la alimentación' },
            text: {
              pt: 'O Guia Alimentar para a População Brasileira recomenda basear a alimentação em alimentos in natura ou minimamente processados.',
              en: 'The Dietary Guidelines for the Brazilian Population recommend basing your diet on fresh or minimally processed foods.',
              es: 'La Guía Alimentaria para la Población Brasileña recomienda basar la alimentación en alimentos naturales o mínimamente procesados.',
            },
          },
          {
            heading: { pt: 'Comida conhecida', en: 'Familiar food', es: 'Comida conocida' },
            text: {
              pt: 'Feijão, arroz, legumes, verduras, frutas, ovos, leite, carnes e peixes: a comida de sempre das famílias brasileiras.',
              en: 'Beans, rice, vegetables, greens, fruit, eggs, milk, meat and fish: the everyday food of Brazilian families.',
              es: 'Frijoles, arroz, verduras, hortalizas, frutas, huevos, leche, carnes y pescados: la comida de siempre de las familias brasileñas.',
            },
          },
          {
            heading: { pt: 'Os ultraprocessados', en: 'Ultra-processed foods', es: 'Los ultraprocesados' },
            text: {
              pt: 'Refrigerantes, salgadinhos e biscoitos recheados são ultraprocessados, ligados a mais obesidade, diabetes e doenças do coração.',
              en: 'Soft drinks, crisps and filled biscuits are ultra-processed, linked to more obesity, diabetes and heart disease.',
              es: 'Los refrescos, los snacks y las galletas rellenas son ultraprocesados, ligados a más obesidad, diabetes y enfermedades del corazón.',
            },
          },
          {
            heading: { pt: 'A regra de ouro', en: 'The golden rule', es: 'La regla de oro' },
            text: {
              pt: 'A regra de ouro: prefira sempre alimentos in natura e comida feita na hora aos ultraprocessados.',
              en: 'The golden rule: always prefer fresh foods and freshly made meals to ultra-processed products.',
              es: 'La regla de oro: prefiere siempre los alimentos naturales y la comida hecha en el momento a los ultraprocesados.',
            },
          },
        ],
      },
      {
        slug: 'comida-de-verdade-2-prato-equilibrado',
        free: false,
        title: { pt: 'Um prato equilibrado', en: 'A balanced plate', es: 'Un plato equilibrado' },
        summary: {
          pt: 'Metade do prato com legumes e verduras, um quarto de arroz ou tubérculos, um quarto de feijão e proteínas, e fruta de sobremesa.',
          en: 'Half the plate vegetables, a quarter rice or root vegetables, a quarter beans and protein, and fruit for dessert.',
          es: 'La mitad del plato con verduras, un cuarto de arroz o tubérculos, un cuarto de frijoles y proteínas, y fruta de postre.',
        },
        slides: [
          {
            heading: { pt: 'Metade de vegetais', en: 'Half vegetables', es: 'La mitad, verduras' },
            text: {
              pt: 'Encha metade do prato com legumes e verduras, crus e cozidos, de cores variadas.',
              en: 'Fill half the plate with vegetables and greens, raw and cooked, in a variety of colours.',
              es: 'Llena la mitad del plato con verduras y hortalizas, crudas y cocidas, de colores variados.',
            },
          },
          {
            heading: { pt: 'Um quarto de cereais', en: 'A quarter grains', es: 'Un cuarto de cereales' },
            text: {
              pt: 'Um quarto do prato fica para arroz, mandioca, batata ou milho, de preferência integrais.',
              en: 'A quarter of the plate is for rice, cassava, potato or corn, preferably wholegrain.',
              es: 'Un cuarto del plato es para arroz, yuca, papa o maíz, de preferencia integrales.',
            },
          },
          {
            heading: { pt: 'Feijão e proteínas', en: 'Beans and protein', es: 'Frijoles y proteínas' },
            text: {
              pt: 'O outro quarto é do feijão, da lentilha ou do grão-de-bico, com ovos, peixe, frango ou carne. Arroz com feijão é uma ótima dupla.',
              en: 'The other quarter goes to beans, lentils or chickpeas, with eggs, fish, chicken or meat. Rice and beans are a great pair.',
              es: 'El otro cuarto es para los frijoles, las lentejas o los garbanzos, con huevos, pescado, pollo o carne. Arroz con frijoles es una gran pareja.',
            },
          },
          {
            heading: { pt: 'Água e fruta', en: 'Water and fruit', es: 'Agua y fruta' },
            text: {
              pt: 'Água para beber e fruta inteira na sobremesa. O suco, mesmo natural, não substitui a fruta.',
              en: 'Water to drink and whole fruit for dessert. Juice, even fresh juice, does not replace the fruit.',
              es: 'Agua para beber y fruta entera de postre. El jugo, aunque sea natural, no sustituye a la fruta.',
            },
          },
        ],
      },
      {
        slug: 'comida-de-verdade-3-rotulos-e-cozinha',
        free: false,
        title: { pt: 'Rótulos, cozinha e orçamento', en: 'Labels, cooking and budget', es: 'Etiquetas, cocina y presupuesto' },
        summary: {
          pt: 'Ler a lista de ingredientes e a lupa da embalagem, cozinhar mais em casa e comer bem gastando menos.',
          en: 'Reading the ingredient list and the magnifying-glass label, cooking more at home and eating well for less.',
          es: 'Leer la lista de ingredientes y la lupa del envase, cocinar más en casa y comer bien gastando menos.',
        },
        slides: [
          {
            heading: { pt: 'A lista de ingredientes', en: 'The ingredient list', es: 'La lista de ingredientes' },
            text: {
              pt: 'O primeiro ingrediente da lista é o que o produto tem em maior quantidade. Muitos nomes estranhos indicam um ultraprocessado.',
              en: 'The first ingredient on the list is the one the product contains most of. Many strange names point to an ultra-processed food.',
              es: 'El primer ingrediente de la lista es el que el producto tiene en mayor cantidad. Muchos nombres extraños indican un ultraprocesado.',
            },
          },
          {
            heading: { pt: 'A lupa na embalagem', en: 'The magnifying glass', es: 'La lupa en el envase' },
            text: {
              pt: 'A lupa na frente da embalagem avisa quando o produto é alto em açúcar adicionado, gordura saturada ou sódio.',
              en: 'The magnifying glass on the front of the pack warns when a product is high in added sugar, saturated fat or sodium.',
              es: 'La lupa en el frente del envase avisa cuando el producto es alto en azúcar añadido, grasa saturada o sodio.',
            },
          },
          {
            heading: { pt: 'Cozinhar em casa', en: 'Cooking at home', es: 'Cocinar en casa' },
            text: {
              pt: 'Cozinhar em casa dá controle sobre o que você come. Planeje a semana e prepare porções para congelar.',
              en: 'Cooking at home gives you control over what you eat. Plan the week and make portions to freeze.',
              es: 'Cocinar en casa te da control sobre lo que comes. Planifica la semana y prepara porciones para congelar.',
            },
          },
          {
            heading: { pt: 'Comer bem gastando menos', en: 'Eating well for less', es: 'Comer bien gastando menos' },
            text: {
              pt: 'Frutas e legumes da estação, comprados na feira, costumam ser mais baratos e saborosos. Arroz e feijão rendem muito.',
              en: 'Seasonal fruit and vegetables from the street market tend to be cheaper and tastier. Rice and beans go a long way.',
              es: 'Las frutas y verduras de temporada, compradas en el mercado, suelen ser más baratas y sabrosas. El arroz y los frijoles rinden mucho.',
            },
          },
        ],
      },
    ],
  },
  {
    slug: 'movimento-no-dia-a-dia',
    pillarSlug: 'exercicio',
    productSlug: null,
    title: { pt: 'Movimento no dia a dia', en: 'Movement every day', es: 'Movimiento en el día a día' },
    description: {
      pt: 'Quanto se mexer por semana, como passar menos tempo sentado e como fortalecer os músculos em casa, sem equipamento, seguindo as recomendações da Organização Mundial da Saúde.',
      en: 'How much to move each week, how to spend less time sitting and how to strengthen your muscles at home without equipment, following the World Health Organization’s recommendations.',
      es: 'Cuánto moverse por semana, cómo pasar menos tiempo sentado y cómo fortalecer los músculos en casa, sin equipo, siguiendo las recomendaciones de la Organización Mundial de la Salud.',
    },
    lessons: [
      {
        slug: 'movimento-no-dia-a-dia-1-quanto-se-mexer',
        free: false,
        title: { pt: 'Quanto se mexer por semana', en: 'How much to move each week', es: 'Cuánto moverse por semana' },
        summary: {
          pt: 'As recomendações da Organização Mundial da Saúde para adultos: atividade moderada, fortalecimento muscular e começar aos poucos.',
          en: 'The World Health Organization’s recommendations for adults: moderate activity, muscle strengthening and starting small.',
          es: 'Las recomendaciones de la Organización Mundial de la Salud para adultos: actividad moderada, fortalecimiento muscular y empezar poco a poco.',
        },
        slides: [
          {
            heading: { pt: 'A recomendação', en: 'The recommendation', es: 'La recomendación' },
            text: {
              pt: 'A Organização Mundial da Saúde recomenda aos adultos de 150 a 300 minutos de atividade moderada por semana.',
              en: 'The World Health Organization recommends that adults get 150 to 300 minutes of moderate activity a week.',
              es: 'La Organización Mundial de la Salud recomienda a los adultos de 150 a 300 minutos de actividad moderada por semana.',
            },
          },
          {
            heading: { pt: 'O que é moderado', en: 'What moderate means', es: 'Qué es moderado' },
            text: {
              pt: 'Moderado é o esforço em que você consegue conversar, mas não cantar: caminhada rápida, dança ou bicicleta.',
              en: 'Moderate is the effort at which you can talk but not sing: a brisk walk, dancing or cycling.',
              es: 'Moderado es el esfuerzo en el que puedes conversar, pero no cantar: caminar rápido, bailar o andar en bicicleta.',
            },
          },
          {
            heading: { pt: 'Músculos também', en: 'Muscles too', es: 'Músculos también' },
            text: {
              pt: 'Inclua exercícios de fortalecimento muscular em pelo menos dois dias da semana.',
              en: 'Include muscle-strengthening exercises on at least two days a week.',
              es: 'Incluye ejercicios de fortalecimiento muscular al menos dos días por semana.',
            },
          },
          {
            heading: { pt: 'Todo movimento conta', en: 'Every move counts', es: 'Todo movimiento cuenta' },
            text: {
              pt: 'Um pouco é melhor do que nada. Se você está parado, comece com dez minutos e aumente aos poucos.',
              en: 'A little is better than nothing. If you are inactive, start with ten minutes and build up gradually.',
              es: 'Un poco es mejor que nada. Si estás inactivo, empieza con diez minutos y aumenta poco a poco.',
            },
          },
        ],
      },
      {
        slug: 'movimento-no-dia-a-dia-2-menos-tempo-sentado',
        free: false,
        title: { pt: 'Menos tempo sentado', en: 'Less time sitting', es: 'Menos tiempo sentado' },
        summary: {
          pt: 'Por que interromper o tempo sentado faz diferença e como colocar mais movimento na rotina.',
          en: 'Why breaking up sitting time makes a difference and how to fit more movement into your routine.',
          es: 'Por qué interrumpir el tiempo sentado marca la diferencia y cómo sumar más movimiento a la rutina.',
        },
        slides: [
          {
            heading: { pt: 'Horas sentado', en: 'Hours of sitting', es: 'Horas sentado' },
            text: {
              pt: 'Passar muitas horas sentado está ligado a mais doenças do coração e diabetes. Interromper esse tempo faz diferença.',
              en: 'Spending many hours sitting is linked to more heart disease and diabetes. Breaking up that time makes a difference.',
              es: 'Pasar muchas horas sentado está ligado a más enfermedades del corazón y diabetes. Interrumpir ese tiempo marca la diferencia.',
            },
          },
          {
            heading: { pt: 'Levante de vez em quando', en: 'Get up now and then', es: 'Levántate de vez en cuando' },
            text: {
              pt: 'A cada meia hora ou uma hora sentado, levante por alguns minutos: beba água, alongue o corpo, caminhe um pouco.',
              en: 'Every half hour to an hour of sitting, get up for a few minutes: drink some water, stretch, walk a little.',
              es: 'Cada media hora o una hora sentado, levántate unos minutos: bebe agua, estira el cuerpo, camina un poco.',
            },
          },
          {
            heading: { pt: 'Movimento embutido', en: 'Built-in movement', es: 'Movimiento incorporado' },
            text: {
              pt: 'Use a escada, desça um ponto antes, caminhe enquanto fala ao telefone. Pequenas escolhas somam minutos.',
              en: 'Take the stairs, get off one stop early, walk while you talk on the phone. Small choices add up to minutes.',
              es: 'Usa la escalera, bájate una parada antes, camina mientras hablas por teléfono. Las pequeñas decisiones suman minutos.',
            },
          },
        ],
      },
      {
        slug: 'movimento-no-dia-a-dia-3-forca-em-casa',
        free: false,
        title: { pt: 'Força em casa, sem equipamento', en: 'Strength at home, no equipment', es: 'Fuerza en casa, sin equipo' },
        summary: {
          pt: 'Por que fortalecer os músculos, três exercícios simples para fazer em casa e como progredir com segurança.',
          en: 'Why strengthen your muscles, three simple exercises to do at home and how to progress safely.',
          es: 'Por qué fortalecer los músculos, tres ejercicios sencillos para hacer en casa y cómo progresar con seguridad.',
        },
        slides: [
          {
            heading: { pt: 'Por que fortalecer', en: 'Why get stronger', es: 'Por qué fortalecer' },
            text: {
              pt: 'Músculos fortes protegem as articulações, ajudam a controlar a glicose e previnem quedas com a idade.',
              en: 'Strong muscles protect the joints, help control blood sugar and prevent falls as we age.',
              es: 'Los músculos fuertes protegen las articulaciones, ayudan a controlar la glucosa y previenen caídas con la edad.',
            },
          },
          {
            heading: { pt: 'Três exercícios simples', en: 'Three simple exercises', es: 'Tres ejercicios sencillos' },
            text: {
              pt: 'Sentar e levantar da cadeira, flexão com as mãos na parede e subir na ponta dos pés trabalham pernas e braços.',
              en: 'Sitting down and standing up from a chair, push-ups against the wall and rising onto your toes work legs and arms.',
              es: 'Sentarse y levantarse de la silla, flexiones con las manos en la pared y ponerse de puntillas trabajan piernas y brazos.',
            },
          },
          {
            heading: { pt: 'Como progredir', en: 'How to progress', es: 'Cómo progresar' },
            text: {
              pt: 'Faça duas ou três séries de oito a doze repetições. Quando ficar fácil, aumente as repetições.',
              en: 'Do two or three sets of eight to twelve repetitions. When it gets easy, add more repetitions.',
              es: 'Haz dos o tres series de ocho a doce repeticiones. Cuando resulte fácil, aumenta las repeticiones.',
            },
          },
          {
            heading: { pt: 'Com segurança', en: 'Safely', es: 'Con seguridad' },
            text: {
              pt: 'Respire durante o movimento e pare se sentir dor. Se você tem alguma doença, converse antes com um profissional de saúde.',
              en: 'Keep breathing as you move and stop if you feel pain. If you have a health condition, talk to a health professional first.',
              es: 'Respira durante el movimiento y para si sientes dolor. Si tienes alguna enfermedad, habla antes con un profesional de salud.',
            },
          },
        ],
      },
    ],
  },
]
