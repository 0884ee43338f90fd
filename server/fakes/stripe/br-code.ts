/**
 * The PIX "BR Code": the text a PIX QR code carries (and "Pix copia e cola" pastes), an EMV
 * Merchant-Presented Mode payload as the Banco Central do Brasil specifies it. A sequence of
 * fields, each a two-digit id, a two-digit length and that many characters; templates (26, 62)
 * hold fields of their own; the last field (63) is a CRC-16/CCITT-FALSE over everything before
 * its value, "6304" included, as four upper-case hex digits.
 *
 * Used by the fake Stripe (its PIX charges carry a valid code that any PIX reader can parse);
 * real Stripe makes its own.
 */

/**
 * The PIX arrangement's globally unique identifier, field 26.00, in lower case as the BCB's manual
 * writes it; readers take it in any case (the published example with CRC FA88 has it in upper case).
 */
export const PIX_GUI = 'br.gov.bcb.pix'

/** Limits of the BCB's manual (lengths in characters; every value is ASCII here). */
const LIMITS = {
  /** Any field: the length takes two digits. */
  field: 99,
  key: 77,
  merchantName: 25,
  merchantCity: 15,
  txid: 25,
  /** Field 54, "1234567890.12": at most 13 characters. */
  amount: 13,
} as const

const ID = {
  payloadFormat: '00',
  pointOfInitiation: '01',
  merchantAccount: '26',
  merchantCategoryCode: '52',
  currency: '53',
  amount: '54',
  countryCode: '58',
  merchantName: '59',
  merchantCity: '60',
  additionalData: '62',
  crc: '63',
} as const

/** Inside field 26. */
const ACCOUNT = { gui: '00', key: '01', description: '02' } as const
/** Inside field 62: the reference label, which PIX uses as the transaction id. */
const TXID = '05'

/** ISO 4217 code of the real. */
const BRL = '986'
/** Point of initiation "12": the code can be paid once (a charge), "11": many times. */
const SINGLE_USE = '12'
const REUSABLE = '11'
/** The txid of a code that names no transaction. */
const NO_TXID = '***'
const TXID_PATTERN = /^[A-Za-z0-9]{1,25}$/

export class BrCodeError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BrCodeError'
  }
}

/**
 * CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR) of
 * the text's bytes; "123456789" gives 0x29B1.
 */
export function crc16CcittFalse(text: string): number {
  let crc = 0xffff
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc
}

const crcHex = (text: string) => crc16CcittFalse(text).toString(16).toUpperCase().padStart(4, '0')

/**
 * Text the EMV character set allows in names and descriptions: accents dropped ("São Paulo" →
 * "Sao Paulo"), anything but printable ASCII left out, runs of spaces made one, trimmed.
 */
export function plainText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim()
}

function field(id: string, value: string): string {
  if (value.length > LIMITS.field) throw new BrCodeError(`Field ${id} is longer than ${LIMITS.field} characters.`)
  return `${id}${String(value.length).padStart(2, '0')}${value}`
}

/** Integer cents as the amount field wants it: "10.50", "0.05". */
export function formatAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents <= 0) throw new BrCodeError('The amount must be a positive whole number of cents.')
  const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
  if (text.length > LIMITS.amount) throw new BrCodeError(`The amount takes more than ${LIMITS.amount} characters.`)
  return text
}

export type BrCodeInput = {
  /** The receiver's PIX key: e-mail, +55 phone, CPF or CNPJ digits, or a random key (EVP). */
  key: string
  /** Cut to 25 characters after plainText(). */
  merchantName: string
  /** Cut to 15 characters after plainText(). */
  merchantCity: string
  /** Left out: the payer types the amount. */
  amountCents?: number
  /** 1-25 letters and digits, or "***" (no transaction named), which is also what leaving it out gives. */
  txid?: string
  /** A message to the payer (field 26.02), cut to what the merchant account field has room for. */
  description?: string
  /** Whether the code pays one charge (point of initiation "12") or can be paid again ("11"). */
  singleUse?: boolean
}

/** The BR Code of a PIX charge (static key, optional amount and transaction id). */
export function buildBrCode(input: BrCodeInput): string {
  const key = input.key.trim()
  if (key.length === 0 || key.length > LIMITS.key || !/^[\x21-\x7e]+$/.test(key)) {
    throw new BrCodeError(`The PIX key must be 1-${LIMITS.key} printable characters without spaces.`)
  }
  // "***" is the standard's own value for "no transaction named": said or left out, the same code.
  const txid = input.txid ?? NO_TXID
  if (txid !== NO_TXID && !TXID_PATTERN.test(txid)) throw new BrCodeError(`The txid must be "${NO_TXID}" or 1-${LIMITS.txid} letters and digits.`)
  const merchantName = plainText(input.merchantName).slice(0, LIMITS.merchantName).trim()
  const merchantCity = plainText(input.merchantCity).slice(0, LIMITS.merchantCity).trim()
  if (!merchantName) throw new BrCodeError('The merchant name is empty.')
  if (!merchantCity) throw new BrCodeError('The merchant city is empty.')

  let account = field(ACCOUNT.gui, PIX_GUI) + field(ACCOUNT.key, key)
  // What is left of field 26's 99 characters after the description's own id and length.
  const room = LIMITS.field - account.length - 4
  const description = plainText(input.description ?? '').slice(0, Math.max(0, room)).trim()
  if (description) account += field(ACCOUNT.description, description)

  const body = [
    field(ID.payloadFormat, '01'),
    ...(input.singleUse === undefined ? [] : [field(ID.pointOfInitiation, input.singleUse ? SINGLE_USE : REUSABLE)]),
    field(ID.merchantAccount, account),
    field(ID.merchantCategoryCode, '0000'),
    field(ID.currency, BRL),
    ...(input.amountCents === undefined ? [] : [field(ID.amount, formatAmount(input.amountCents))]),
    field(ID.countryCode, 'BR'),
    field(ID.merchantName, merchantName),
    field(ID.merchantCity, merchantCity),
    field(ID.additionalData, field(TXID, txid)),
  ].join('')
  const withCrcHeader = `${body}${ID.crc}04`
  return `${withCrcHeader}${crcHex(withCrcHeader)}`
}

