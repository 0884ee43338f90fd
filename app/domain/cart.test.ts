import { describe, expect, test } from 'vitest'
import {
  CART_MAX_BYTES,
  CART_MAX_LINES,
  CART_MAX_QUANTITY,
  type Cart,
  type CartProduct,
  EMPTY_CART,
  MAX_PRODUCT_ID,
  addToCart,
  cartItemCount,
  isCart,
  mergeCarts,
  parseCart,
  priceCart,
  removeFromCart,
  serializeCart,
  setQuantity,
} from './cart.ts'
import { MAX_CENTS, asCents } from './money.ts'

const cartOf = (...lines: [number, number?][]): Cart => ({ lines: lines.map(([productId, quantity = 1]) => ({ productId, quantity })) })
const ids = (cart: Cart) => cart.lines.map((line) => line.productId)
const course = (id: number) => ({ id, type: 'course' as const })
/** A cart of `count` courses with ids from `first` on. */
const fullOf = (count: number, first = 1) => cartOf(...Array.from({ length: count }, (_, index): [number] => [first + index]))

describe('the cart’s bounds', () => {
  test('20 lines, 10 of a product, 1,024 bytes serialized, the provider’s ids', () => {
    expect(CART_MAX_LINES).toBe(20)
    expect(CART_MAX_QUANTITY).toBe(10)
    expect(CART_MAX_BYTES).toBe(1024)
    expect(MAX_PRODUCT_ID).toBe(2 ** 31 - 1)
  })
})

describe('addToCart, setQuantity, removeFromCart', () => {
  test('adds products at the end, in the order they come', () => {
    let cart = EMPTY_CART
    for (const id of [30, 10, 20]) {
      const change = addToCart(cart, course(id))
      expect(change.ok).toBe(true)
      cart = change.cart
    }
    expect(cart).toEqual(cartOf([30], [10], [20]))
    expect(EMPTY_CART.lines).toEqual([])
  })

  test('refuses a second of a product its type allows once, leaving the cart as it was', () => {
    const cart = cartOf([7])
    for (const type of ['consultation_package', 'program', 'course', 'digital_material', 'subscription'] as const) {
      expect(addToCart(cart, { id: 7, type })).toEqual({ ok: false, error: 'cart.errors.quantityLimit', cart })
      expect(addToCart(EMPTY_CART, { id: 7, type }, 2)).toEqual({ ok: false, error: 'cart.errors.quantityLimit', cart: EMPTY_CART })
      expect(setQuantity(cart, { id: 7, type }, 2)).toEqual({ ok: false, error: 'cart.errors.quantityLimit', cart })
    }
  })

  test('refuses a 21st line, but not a change to a line it holds', () => {
    const full = fullOf(20)
    expect(addToCart(full, course(21))).toEqual({ ok: false, error: 'cart.errors.full', cart: full })
    expect(setQuantity(full, course(21), 1)).toEqual({ ok: false, error: 'cart.errors.full', cart: full })
    expect(setQuantity(full, course(5), 0).cart.lines).toHaveLength(19)
    expect(addToCart(removeFromCart(full, 1), course(21)).ok).toBe(true)
  })

  test('refuses ids, types and quantities that are not ones', () => {
    for (const id of [0, -1, 1.5, NaN, Infinity, MAX_PRODUCT_ID + 1]) {
      expect(addToCart(EMPTY_CART, course(id))).toEqual({ ok: false, error: 'cart.errors.invalidProduct', cart: EMPTY_CART })
      expect(setQuantity(EMPTY_CART, course(id), 1).ok).toBe(false)
    }
    expect(addToCart(EMPTY_CART, { id: 1, type: 'gift' as 'course' })).toMatchObject({ ok: false, error: 'cart.errors.invalidProduct' })
    for (const quantity of [0, -1, 1.5, CART_MAX_QUANTITY + 1, NaN]) {
      expect(addToCart(EMPTY_CART, course(1), quantity)).toMatchObject({ ok: false, error: 'cart.errors.invalidProduct' })
    }
    for (const quantity of [-1, 0.5, NaN]) expect(setQuantity(EMPTY_CART, course(1), quantity)).toMatchObject({ ok: false, error: 'cart.errors.invalidProduct' })
    expect(addToCart(EMPTY_CART, course(MAX_PRODUCT_ID)).ok).toBe(true)
  })

  test('setQuantity keeps a line’s place, adds a missing product at the end, removes at 0', () => {
    // A line holding more than its type allows (an old cookie): brought back to 1 where it is.
    const cart = parseCart('1:4.7*3.9')
    expect(setQuantity(cart, course(7), 1)).toEqual({ ok: true, cart: cartOf([4], [7], [9]) })
    expect(setQuantity(cart, course(5), 1)).toEqual({ ok: true, cart: cartOf([4], [7, 3], [9], [5]) })
    expect(setQuantity(cart, course(7), 0)).toEqual({ ok: true, cart: cartOf([4], [9]) })
    expect(setQuantity(cart, course(5), 0)).toEqual({ ok: true, cart })
  })

  test('removeFromCart keeps the others in order and hands back the same cart when the product is absent', () => {
    const cart = cartOf([1], [2], [3])
    expect(removeFromCart(cart, 2)).toEqual(cartOf([1], [3]))
    expect(removeFromCart(cart, 4)).toBe(cart)
    expect(cart).toEqual(cartOf([1], [2], [3]))
  })

  test('cartItemCount sums the quantities', () => {
    expect(cartItemCount(EMPTY_CART)).toBe(0)
    expect(cartItemCount(cartOf([1], [2, 3]))).toBe(4)
  })
})

