import { inflateSync } from 'node:zlib'

/**
 * Measures the quiet zone of a QR code as drawn (issue 41: ISO/IEC 18004 asks for 4 modules of
 * light around the symbol): for each edge, how many modules of light lie between it and the first
 * dark module. The symbol's own first and last rows and columns always hold a dark module (its
 * finder patterns), so this is the margin the drawing gave it. For tests; no decoder needed.
 */
export type QuietZone = { top: number; left: number; bottom: number; right: number }

/**
 * A `qrcode` SVG: a viewBox of the whole drawing in modules, and one stroked path of dark runs
 * ("M x y.5" to start a row, "m dx 0" to skip light modules, "h n" for n dark ones).
 */
export function svgQuietZone(svg: string): QuietZone & { size: number } {
  const box = /viewBox="0 0 (\d+) (\d+)"/.exec(svg)
  const path = /<path stroke="[^"]*" d="([^"]*)"/.exec(svg)
  if (!box || !path || box[1] !== box[2]) throw new Error('Not a square qrcode SVG with a path of dark modules.')
  const size = Number(box[1])
  let x = 0
  let y = 0
  const rows: number[] = []
  const starts: number[] = []
  const ends: number[] = []
  for (const [, command, a, b] of path[1]!.matchAll(/([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?/g)) {
    if (command === 'M') [x, y] = [Number(a), Number(b)]
    else if (command === 'm') [x, y] = [x + Number(a), y + Number(b ?? 0)]
    else {
      rows.push(Math.floor(y))
      starts.push(x)
      x += Number(a)
      ends.push(x)
    }
  }
  if (rows.length === 0) throw new Error('No dark module in the SVG.')
  return { size, top: Math.min(...rows), left: Math.min(...starts), bottom: size - 1 - Math.max(...rows), right: size - Math.max(...ends) }
}

/**
 * A PNG (8 bits a channel, not interlaced, as `qrcode` writes them), in modules: the light pixels
 * from each edge to the first dark one, over the width of one module, read from the top-left
 * finder pattern (its first row is 7 dark modules).
 */
export function pngQuietZone(png: Uint8Array): QuietZone {
  const bytes = Buffer.from(png)
  if (bytes.readUInt32BE(0) !== 0x89504e47) throw new Error('Not a PNG.')
  let width = 0
  let height = 0
  let channels = 0
  const data: Buffer[] = []
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at)
    const type = bytes.toString('ascii', at + 4, at + 8)
    const chunk = bytes.subarray(at + 8, at + 8 + length)
    if (type === 'IHDR') {
      width = chunk.readUInt32BE(0)
      height = chunk.readUInt32BE(4)
      const [depth, colour, , , interlace] = chunk.subarray(8)
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[colour!] ?? 0
      if (depth !== 8 || channels === 0 || interlace !== 0) throw new Error('Only 8-bit, non-interlaced grey or RGB(A) PNGs.')
    }
    if (type === 'IDAT') data.push(chunk)
    at += 12 + length
  }
  const raw = inflateSync(Buffer.concat(data))
  const stride = width * channels
  const pixels = Buffer.alloc(stride * height)
  for (let row = 0; row < height; row++) {
    const filter = raw[row * (stride + 1)]!
    const line = raw.subarray(row * (stride + 1) + 1, (row + 1) * (stride + 1))
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? pixels[row * stride + i - channels]! : 0
      const up = row > 0 ? pixels[(row - 1) * stride + i]! : 0
      const upLeft = row > 0 && i >= channels ? pixels[(row - 1) * stride + i - channels]! : 0
      const paeth = () => {
        const p = left + up - upLeft
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)]
        return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
      }
      const predictor = [0, left, up, (left + up) >> 1, filter === 4 ? paeth() : 0][filter]
      if (predictor === undefined) throw new Error(`Unknown PNG filter ${filter}.`)
      pixels[row * stride + i] = (line[i]! + predictor) & 0xff
    }
  }
  const dark = (x: number, y: number) => pixels[y * stride + x * channels]! < 128
  let [top, left, bottom, right] = [height, width, -1, -1]
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (dark(x, y)) [top, left, bottom, right] = [Math.min(top, y), Math.min(left, x), Math.max(bottom, y), Math.max(right, x)]
  if (bottom < 0) throw new Error('No dark pixel in the PNG.')
  let run = 0
  while (dark(left + run, top)) run++
  const module = run / 7
  const inModules = (pixelCount: number) => Math.round((pixelCount / module) * 100) / 100
  return { top: inModules(top), left: inModules(left), bottom: inModules(height - 1 - bottom), right: inModules(width - 1 - right) }
}
