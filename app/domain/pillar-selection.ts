import { type PillarSlug, PILLAR_ORDER, isPillarSlug } from './pillars.ts'

/**
 * docs/product.md §2's pillar selection. Single mode selects one pillar; multiple mode toggles pillars in
 * and out, starting from the completed pillars; reset clears the selection and the completed
 * pillars. Pure: the route keeps the state in cookies.
 */
export type SelectionMode = 'single' | 'multiple'
export type SelectionState = { mode: SelectionMode; selected: PillarSlug[]; completed: PillarSlug[] }

/** Only known pillars, once each, in the product's order (docs/product.md §1). */
export function cleanSlugs(values: readonly unknown[]): PillarSlug[] {
  const wanted = new Set(values.filter(isPillarSlug))
  return PILLAR_ORDER.filter((slug) => wanted.has(slug))
}

/** The state on arrival: multiple mode preselects the completed pillars when nothing was chosen yet. */
export function initialSelection(mode: SelectionMode, completed: readonly unknown[], stored?: readonly unknown[]): SelectionState {
  const done = cleanSlugs(completed)
  if (stored !== undefined) return withMode({ mode, selected: cleanSlugs(stored), completed: done }, mode)
  return { mode, selected: mode === 'multiple' ? done : [], completed: done }
}

export function choose(state: SelectionState, slug: PillarSlug): SelectionState {
  if (state.mode === 'single') return { ...state, selected: [slug] }
  const selected = state.selected.includes(slug) ? state.selected.filter((item) => item !== slug) : [...state.selected, slug]
  return { ...state, selected: cleanSlugs(selected) }
}

/** Switching to single mode keeps at most the first selected pillar. */
export function withMode(state: SelectionState, mode: SelectionMode): SelectionState {
  if (mode === state.mode && (mode === 'multiple' || state.selected.length <= 1)) return state
  return { ...state, mode, selected: mode === 'single' ? state.selected.slice(0, 1) : state.selected }
}

export function reset(state: SelectionState): SelectionState {
  return { mode: state.mode, selected: [], completed: [] }
}
