/**
 * Scoring of the health assessment (pure). Every item is answered with a value from 0 to 4;
 * reverse items (where the higher option is the less healthy one) score 4 - value. A pillar's
 * score is the mean of its item scores as a percentage of the maximum, rounded half up.
 */
export const MIN_ANSWER = 0
export const MAX_ANSWER = 4
/** Pillars scoring below this are focus candidates. */
const FOCUS_THRESHOLD = 60
const MAX_FOCUS_PILLARS = 3

export type ScoredQuestion = { code: string; pillar: string; reverse: boolean }
export type Scores = Record<string, number>

export function itemScore(question: Pick<ScoredQuestion, 'reverse'>, value: number): number {
  return question.reverse ? MAX_ANSWER - value : value
}

/**
 * Score per pillar (0-100), keyed by slug in `pillarOrder`; pillars without questions are left
 * out. Every question must have an answer (see parseAnswers).
 */
export function scorePillars(questions: ScoredQuestion[], answers: Record<string, number>, pillarOrder: string[]): Scores {
  const scores: Scores = {}
  for (const pillar of pillarOrder) {
    const items = questions.filter((question) => question.pillar === pillar)
    if (items.length === 0) continue
    const total = items.reduce((sum, question) => sum + itemScore(question, answers[question.code]!), 0)
    // Integer arithmetic before the one division keeps x.5 exact, so Math.round is half up.
    scores[pillar] = Math.round((total * 100) / (items.length * MAX_ANSWER))
  }
  return scores
}

/**
 * The pillars to work on first: those below FOCUS_THRESHOLD, lowest first, at most
 * MAX_FOCUS_PILLARS; when none is below it, the lowest one. Ties keep the pillars' order.
 */
export function focusPillars(scores: Scores, pillarOrder: string[]): string[] {
  const ranked = rankPillars(scores, pillarOrder)
  const below = ranked.filter((pillar) => scores[pillar]! < FOCUS_THRESHOLD)
  return below.length > 0 ? below.slice(0, MAX_FOCUS_PILLARS) : ranked.slice(0, 1)
}

/** Scored pillars from the lowest score to the highest; ties keep the pillars' order. */
export function rankPillars(scores: Scores, pillarOrder: string[]): string[] {
  return pillarOrder.filter((pillar) => pillar in scores).sort((a, b) => scores[a]! - scores[b]! || pillarOrder.indexOf(a) - pillarOrder.indexOf(b))
}

export function scoreSubmission(questions: ScoredQuestion[], answers: Record<string, number>, pillarOrder: string[]) {
  const scores = scorePillars(questions, answers, pillarOrder)
  return { scores, focusPillars: focusPillars(scores, pillarOrder) }
}