describe('isCart', () => {
  test('a cart within every bound', () => {
    expect(isCart(EMPTY_CART)).toBe(true)
    expect(isCart(cartOf([1, 10], [MAX_PRODUCT_ID]))).toBe(true)
    expect(isCart(fullOf(20))).toBe(true)
  })

  test('not anything else', () => {
    for (const value of [
      null,
      [],
      'cart',
      { lines: null },
      { lines: [null] },
      fullOf(21),
      cartOf([1], [1]),
      cartOf([0]),
      cartOf([1.5]),
      cartOf([1, 0]),
      cartOf([1, 11]),
      cartOf([1, 2.5]),
      { lines: [{ productId: '1', quantity: 1 }] },
    ]) {
      expect(isCart(value)).toBe(false)
    }
  })
})

describe('mergeCarts (signing in)', () => {
  test('the account’s lines first, then the cookie’s new ones, each in its order', () => {
    expect(mergeCarts(cartOf([5], [3]), cartOf([9], [3], [1]))).toEqual(cartOf([5], [3], [9], [1]))
    expect(mergeCarts(EMPTY_CART, cartOf([2], [1]))).toEqual(cartOf([2], [1]))
    expect(mergeCarts(cartOf([2], [1]), EMPTY_CART)).toEqual(cartOf([2], [1]))
    expect(mergeCarts(EMPTY_CART, EMPTY_CART)).toEqual(EMPTY_CART)
  })

  test('a product in both keeps the larger quantity, not the sum', () => {
    expect(mergeCarts(cartOf([1, 2], [2, 10]), cartOf([1, 3], [2, 10]))).toEqual(cartOf([1, 3], [2, 10]))
    expect(mergeCarts(cartOf([1]), cartOf([1]))).toEqual(cartOf([1]))
  })

  test('past 20 lines, the account’s oldest lines the cookie lacks give way', () => {
    const account = fullOf(15, 1) // 1-15
    const cookie = cartOf([3], ...Array.from({ length: 9 }, (_, index): [number] => [100 + index])) // 3, 100-108
    const merged = mergeCarts(account, cookie)
    expect(merged.lines).toHaveLength(20)
    // 15 + 9 new = 24: products 1, 2, 4 and 5 go (3 is in the cookie too).
    expect(ids(merged)).toEqual([3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 100, 101, 102, 103, 104, 105, 106, 107, 108])
    expect(ids(mergeCarts(fullOf(20, 1), fullOf(20, 50)))).toEqual(ids(fullOf(20, 50)))
  })

  test('a cart that is not one counts as empty, and neither input changes', () => {
    const account = cartOf([1])
    const cookie = cartOf([2])
    expect(mergeCarts(cartOf([1], [1]), cookie)).toEqual(cookie)
    expect(mergeCarts(account, { lines: 'x' } as unknown as Cart)).toEqual(account)
    mergeCarts(account, cookie)
    expect(account).toEqual(cartOf([1]))
    expect(cookie).toEqual(cartOf([2]))
  })
})

