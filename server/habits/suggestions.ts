import type { HabitFrequency, LocalizedText } from '#server/db/schema.ts'

/**
 * Habits to start from, per pillar: small, concrete and countable. The patient's program decides
 * which come first (its focus pillars), and this week's goal of that pillar is named beside them so
 * the habit reads as the way to reach it.
 */
type Suggestion = { key: string; pillar: string; name: LocalizedText; frequency: HabitFrequency; target: number | null; unit: LocalizedText | null }

const none = null
const SUGGESTIONS: Suggestion[] = [
  { key: 'breathing', pillar: 'estresse', name: { pt: 'Respiração lenta', en: 'Slow breathing', es: 'Respiración lenta' }, frequency: { kind: 'daily' }, target: 3, unit: { pt: 'minutos', en: 'minutes', es: 'minutos' } },
  { key: 'screen-break', pillar: 'estresse', name: { pt: 'Pausa longe das telas', en: 'Screen-free break', es: 'Pausa lejos de las pantallas' }, frequency: { kind: 'weekdays', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] }, target: 3, unit: { pt: 'pausas', en: 'breaks', es: 'pausas' } },
  { key: 'walk', pillar: 'exercicio', name: { pt: 'Caminhada', en: 'Walk', es: 'Caminata' }, frequency: { kind: 'daily' }, target: 30, unit: { pt: 'minutos', en: 'minutes', es: 'minutos' } },
  { key: 'strength', pillar: 'exercicio', name: { pt: 'Treino de força', en: 'Strength training', es: 'Entrenamiento de fuerza' }, frequency: { kind: 'weekly', times: 2 }, target: none, unit: none },
  { key: 'water', pillar: 'alimento', name: { pt: 'Beber água', en: 'Drink water', es: 'Beber agua' }, frequency: { kind: 'daily' }, target: 8, unit: { pt: 'copos', en: 'glasses', es: 'vasos' } },
  { key: 'vegetables', pillar: 'alimento', name: { pt: 'Verduras no almoço e no jantar', en: 'Vegetables at lunch and dinner', es: 'Verduras en el almuerzo y la cena' }, frequency: { kind: 'daily' }, target: none, unit: none },
  { key: 'bedtime', pillar: 'sono', name: { pt: 'Deitar no mesmo horário', en: 'Same bedtime', es: 'Acostarse a la misma hora' }, frequency: { kind: 'daily' }, target: none, unit: none },
  { key: 'no-screens-bed', pillar: 'sono', name: { pt: 'Sem telas 1 hora antes de dormir', en: 'No screens an hour before bed', es: 'Sin pantallas 1 hora antes de dormir' }, frequency: { kind: 'daily' }, target: none, unit: none },
  { key: 'call', pillar: 'relacionamentos', name: { pt: 'Falar com alguém querido', en: 'Talk to someone you care about', es: 'Hablar con alguien querido' }, frequency: { kind: 'weekly', times: 3 }, target: none, unit: none },
  { key: 'meal-together', pillar: 'relacionamentos', name: { pt: 'Refeição em companhia', en: 'A meal in company', es: 'Una comida en compañía' }, frequency: { kind: 'weekly', times: 2 }, target: none, unit: none },
  { key: 'alcohol-free', pillar: 'substancias', name: { pt: 'Dia sem álcool', en: 'Alcohol-free day', es: 'Día sin alcohol' }, frequency: { kind: 'weekly', times: 5 }, target: none, unit: none },
  { key: 'caffeine-cutoff', pillar: 'substancias', name: { pt: 'Sem cafeína depois das 14h', en: 'No caffeine after 2 pm', es: 'Sin cafeína después de las 14 h' }, frequency: { kind: 'daily' }, target: none, unit: none },
]

/** Enough to choose from without a wall of cards. */
const MAX_SUGGESTIONS = 6

type SuggestionGoal = { id: number; pillarSlug: string; text: LocalizedText }

/**
 * The suggestions for these pillars in their order (the program's focus first), two per pillar,
 * each with this week's goal of its pillar when there is one; with no pillars, one per pillar.
 */
export function suggestionsFor(pillars: string[], weekGoals: SuggestionGoal[]) {
  const chosen = pillars.length > 0 ? pillars.flatMap((pillar) => SUGGESTIONS.filter((s) => s.pillar === pillar)) : SUGGESTIONS.filter((s, index, all) => all.findIndex((t) => t.pillar === s.pillar) === index)
  return chosen.slice(0, MAX_SUGGESTIONS).map((suggestion) => {
    const goal = weekGoals.find((candidate) => candidate.pillarSlug === suggestion.pillar)
    return {
      key: suggestion.key,
      pillar: suggestion.pillar,
      name: suggestion.name,
      frequency: suggestion.frequency.kind,
      weekdays: suggestion.frequency.kind === 'weekdays' ? suggestion.frequency.days : [],
      times_per_week: suggestion.frequency.kind === 'weekly' ? suggestion.frequency.times : null,
      target: suggestion.target,
      unit: suggestion.unit,
      goal: goal ? { id: goal.id, text: goal.text } : null,
    }
  })
}
