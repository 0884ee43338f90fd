import type { LocalizedText } from '#server/db/schema.ts'

/**
 * Weekly goals per pillar, eight progressive levels each: small and concrete first, each level
 * building on the ones before. A program copies the texts into its goals when it is built, so
 * rewording the library never changes a program someone is following.
 */
export const GOAL_LEVELS = 8

export const GOAL_LIBRARY: Record<string, LocalizedText[]> = {
  estresse: [
    {
      pt: 'Faça 3 minutos de respiração lenta (inspire contando até 4 e expire contando até 6) uma vez por dia, em 5 dias da semana.',
      en: 'Do 3 minutes of slow breathing (breathe in for a count of 4, out for a count of 6) once a day, on 5 days this week.',
      es: 'Haz 3 minutos de respiración lenta (inhala contando hasta 4 y exhala contando hasta 6) una vez al día, 5 días de esta semana.',
    },
    {
      pt: 'Toda noite, anote uma situação que gerou estresse no dia e como o seu corpo reagiu a ela.',
      en: 'Each evening, write down one situation that stressed you during the day and how your body reacted to it.',
      es: 'Cada noche, anota una situación que te generó estrés durante el día y cómo reaccionó tu cuerpo.',
    },
    {
      pt: 'Faça uma pausa de 5 minutos longe das telas a cada 90 minutos de trabalho ou estudo, pelo menos 3 vezes por dia.',
      en: 'Take a 5-minute break away from screens after every 90 minutes of work or study, at least 3 times a day.',
      es: 'Haz una pausa de 5 minutos lejos de las pantallas cada 90 minutos de trabajo o estudio, al menos 3 veces al día.',
    },
    {
      pt: 'Reserve 10 minutos para uma prática de relaxamento (meditação, oração, alongamento ou relaxamento muscular) em 4 dias.',
      en: 'Set aside 10 minutes for a relaxation practice (meditation, prayer, stretching or muscle relaxation) on 4 days.',
      es: 'Reserva 10 minutos para una práctica de relajación (meditación, oración, estiramientos o relajación muscular) 4 días.',
    },
    {
      pt: 'Escolha um compromisso que você pode recusar, adiar ou delegar nesta semana, e faça isso.',
      en: 'Pick one commitment you can turn down, postpone or hand over this week, and do it.',
      es: 'Elige un compromiso que puedas rechazar, posponer o delegar esta semana, y hazlo.',
    },
    {
      pt: 'Dedique 20 minutos a algo só pelo prazer ou pelo descanso, sem meta de produtividade, em 3 dias.',
      en: 'Spend 20 minutes on something just for pleasure or rest, with no productivity goal, on 3 days.',
      es: 'Dedica 20 minutos a algo solo por placer o por descanso, sin meta de productividad, 3 días.',
    },
    {
      pt: 'Ao perceber tensão, faça três respirações lentas antes de responder ou agir; pratique isso todos os dias.',
      en: 'When you notice tension, take three slow breaths before you reply or act; practise it every day.',
      es: 'Cuando notes tensión, haz tres respiraciones lentas antes de responder o actuar; practícalo todos los días.',
    },
    {
      pt: 'Monte o seu plano de calma: as 3 práticas que mais ajudaram e em que momentos você vai usá-las. Siga o plano todos os dias desta semana.',
      en: 'Put together your calm plan: the 3 practices that helped most and when you will use them. Follow it every day this week.',
      es: 'Arma tu plan de calma: las 3 prácticas que más te ayudaron y en qué momentos las usarás. Síguelo todos los días de esta semana.',
    },
  ],
  exercicio: [
    {
      pt: 'Caminhe 10 minutos em 5 dias desta semana, no ritmo que for confortável para você.',
      en: 'Walk for 10 minutes on 5 days this week, at a pace that feels comfortable.',
      es: 'Camina 10 minutos 5 días de esta semana, al ritmo que te resulte cómodo.',
    },
    {
      pt: 'Levante-se e movimente-se por 2 minutos a cada hora que passar sentado(a) durante o dia, em 5 dias.',
      en: 'Get up and move for 2 minutes for every hour you spend sitting during the day, on 5 days.',
      es: 'Levántate y muévete 2 minutos por cada hora que pases sentado(a) durante el día, 5 días.',
    },
    {
      pt: 'Faça 20 minutos de caminhada rápida (dá para conversar, mas não para cantar) em 4 dias.',
      en: 'Walk briskly for 20 minutes (you can talk but not sing) on 4 days.',
      es: 'Camina a paso rápido 20 minutos (puedes conversar, pero no cantar) 4 días.',
    },
    {
      pt: 'Inclua 2 sessões curtas de força, de 10 minutos cada: agachamento na cadeira, flexão na parede e prancha.',
      en: 'Add 2 short strength sessions of 10 minutes each: chair squats, wall push-ups and a plank.',
      es: 'Incluye 2 sesiones cortas de fuerza de 10 minutos cada una: sentadillas con silla, flexiones en la pared y plancha.',
    },
    {
      pt: 'Some 120 minutos de atividade moderada na semana, em blocos do tamanho que couber na sua rotina.',
      en: 'Add up 120 minutes of moderate activity over the week, in blocks of whatever length fits your routine.',
      es: 'Suma 120 minutos de actividad moderada en la semana, en bloques del tamaño que quepa en tu rutina.',
    },
    {
      pt: 'Experimente uma atividade nova de que você possa gostar, como dança, bicicleta, natação, um esporte ou uma aula on-line.',
      en: 'Try a new activity you might enjoy, such as dancing, cycling, swimming, a sport or an online class.',
      es: 'Prueba una actividad nueva que puedas disfrutar, como baile, bicicleta, natación, un deporte o una clase en línea.',
    },
    {
      pt: 'Chegue a 150 minutos de atividade moderada nesta semana, incluindo 2 sessões de força.',
      en: 'Reach 150 minutes of moderate activity this week, including 2 strength sessions.',
      es: 'Llega a 150 minutos de actividad moderada esta semana, incluidas 2 sesiones de fuerza.',
    },
    {
      pt: 'Planeje a sua rotina de atividade para o próximo mês (quais atividades, em que dias e horários) e siga o plano nesta semana.',
      en: 'Plan your activity routine for the next month (which activities, on which days and at what times) and follow it this week.',
      es: 'Planifica tu rutina de actividad para el próximo mes (qué actividades, qué días y a qué horas) y síguela esta semana.',
    },
  ],
  alimento: [
    {
      pt: 'Acrescente uma porção de fruta, verdura ou legume a uma refeição por dia, em 5 dias.',
      en: 'Add one portion of fruit or vegetables to one meal a day, on 5 days.',
      es: 'Agrega una porción de fruta o verdura a una comida al día, 5 días.',
    },
    {
      pt: 'Beba um copo de água em cada refeição e deixe uma garrafa de água por perto durante o dia.',
      en: 'Drink a glass of water with every meal and keep a bottle of water within reach during the day.',
      es: 'Bebe un vaso de agua en cada comida y ten una botella de agua a mano durante el día.',
    },
    {
      pt: 'Troque um lanche ultraprocessado ou um refrigerante por dia por uma fruta, castanhas, iogurte natural ou água, em 5 dias.',
      en: 'Swap one ultra-processed snack or soft drink a day for fruit, nuts, plain yoghurt or water, on 5 days.',
      es: 'Cambia un snack ultraprocesado o un refresco al día por fruta, frutos secos, yogur natural o agua, 5 días.',
    },
    {
      pt: 'Inclua feijão, lentilha, grão-de-bico ou outra leguminosa em pelo menos 4 refeições.',
      en: 'Include beans, lentils, chickpeas or another legume in at least 4 meals.',
      es: 'Incluye frijoles, lentejas, garbanzos u otra legumbre en al menos 4 comidas.',
    },
    {
      pt: 'Encha metade do prato com verduras e legumes no almoço ou no jantar, em 5 dias.',
      en: 'Fill half your plate with vegetables at lunch or dinner, on 5 days.',
      es: 'Llena la mitad del plato con verduras en el almuerzo o la cena, 5 días.',
    },
    {
      pt: 'Faça pelo menos uma refeição por dia com calma, sentado(a) e sem telas, em 5 dias.',
      en: 'Eat at least one meal a day slowly, sitting down and away from screens, on 5 days.',
      es: 'Haz al menos una comida al día con calma, sentado(a) y sin pantallas, 5 días.',
    },
    {
      pt: 'Planeje as refeições da semana e a lista de compras, dando preferência a alimentos frescos e minimamente processados.',
      en: "Plan the week's meals and your shopping list, favouring fresh and minimally processed foods.",
      es: 'Planifica las comidas de la semana y la lista de compras, dando preferencia a alimentos frescos y mínimamente procesados.',
    },
    {
      pt: 'Cozinhe em casa pelo menos 4 vezes nesta semana e, antes de repetir o prato, faça uma pausa para perceber se ainda está com fome.',
      en: 'Cook at home at least 4 times this week and, before a second helping, pause to check whether you are still hungry.',
      es: 'Cocina en casa al menos 4 veces esta semana y, antes de repetir, haz una pausa para notar si todavía tienes hambre.',
    },
  ],
  sono: [
    {
      pt: 'Acorde no mesmo horário em pelo menos 5 dos 7 dias, incluindo o fim de semana.',
      en: 'Keep a fixed wake-up time on at least 5 of 7 days, weekend included.',
      es: 'Despiértate a la misma hora al menos 5 de los 7 días, incluido el fin de semana.',
    },
    {
      pt: 'Mantenha o horário de acordar e defina um horário de deitar que permita de 7 a 9 horas de sono; cumpra-o em 5 noites.',
      en: 'Keep your wake-up time and set a bedtime that allows 7 to 9 hours of sleep; stick to it on 5 nights.',
      es: 'Mantén tu hora de despertar y fija una hora de acostarte que permita de 7 a 9 horas de sueño; cúmplela 5 noches.',
    },
    {
      pt: 'Desligue as telas 30 minutos antes de deitar em pelo menos 4 noites.',
      en: 'Switch off screens 30 minutes before bed on at least 4 nights.',
      es: 'Apaga las pantallas 30 minutos antes de acostarte al menos 4 noches.',
    },
    {
      pt: 'Tome o último café, chá-preto, chá-mate ou energético antes das 14h, todos os dias desta semana.',
      en: 'Have your last coffee, black tea, mate or energy drink before 2 p.m., every day this week.',
      es: 'Toma el último café, té negro, mate o bebida energética antes de las 14:00, todos los días de esta semana.',
    },
    {
      pt: 'Crie uma rotina de 20 minutos para desacelerar antes de dormir (luz baixa, banho, leitura ou alongamento) e siga-a em 5 noites.',
      en: 'Create a 20-minute wind-down routine before bed (dim lights, a shower, reading or stretching) and follow it on 5 nights.',
      es: 'Crea una rutina de 20 minutos para desacelerar antes de dormir (luz tenue, ducha, lectura o estiramientos) y síguela 5 noches.',
    },
    {
      pt: 'Deixe o quarto mais escuro, silencioso e fresco: mude uma coisa nesta semana e mantenha a mudança.',
      en: 'Make your bedroom darker, quieter and cooler: change one thing this week and keep it.',
      es: 'Haz tu dormitorio más oscuro, silencioso y fresco: cambia una cosa esta semana y mantén el cambio.',
    },
    {
      pt: 'Pegue pelo menos 10 minutos de luz natural na primeira hora depois de acordar, em 5 dias.',
      en: 'Get at least 10 minutes of daylight within an hour of waking up, on 5 days.',
      es: 'Toma al menos 10 minutos de luz natural en la primera hora después de despertar, 5 días.',
    },
    {
      pt: 'Mantenha a rotina completa (horário fixo de acordar, desacelerar antes de dormir e telas desligadas) em 6 dos 7 dias e observe como você se sente pela manhã.',
      en: 'Keep the whole routine (fixed wake-up time, wind-down and screens off) on 6 of 7 days and notice how you feel in the mornings.',
      es: 'Mantén la rutina completa (hora fija de despertar, desaceleración y pantallas apagadas) 6 de los 7 días y observa cómo te sientes por las mañanas.',
    },
  ],
  relacionamentos: [
    {
      pt: 'Mande uma mensagem ou ligue para alguém de quem você sente falta, em pelo menos 2 dias.',
      en: 'Message or call someone you miss, on at least 2 days.',
      es: 'Envía un mensaje o llama a alguien a quien extrañas, al menos 2 días.',
    },
    {
      pt: 'Tenha uma conversa de 15 minutos sem celular com alguém próximo, em 3 dias.',
      en: 'Have a 15-minute phone-free conversation with someone close to you, on 3 days.',
      es: 'Ten una conversación de 15 minutos sin celular con alguien cercano, 3 días.',
    },
    {
      pt: 'Combine um encontro presencial com um amigo ou familiar nesta semana.',
      en: 'Arrange to meet a friend or relative in person this week.',
      es: 'Organiza un encuentro en persona con un amigo o familiar esta semana.',
    },
    {
      pt: 'Pratique a escuta ativa: em uma conversa por dia, ouça sem interromper e faça uma pergunta sobre o que a pessoa contou.',
      en: 'Practise active listening: in one conversation a day, listen without interrupting and ask a question about what the other person said.',
      es: 'Practica la escucha activa: en una conversación al día, escucha sin interrumpir y haz una pregunta sobre lo que la otra persona contó.',
    },
    {
      pt: 'Agradeça ou reconheça alguém de forma sincera todos os dias, pessoalmente ou por mensagem.',
      en: 'Thank or show appreciation to someone sincerely every day, in person or by message.',
      es: 'Agradece o reconoce a alguien de forma sincera todos los días, en persona o por mensaje.',
    },
    {
      pt: 'Participe, ou volte a participar, de uma atividade em grupo, como uma aula, um time, um grupo religioso, um voluntariado ou um clube.',
      en: 'Join, or go back to, a group activity, such as a class, a team, a faith group, volunteering or a club.',
      es: 'Únete, o vuelve, a una actividad en grupo, como una clase, un equipo, un grupo religioso, un voluntariado o un club.',
    },
    {
      pt: 'Compartilhe algo que você está vivendo com uma pessoa de confiança.',
      en: 'Share something you are going through with someone you trust.',
      es: 'Comparte algo que estés viviendo con una persona de confianza.',
    },
    {
      pt: 'Combine um encontro regular com alguém importante para você (uma ligação semanal, um almoço, uma caminhada) e faça o primeiro.',
      en: 'Set up a regular get-together with someone important to you (a weekly call, a lunch, a walk) and have the first one.',
      es: 'Acuerda un encuentro regular con alguien importante para ti (una llamada semanal, un almuerzo, una caminata) y haz el primero.',
    },
  ],
  substancias: [
    {
      pt: 'Observe os seus padrões: durante a semana, anote os momentos em que bebeu, fumou ou usou outra substância, ou sentiu vontade, e o que estava acontecendo. Sem julgamentos.',
      en: 'Notice your patterns: this week, note the moments when you drank, smoked or used another substance, or felt like it, and what was going on. No judgement.',
      es: 'Observa tus patrones: durante la semana, anota los momentos en que bebiste, fumaste o usaste otra sustancia, o sentiste ganas, y qué estaba pasando. Sin juicios.',
    },
    {
      pt: 'Defina a sua própria meta para as próximas semanas (por exemplo, dias sem álcool, menos cigarros ou um limite por ocasião) e anote-a.',
      en: 'Set your own goal for the coming weeks (for example, alcohol-free days, fewer cigarettes or a limit per occasion) and write it down.',
      es: 'Define tu propia meta para las próximas semanas (por ejemplo, días sin alcohol, menos cigarrillos o un límite por ocasión) y anótala.',
    },
    {
      pt: 'Tenha pelo menos 4 dias sem álcool nesta semana.',
      en: 'Have at least 4 alcohol-free days this week.',
      es: 'Ten al menos 4 días sin alcohol esta semana.',
    },
    {
      pt: 'Escolha uma alternativa para o momento de maior vontade (uma caminhada, uma ligação, um copo de água, uma pausa para respirar) e use-a.',
      en: 'Choose an alternative for the moment when the urge is strongest (a walk, a call, a glass of water, a breathing break) and use it.',
      es: 'Elige una alternativa para el momento en que sientes más ganas (una caminata, una llamada, un vaso de agua, una pausa para respirar) y úsala.',
    },
    {
      pt: 'Em encontros sociais, alterne cada bebida alcoólica com um copo de água ou escolha uma bebida sem álcool de que você goste.',
      en: 'At social gatherings, alternate each alcoholic drink with a glass of water, or choose an alcohol-free drink you like.',
      es: 'En reuniones sociales, alterna cada bebida alcohólica con un vaso de agua o elige una bebida sin alcohol que te guste.',
    },
    {
      pt: 'Conte a sua meta para alguém de confiança e peça o apoio dessa pessoa.',
      en: 'Tell someone you trust about your goal and ask for their support.',
      es: 'Cuéntale tu meta a alguien de confianza y pídele su apoyo.',
    },
    {
      pt: 'Mantenha a sua casa e o seu carro livres de fumaça e tenha pelo menos 5 dias sem álcool nesta semana.',
      en: 'Keep your home and car smoke-free and have at least 5 alcohol-free days this week.',
      es: 'Mantén tu casa y tu auto libres de humo y ten al menos 5 días sin alcohol esta semana.',
    },
    {
      pt: 'Compare o seu progresso com a meta que definiu. Se quiser mais apoio, converse com um profissional de saúde ou procure um serviço como a UBS ou o CAPS AD mais próximo.',
      en: 'Review your progress against the goal you set. If you would like more support, talk to a health professional or contact a service such as your nearest UBS health centre or CAPS AD.',
      es: 'Revisa tu progreso frente a la meta que definiste. Si quieres más apoyo, habla con un profesional de salud o busca un servicio como la UBS o el CAPS AD más cercano.',
    },
  ],
}
