/**
 * Issue 25: serving a 1 MB range of a video. The same 1.5 MB file is put where the floor (the bare
 * Remix app: express.static of build/client) and the product (the app's /media proxy → the
 * provider's signed lesson media) serve it; each is then asked for bytes 0-1048575 many times.
 */
import { createHmac, hkdfSync, randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { BENCH_JWT_SECRET } from './lib/instance.mjs'

export const VIDEO_RANGE = 'bytes=0-1048575'
const FILE = 'bench-range-video.mp4'
const SIZE = 1.5 * 2 ** 20

/** The provider's signature (server/media/signed-urls.ts), computed here from the bench's secret. */
function signedPath(filePath, nowMs = Date.now()) {
  const key = Buffer.from(hkdfSync('sha256', BENCH_JWT_SECRET, Buffer.alloc(0), 'innera media urls', 32))
  const expires = (Math.floor(nowMs / 3_600_000) + 1) * 3_600 + 3 * 3_600
  const signature = createHmac('sha256', key).update(`${filePath}\n${expires}`).digest('hex')
  return `${filePath}?expires=${expires}&signature=${signature}`
}

/** Writes the file into the product's build copy and the floor's, and answers both paths. */
export function prepareVideoRange({ buildDir, floorDir }) {
  const bytes = randomBytes(SIZE)
  writeFileSync(path.join(buildDir, 'server/media/lessons', FILE), bytes)
  writeFileSync(path.join(floorDir, 'build/client', FILE), bytes)
  return { floorPath: `/${FILE}`, appPath: signedPath(`/media/lessons/${FILE}`) }
}