type ParsedBrCode = {
  key: string
  merchantName: string
  merchantCity: string
  amountCents: number | undefined
  /** undefined for "***". */
  txid: string | undefined
  description: string | undefined
  singleUse: boolean | undefined
  merchantCategoryCode: string
  currency: string
  countryCode: string
  crc: string
}

/** The fields of a TLV sequence, in order; throws on anything that does not add up. */
export function readFields(text: string): [id: string, value: string][] {
  const fields: [string, string][] = []
  let at = 0
  while (at < text.length) {
    const header = text.slice(at, at + 4)
    if (!/^\d{4}$/.test(header)) throw new BrCodeError(`Malformed field header at position ${at}.`)
    const id = header.slice(0, 2)
    const length = Number(header.slice(2))
    if (at + 4 + length > text.length) throw new BrCodeError(`Field ${id} runs past the end.`)
    fields.push([id, text.slice(at + 4, at + 4 + length)])
    at += 4 + length
  }
  return fields
}

function only(fields: [string, string][], id: string, where: string, required: true): string
function only(fields: [string, string][], id: string, where: string, required: false): string | undefined
function only(fields: [string, string][], id: string, where: string, required: boolean): string | undefined {
  const values = fields.filter(([fieldId]) => fieldId === id)
  if (values.length > 1) throw new BrCodeError(`Field ${where}${id} appears more than once.`)
  if (required && values.length === 0) throw new BrCodeError(`Field ${where}${id} is missing.`)
  return values[0]?.[1]
}

/**
 * Reads a PIX BR Code back: checks the structure, the CRC (field 63, last), the payload format,
 * the PIX merchant account (GUI and key), the currency, the limits of the names and the txid.
 */
export function parseBrCode(code: string): ParsedBrCode {
  const fields = readFields(code)
  if (fields[0]?.[0] !== ID.payloadFormat || fields[0][1] !== '01') throw new BrCodeError('The code does not start with payload format indicator 01.')
  const last = fields.at(-1)
  if (!last || last[0] !== ID.crc || last[1].length !== 4) throw new BrCodeError('The code does not end with a CRC (field 63, 4 characters).')
  const expected = crcHex(code.slice(0, -4))
  if (last[1].toUpperCase() !== expected) throw new BrCodeError(`CRC mismatch: the code says ${last[1]}, its content gives ${expected}.`)

  const account = readFields(only(fields, ID.merchantAccount, '', true))
  if (only(account, ACCOUNT.gui, '26.', true).toLowerCase() !== PIX_GUI) throw new BrCodeError(`Field 26.00 is not ${PIX_GUI}.`)
  const key = only(account, ACCOUNT.key, '26.', true)
  if (key.length === 0 || key.length > LIMITS.key) throw new BrCodeError(`The PIX key must be 1-${LIMITS.key} characters.`)

  const currency = only(fields, ID.currency, '', true)
  if (currency !== BRL) throw new BrCodeError(`The currency is ${currency}, not ${BRL} (BRL).`)
  const merchantName = only(fields, ID.merchantName, '', true)
  if (merchantName.length === 0 || merchantName.length > LIMITS.merchantName) throw new BrCodeError(`The merchant name must be 1-${LIMITS.merchantName} characters.`)
  const merchantCity = only(fields, ID.merchantCity, '', true)
  if (merchantCity.length === 0 || merchantCity.length > LIMITS.merchantCity) throw new BrCodeError(`The merchant city must be 1-${LIMITS.merchantCity} characters.`)

  const amount = only(fields, ID.amount, '', false)
  if (amount !== undefined && !/^\d{1,10}\.\d{2}$/.test(amount)) throw new BrCodeError(`The amount "${amount}" is not a number with two decimals.`)
  const amountCents = amount === undefined ? undefined : Number(amount.replace('.', ''))

  const additional = readFields(only(fields, ID.additionalData, '', true))
  const txid = only(additional, TXID, '62.', true)
  if (txid !== NO_TXID && !TXID_PATTERN.test(txid)) throw new BrCodeError(`The txid must be "${NO_TXID}" or 1-${LIMITS.txid} letters and digits.`)

  const initiation = only(fields, ID.pointOfInitiation, '', false)
  if (initiation !== undefined && initiation !== SINGLE_USE && initiation !== REUSABLE) throw new BrCodeError(`Field 01 must be ${REUSABLE} or ${SINGLE_USE}.`)

  return {
    key,
    merchantName,
    merchantCity,
    amountCents,
    txid: txid === NO_TXID ? undefined : txid,
    description: only(account, ACCOUNT.description, '26.', false),
    singleUse: initiation === undefined ? undefined : initiation === SINGLE_USE,
    merchantCategoryCode: only(fields, ID.merchantCategoryCode, '', true),
    currency,
    countryCode: only(fields, ID.countryCode, '', true),
    crc: last[1].toUpperCase(),
  }
}
