import { type Language, languageTags } from '#app/i18n/config.ts'

/**
 * Money in BRL as integer cents, end to end (docs/product.md §9: currency BRL). An amount is never
 * a float: it is stored, summed and multiplied as whole cents, and even formatting hands Intl a
 * decimal string built from the integer, so no binary fraction ever touches a price. Pure; no I/O.
 */

/** The largest amount the product handles: R$ 10.000.000,00, far below a PostgreSQL `integer` (2^31 - 1). */
export const MAX_CENTS = 1_000_000_000

declare const centsBrand: unique symbol
/** A whole, non-negative number of BRL cents, at most MAX_CENTS. Made only by isCents, asCents and the arithmetic below. */
export type Cents = number & { readonly [centsBrand]: 'BRL cents' }

/**
 * Whether a value is an amount in cents: a safe integer from 0 to MAX_CENTS. Not -0 (Intl would
 * print "-R$ 0,00"), not a float, not NaN or Infinity, not a numeric string.
 */
export function isCents(value: unknown): value is Cents {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= MAX_CENTS && !Object.is(value, -0)
}

/** The value as Cents, or a RangeError: for amounts that must already be valid (a stored price). */
export function asCents(value: unknown): Cents {
  if (!isCents(value)) throw new RangeError(`Not an amount in cents (0-${MAX_CENTS}): ${String(value)}`)
  return value
}

/** The sum of amounts, or undefined when it would exceed MAX_CENTS (or an amount is not Cents at run time). Empty: 0. */
export function sumCents(amounts: readonly Cents[]): Cents | undefined {
  let total = 0
  for (const amount of amounts) {
    if (!isCents(amount)) return undefined
    total += amount
    // Checked at each step: the running total stays a safe integer however many amounts there are.
    if (total > MAX_CENTS) return undefined
  }
  return total as Cents
}

/**
 * A unit amount times a quantity (a safe non-negative integer), or undefined when the product
 * would exceed MAX_CENTS or the quantity is not a whole number.
 */
export function multiplyCents(unit: Cents, quantity: number): Cents | undefined {
  if (!isCents(unit) || !Number.isSafeInteger(quantity) || quantity < 0) return undefined
  // Compared before multiplying: unit × quantity itself could pass 2^53 and lose its last digits.
  if (unit !== 0 && quantity > Math.floor(MAX_CENTS / unit)) return undefined
  return (unit * quantity + 0) as Cents // + 0 turns a -0 (0 × -0) into 0
}

// One formatter per language: building one costs far more than using it.
const formatters = new Map<Language, Intl.NumberFormat>()
function formatterFor(language: Language): Intl.NumberFormat {
  let formatter = formatters.get(language)
  if (!formatter) {
    // narrowSymbol: "R$" in every language (es would otherwise print "BRL").
    formatter = new Intl.NumberFormat(languageTags[language], { style: 'currency', currency: 'BRL', currencyDisplay: 'narrowSymbol' })
    formatters.set(language, formatter)
  }
  return formatter
}

/**
 * An amount as the language writes it: pt "R$ 1.234,56", en "R$1,234.56", es "1234,56 R$" (es
 * groups thousands from five digits on: "12.345,67 R$"). The space Intl puts between the amount
 * and "R$" is kept as it comes, a no-break space (U+00A0), so a price never wraps across two
 * lines; compare with "\u00a0" in tests, and never .replace() it away. A RangeError for a value
 * that is not Cents (a bug: amounts are checked where they enter).
 */
export function formatMoney(cents: Cents, language: Language): string {
  const amount = asCents(cents)
  const reais = Math.floor(amount / 100)
  const centavos = amount % 100
  // A decimal string ("1234.56"), read exactly by Intl (ES2023), rather than the float 1234.56.
  return formatterFor(language).format(`${reais}.${String(centavos).padStart(2, '0')}` as `${number}`)
}

/** The longest amount a person types: "R$ 10.000.000,00" and some spaces. */
export const MONEY_INPUT_MAX_LENGTH = 24

/**
 * An amount a person typed, in any of the three languages' ways, as Cents: "89,90", "89.90",
 * "R$ 1.234,56", "1,234.56", "1234" (whole reais). The decimal mark is the last "," or "."
 * followed by one or two digits; other marks group thousands in threes. Undefined for anything
 * else (three decimals, a sign, letters, an amount over MAX_CENTS), never a guess.
 */
export function parseMoney(text: string): Cents | undefined {
  const bare = text.replace(/R\$/g, '').replace(/[\s\u00a0]/g, '')
  if (bare.length === 0 || bare.length > MONEY_INPUT_MAX_LENGTH) return undefined
  const decimal = /^(.*)[.,](\d{1,2})$/.exec(bare)
  const whole = decimal ? decimal[1]! : bare
  const fraction = decimal ? decimal[2]!.padEnd(2, '0') : '00'
  if (!/^\d{1,3}([.,]\d{3})*$/.test(whole) && !/^\d+$/.test(whole)) return undefined
  // Grouping marks are one kind only, and not the decimal mark ("1.234.56" is no amount).
  const marks = new Set(whole.replace(/\d/g, ''))
  if (marks.size > 1 || (decimal && marks.has(bare[whole.length]!))) return undefined
  const cents = Number(whole.replace(/[.,]/g, '')) * 100 + Number(fraction)
  return isCents(cents) ? cents : undefined
}
