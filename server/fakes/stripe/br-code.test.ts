import { describe, expect, it } from 'vitest'
import { BrCodeError, buildBrCode, type BrCodeInput, crc16CcittFalse, formatAmount, parseBrCode, PIX_GUI, plainText, readFields } from '#server/fakes/stripe/br-code.ts'

const CHARGE = {
  key: 'pagamentos@innera.com.br',
  merchantName: 'Innera Medicina do Estilo de Vida',
  merchantCity: 'São Paulo',
  amountCents: 18_000,
  txid: 'pi3QxYz0123456789abcdefg',
}

describe('crc16CcittFalse', () => {
  it('gives the check value of CRC-16/CCITT-FALSE', () => {
    expect(crc16CcittFalse('123456789')).toBe(0x29b1)
    expect(crc16CcittFalse('')).toBe(0xffff)
  })

  it("matches the example of the Banco Central's manual", () => {
    const example = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D'
    expect(crc16CcittFalse(example.slice(0, -4)).toString(16).toUpperCase()).toBe('1D3D')
    expect(parseBrCode(example)).toMatchObject({ key: '123e4567-e12b-12d1-a456-426655440000', merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA', amountCents: undefined, txid: undefined })
  })
})

describe('buildBrCode', () => {
  it('lays out the fields in order, with the CRC last', () => {
    const code = buildBrCode({ ...CHARGE, singleUse: true })
    expect(readFields(code)).toEqual([
      ['00', '01'],
      ['01', '12'],
      ['26', `0014${PIX_GUI}0124pagamentos@innera.com.br`],
      ['52', '0000'],
      ['53', '986'],
      ['54', '180.00'],
      ['58', 'BR'],
      ['59', 'Innera Medicina do Estilo'],
      ['60', 'Sao Paulo'],
      ['62', '0524pi3QxYz0123456789abcdefg'],
      ['63', expect.stringMatching(/^[0-9A-F]{4}$/)],
    ])
    expect(code.slice(-8, -4)).toBe('6304')
    expect(code.slice(-4)).toBe(crc16CcittFalse(code.slice(0, -4)).toString(16).toUpperCase().padStart(4, '0'))
  })

  it('keeps the merchant name to 25 characters and the city to 15, without accents', () => {
    const parsed = parseBrCode(buildBrCode({ ...CHARGE, merchantName: 'Clínica Ação e Saúde Integral Ltda', merchantCity: 'São José dos Campos' }))
    expect(parsed.merchantName).toBe('Clinica Acao e Saude Inte')
    expect(parsed.merchantName).toHaveLength(25)
    expect(parsed.merchantCity).toBe('Sao Jose dos Ca')
    expect(parsed.merchantCity).toHaveLength(15)
  })

  it('writes the amount from integer cents with two decimals', () => {
    expect(formatAmount(1)).toBe('0.01')
    expect(formatAmount(5)).toBe('0.05')
    expect(formatAmount(1050)).toBe('10.50')
    expect(formatAmount(999_999_999_999)).toBe('9999999999.99')
    expect(() => formatAmount(1_000_000_000_000)).toThrow(BrCodeError)
    for (const bad of [0, -100, 10.5, Number.NaN]) expect(() => formatAmount(bad)).toThrow(BrCodeError)
    expect(readFields(buildBrCode({ ...CHARGE, amountCents: 7 })).find(([id]) => id === '54')).toEqual(['54', '0.07'])
    expect(readFields(buildBrCode({ ...CHARGE, amountCents: undefined })).some(([id]) => id === '54')).toBe(false)
  })

  it('takes a txid of 1-25 letters and digits, "***" without one', () => {
    expect(parseBrCode(buildBrCode({ ...CHARGE, txid: 'A'.repeat(25) })).txid).toBe('A'.repeat(25))
    for (const bad of ['', 'A'.repeat(26), 'pi_123', 'ação', '*', '**', '****', 'A**', '* *']) expect(() => buildBrCode({ ...CHARGE, txid: bad })).toThrow(/txid/)
    const code = buildBrCode({ ...CHARGE, txid: undefined })
    expect(readFields(code).find(([id]) => id === '62')).toEqual(['62', '0503***'])
    expect(parseBrCode(code).txid).toBeUndefined()
  })

  // Issue 41: "***" is the standard's txid for "none"; a caller may say it, and gets the same code as leaving it out.
  it('takes an explicit "***" as no transaction named', () => {
    const explicit = buildBrCode({ ...CHARGE, txid: '***' })
    expect(explicit).toBe(buildBrCode({ ...CHARGE, txid: undefined }))
    expect(readFields(explicit).find(([id]) => id === '62')).toEqual(['62', '0503***'])
    expect(parseBrCode(explicit).txid).toBeUndefined()
  })

  // Issue 41: the public example (Banco Central's format) whose CRC is FA88. Its GUI is upper case;
  // the builder writes it in lower case (as the BCB's manual does, and the GUI's case does not
  // matter), so for the same inputs it gives the same code but for the GUI, and so another CRC.
  it('writes the public FA88 example, with the GUI in lower case and its own valid CRC', () => {
    const input = { key: '57946663234', amountCents: 100, merchantName: 'CLENILTON CRUZ DE ALENCAR', merchantCity: 'MANAUS', txid: '***' }
    const ours = buildBrCode(input)
    expect(ours).toBe('00020126330014br.gov.bcb.pix01115794666323452040000530398654041.005802BR5925CLENILTON CRUZ DE ALENCAR6006MANAUS62070503***6304A8C0')
    expect(crc16CcittFalse(ours.slice(0, -4))).toBe(0xa8c0)

    const published = '00020126330014BR.GOV.BCB.PIX01115794666323452040000530398654041.005802BR5925CLENILTON CRUZ DE ALENCAR6006MANAUS62070503***6304FA88'
    expect(crc16CcittFalse(published.slice(0, -4))).toBe(0xfa88)
    const upperGui = ours.slice(0, -4).replace(PIX_GUI, PIX_GUI.toUpperCase())
    expect(`${upperGui}${crc16CcittFalse(upperGui).toString(16).toUpperCase()}`).toBe(published)
    const expected = { key: '57946663234', amountCents: 100, merchantName: 'CLENILTON CRUZ DE ALENCAR', merchantCity: 'MANAUS', txid: undefined, singleUse: undefined, description: undefined }
    expect(parseBrCode(published)).toMatchObject({ ...expected, crc: 'FA88' })
    expect(parseBrCode(ours)).toMatchObject({ ...expected, crc: 'A8C0' })
  })

  it('refuses a key that is empty, too long or has spaces', () => {
    for (const key of ['', ' ', 'a b@c.d', 'x'.repeat(78)]) expect(() => buildBrCode({ ...CHARGE, key })).toThrow(/PIX key/)
    expect(parseBrCode(buildBrCode({ ...CHARGE, key: 'x'.repeat(77) })).key).toHaveLength(77)
  })

  it('refuses names that are empty once cleaned', () => {
    expect(() => buildBrCode({ ...CHARGE, merchantName: '  ✓ ' })).toThrow(/merchant name/)
    expect(() => buildBrCode({ ...CHARGE, merchantCity: '' })).toThrow(/merchant city/)
  })

  it("cuts the description to what field 26's 99 characters leave", () => {
    const short = parseBrCode(buildBrCode({ ...CHARGE, description: 'Consulta com Paula' }))
    expect(short.description).toBe('Consulta com Paula')
    const long = buildBrCode({ ...CHARGE, key: 'k'.repeat(70), description: 'Pagamento da consulta de medicina do estilo de vida' })
    const account = readFields(long).find(([id]) => id === '26')![1]
    expect(account).toHaveLength(99)
    expect(parseBrCode(long).description).toBe('Pag')
    expect(parseBrCode(buildBrCode({ ...CHARGE, key: 'k'.repeat(77), description: 'dropped' })).description).toBeUndefined()
  })
})

describe('parseBrCode', () => {
  it('reads back what buildBrCode wrote (round trip)', () => {
    const inputs: BrCodeInput[] = [
      { ...CHARGE, singleUse: true, description: 'Innera: compra 42' },
      { key: '+5511987654321', merchantName: 'Paula', merchantCity: 'Recife', amountCents: 1, txid: 'x' },
      { key: '12345678000195', merchantName: 'Ana', merchantCity: 'Belo Horizonte', singleUse: false },
    ]
    for (const input of inputs) {
      const code = buildBrCode(input)
      expect(parseBrCode(code)).toEqual({
        key: input.key,
        merchantName: plainText(input.merchantName).slice(0, 25),
        merchantCity: plainText(input.merchantCity).slice(0, 15),
        amountCents: input.amountCents,
        txid: input.txid,
        description: input.description,
        singleUse: input.singleUse,
        merchantCategoryCode: '0000',
        currency: '986',
        countryCode: 'BR',
        crc: code.slice(-4),
      })
    }
  })

  it('refuses a changed code by its CRC', () => {
    const code = buildBrCode(CHARGE)
    const tampered = code.replace('180.00', '100.00')
    expect(() => parseBrCode(tampered)).toThrow(/CRC mismatch/)
    expect(parseBrCode(code.slice(0, -4) + code.slice(-4).toLowerCase()).amountCents).toBe(18_000)
  })

  it('refuses malformed structures', () => {
    const sign = (body: string) => `${body}6304${crc16CcittFalse(`${body}6304`).toString(16).toUpperCase().padStart(4, '0')}`
    const valid = buildBrCode(CHARGE)
    expect(() => parseBrCode('')).toThrow(/payload format/)
    expect(() => parseBrCode(valid.slice(0, -8))).toThrow(/CRC/)
    expect(() => parseBrCode('0002010199')).toThrow(/runs past the end/)
    expect(() => parseBrCode('000201xx')).toThrow(/Malformed field header/)
    expect(() => parseBrCode(sign('000201'))).toThrow(/Field 26 is missing/)
    const noGui = sign(valid.slice(0, -8).replace(`0014${PIX_GUI}`, '0014br.gov.bcb.xyz'))
    expect(() => parseBrCode(noGui)).toThrow(/br.gov.bcb.pix/)
    const dollars = valid.slice(0, -4).replace('5303986', '5303840')
    expect(() => parseBrCode(sign(dollars.slice(0, -4)))).toThrow(/currency/)
    const twice = sign(`${valid.slice(0, -8)}5802BR`)
    expect(() => parseBrCode(twice)).toThrow(/Field 58 appears more than once/)
  })
})
