import { describe, expect, test, vi } from 'vitest'
import { Translations, interpolate } from './translator.ts'

const common = {
  greeting: 'Olá, {{name}}!',
  nav: { home: 'Início', deep: { er: 'fundo' } },
  'flat.key': 'chave plana',
  items_one: '{{count}} item',
  items_other: '{{count}} itens',
  none_zero: 'nenhum',
  none_other: '{{count}} coisas',
  role_admin: 'Administração',
  role: 'Papel',
  list: ['a', 'b'],
}
const auth = { login: 'Entrar' }

describe('Translations', () => {
  const translations = new Translations('pt', { common, auth })

  test('reads dotted paths, flat keys with dots, and other namespaces with ns:key', () => {
    const t = translations.t()
    expect(t('nav.home')).toBe('Início')
    expect(t('nav.deep.er')).toBe('fundo')
    expect(t('flat.key')).toBe('chave plana')
    expect(t('auth:login')).toBe('Entrar')
    expect(translations.t('auth')('login')).toBe('Entrar')
    expect(translations.t('auth')('common:nav.home')).toBe('Início')
    expect(translations.t('auth')('nav.home', { ns: 'common' })).toBe('Início')
    expect(t('login', { ns: ['common', 'auth'] })).toBe('Entrar')
  })

  test('interpolates {{values}} and leaves a placeholder without a value as it is', () => {
    const t = translations.t()
    expect(t('greeting', { name: 'Pedro' })).toBe('Olá, Pedro!')
    expect(t('greeting')).toBe('Olá, {{name}}!')
    expect(interpolate('{{ a }} e {{b}}', { a: 1, b: 0 })).toBe('1 e 0')
  })

  test('plural suffixes by the language rules (Portuguese counts 0 and 1 as one), _zero first for 0', () => {
    const t = translations.t()
    expect(t('items', { count: 1 })).toBe('1 item')
    expect(t('items', { count: 0 })).toBe('0 item')
    expect(t('items', { count: 5 })).toBe('5 itens')
    expect(t('none', { count: 0 })).toBe('nenhum')
    expect(t('none', { count: 2 })).toBe('2 coisas')
    expect(new Translations('en', { common }).t()('items', { count: 0 })).toBe('0 itens')
  })

  test('a context picks the suffixed key when there is one', () => {
    const t = translations.t()
    expect(t('role', { context: 'admin' })).toBe('Administração')
    expect(t('role', { context: 'patient' })).toBe('Papel')
  })

  test('a missing key shows as the key (without its namespace), or the default value', () => {
    const t = translations.t()
    expect(t('nope.missing')).toBe('nope.missing')
    expect(t('auth:nope')).toBe('nope')
    expect(t('nope', { defaultValue: 'Padrão {{x}}', x: 1 })).toBe('Padrão 1')
    expect(t('nav')).toBe('nav')
    expect(t('list', { returnObjects: true })).toEqual(['a', 'b'])
  })

  test('exists', () => {
    expect(translations.exists('nav.home')).toBe(true)
    expect(translations.exists('auth:login')).toBe(true)
    expect(translations.exists('login', 'auth')).toBe(true)
    expect(translations.exists('nope')).toBe(false)
  })

  test('loads each missing namespace once, however many ask; a failed load can be tried again', async () => {
    let fail = true
    const fetchNamespace = vi.fn(async (_language: string, namespace: string) => {
      if (fail) throw new Error('offline')
      return { title: `${namespace} title` }
    })
    const lazy = new Translations('es', { common }, fetchNamespace)
    await expect(lazy.load(['program'])).rejects.toThrow('offline')
    expect(lazy.has('program')).toBe(false)
    fail = false
    await Promise.all([lazy.load(['program', 'common']), lazy.load(['program'])])
    expect(fetchNamespace).toHaveBeenCalledTimes(2)
    expect(fetchNamespace).toHaveBeenLastCalledWith('es', 'program')
    expect(lazy.t('program')('title')).toBe('program title')
  })

  test('without a way to fetch, a missing namespace is an error', async () => {
    await expect(new Translations('pt', {}).load(['auth'])).rejects.toThrow(/not loaded/)
  })
})