describe('serializeCart and parseCart', () => {
  test('a short ASCII form that reads back the same', () => {
    expect(serializeCart(EMPTY_CART)).toBe('1:')
    expect(serializeCart(cartOf([12], [345, 2], [7, 10]))).toBe('1:12.345*2.7*10')
    for (const cart of [EMPTY_CART, cartOf([12], [345, 2], [7, 10]), cartOf([MAX_PRODUCT_ID, 10])]) expect(parseCart(serializeCart(cart))).toEqual(cart)
  })

  test('the largest cart stays far under 1,024 bytes', () => {
    const largest = cartOf(...Array.from({ length: 20 }, (_, index): [number, number] => [MAX_PRODUCT_ID - index, 10]))
    const text = serializeCart(largest)
    expect(Buffer.byteLength(text)).toBe(281)
    expect(text).toMatch(/^[0-9:.*]+$/)
    expect(parseCart(text)).toEqual(largest)
    expect(parseCart(serializeCart(fullOf(20)))).toEqual(fullOf(20))
  })

  test('serializeCart writes the empty cart for what is not a cart', () => {
    expect(serializeCart(cartOf([1], [1]))).toBe('1:')
    expect(serializeCart(fullOf(21))).toBe('1:')
  })

  test('anything malformed or tampered with reads as the empty cart', () => {
    const bad = [
      '', '1', '1:.', '1:12.', '1:.12', '1:12..13', '2:12', '0:12', ' 1:12', '1:12 ', '1:12\n', '1: 12',
      '1:12\u0000', '\u00001:12', '1:12\u0000.13', // NUL
      '1:0', '1:-3', '1:+3', '1:012', '1:1e3', '1:0x1A', '1:١٢', '1:１２', // ids that are not written as serializeCart writes them
      `1:${MAX_PRODUCT_ID + 1}`, '1:99999999999', '1:12345678901',
      '1:12*0', '1:12*-1', '1:12*1', '1:12*11', '1:12*02', '1:12*1.5', '1:12*', '1:12**2', '1:*2', // quantities
      '1:12.12', '1:12*2.12', // a product twice
      `1:${Array.from({ length: 21 }, (_, index) => index + 1).join('.')}`, // 21 lines
      '1:12,13', '1:12;13', '{"lines":[]}', '1:12\u00a0', '1:１',
    ]
    for (const value of bad) expect(parseCart(value), JSON.stringify(value)).toBe(EMPTY_CART)
  })

  test('over-long values, whatever they hold, and values that are not strings', () => {
    expect(parseCart(`1:12${' '.repeat(CART_MAX_BYTES)}`)).toBe(EMPTY_CART)
    expect(parseCart(`1:${'1.'.repeat(600)}1`)).toBe(EMPTY_CART)
    expect(parseCart('1:' + '9'.repeat(5_000_000))).toBe(EMPTY_CART)
    for (const value of [undefined, null, 12, { lines: [] }, ['1:12'], new String('1:12')]) expect(parseCart(value)).toBe(EMPTY_CART)
  })

  test('never throws, and whatever it reads is a cart within bounds', () => {
    const alphabet = ['0', '1', '2', '9', '.', '*', ':', '-', ' ', '\u0000', 'é', '10']
    let seed = 24
    let read = 0
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let run = 0; run < 2000; run++) {
      const text = (random() < 0.7 ? '1:' : '') + Array.from({ length: Math.floor(random() * 40) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('')
      const cart = parseCart(text)
      expect(isCart(cart)).toBe(true)
      if (cart.lines.length > 0) {
        read++
        expect(serializeCart(cart)).toBe(text)
      }
    }
    // Some of the random values are carts: the check above ran.
    expect(read).toBeGreaterThan(10)
  })
})

describe('priceCart', () => {
  const catalogue = new Map<number, CartProduct>([
    [1, { type: 'course', priceCents: asCents(19_990) }],
    [2, { type: 'consultation_package', priceCents: asCents(120_000) }],
    [3, { type: 'digital_material', priceCents: asCents(0) }],
  ])
  const productOf = (id: number) => catalogue.get(id)

  test('prices each line from the catalogue and sums them in cents', () => {
    expect(priceCart(cartOf([2], [1], [3]), productOf)).toEqual({
      ok: true,
      cart: cartOf([2], [1], [3]),
      lines: [
        { productId: 2, quantity: 1, type: 'consultation_package', unitCents: 120_000, lineCents: 120_000 },
        { productId: 1, quantity: 1, type: 'course', unitCents: 19_990, lineCents: 19_990 },
        { productId: 3, quantity: 1, type: 'digital_material', unitCents: 0, lineCents: 0 },
      ],
      totalCents: 139_990,
      changed: false,
    })
    expect(priceCart(EMPTY_CART, productOf)).toEqual({ ok: true, cart: EMPTY_CART, lines: [], totalCents: 0, changed: false })
  })

  test('drops products no longer for sale and cuts quantities to what the type allows, and says so', () => {
    const priced = priceCart(cartOf([9], [1, 4], [3]), productOf)
    expect(priced).toMatchObject({ ok: true, cart: cartOf([1], [3]), totalCents: 19_990, changed: true })
    expect(priceCart({ lines: 'x' } as unknown as Cart, productOf)).toMatchObject({ ok: true, cart: EMPTY_CART, changed: true })
  })

  test('fails rather than wrap when the total passes MAX_CENTS', () => {
    const dear = (id: number) => ({ type: 'course' as const, priceCents: asCents(id === 1 ? MAX_CENTS : 1) })
    expect(priceCart(cartOf([1]), dear)).toMatchObject({ ok: true, totalCents: MAX_CENTS })
    expect(priceCart(cartOf([1], [2]), dear)).toEqual({ ok: false, error: 'cart.errors.totalTooLarge' })
  })
})
