import { describe, expect, test } from 'vitest'
import { choose, cleanSlugs, initialSelection, reset, withMode } from './pillar-selection'
import { inPillarOrder, positionOf } from './pillars'

describe('pillars', () => {
  test('the spec order, alternately left and right', () => {
    const shuffled = ['sono', 'estresse', 'substancias', 'alimento', 'relacionamentos', 'exercicio'].map((slug) => ({ slug }))
    expect(inPillarOrder(shuffled).map((pillar) => pillar.slug)).toEqual(['estresse', 'exercicio', 'alimento', 'sono', 'relacionamentos', 'substancias'])
    expect([0, 1, 2, 3, 4, 5].map(positionOf)).toEqual(['left', 'right', 'left', 'right', 'left', 'right'])
  })
  test('unknown and repeated slugs are dropped', () => {
    expect(cleanSlugs(['sono', 'x', 'sono', 3, 'estresse'])).toEqual(['estresse', 'sono'])
  })
})

describe('pillar selection', () => {
  test('multiple mode starts with the completed pillars preselected', () => {
    expect(initialSelection('multiple', ['sono', 'alimento'])).toEqual({ mode: 'multiple', selected: ['alimento', 'sono'], completed: ['alimento', 'sono'] })
  })
  test('single mode starts empty; a stored choice wins over the preselection', () => {
    expect(initialSelection('single', ['sono'])).toEqual({ mode: 'single', selected: [], completed: ['sono'] })
    expect(initialSelection('multiple', ['sono'], ['estresse'])).toMatchObject({ selected: ['estresse'] })
  })
  test('single mode selects exactly one pillar', () => {
    const state = initialSelection('single', [])
    const first = choose(state, 'sono')
    expect(first.selected).toEqual(['sono'])
    expect(choose(first, 'estresse').selected).toEqual(['estresse'])
  })
  test('multiple mode toggles pillars in and out', () => {
    let state = initialSelection('multiple', ['sono'])
    state = choose(state, 'estresse')
    expect(state.selected).toEqual(['estresse', 'sono'])
    state = choose(state, 'sono')
    expect(state.selected).toEqual(['estresse'])
  })
  test('switching to single mode keeps one pillar', () => {
    expect(withMode({ mode: 'multiple', selected: ['estresse', 'sono'], completed: [] }, 'single').selected).toEqual(['estresse'])
  })
  test('reset clears the selection and the completed pillars', () => {
    expect(reset({ mode: 'multiple', selected: ['sono'], completed: ['sono', 'alimento'] })).toEqual({ mode: 'multiple', selected: [], completed: [] })
  })
})
