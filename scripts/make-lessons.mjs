// Makes the courses' lesson videos (server/media/lessons/) from the project's own text
// (server/courses/content.ts, decision 0057): `node scripts/make-lessons.mjs`. The files are
// committed, so `npm start` needs nothing else; run this again after changing a lesson's text.
// Needs Debian's ffmpeg (with ffprobe) and espeak-ng, and the DejaVu fonts. For every lesson:
//   - each slide's Portuguese text is narrated by espeak-ng (voice pt-br) and drawn by ffmpeg
//     (color, geq, drawbox, drawtext) at 960x540: the pillar's colour as circles, the course title
//     at the top, the heading, the text and a progress bar;
//   - {slug}.mp4: the slides and the narration, H.264 + AAC mono, small and "faststart";
//   - {slug}.jpg: the poster (the first slide);
//   - {slug}.{pt,en,es}.vtt: one caption cue per slide (pt is the narration, en and es its translation);
//   - manifest.json: each lesson's duration, size and cues.
// The output is the same on every run with the same ffmpeg, x264 and espeak-ng (bitexact flags, one
// encoder thread, no metadata). Lesson files whose lesson is gone are removed.
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { tsImport } from 'tsx/esm/api'

const { COURSES } = await tsImport('../server/courses/content.ts', import.meta.url)

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'server', 'media', 'lessons')
const FONTS = '/usr/share/fonts/truetype/dejavu'
const REGULAR = `${FONTS}/DejaVuSans.ttf`
const BOLD = `${FONTS}/DejaVuSans-Bold.ttf`
const WIDTH = 960
const HEIGHT = 540
const FPS = 12
/** Silence before and after each slide's narration: 0.6 s between two slides. */
const PAD = 0.3
const MARGIN = 64
const TEXT_WIDTH = WIDTH - 2 * MARGIN
/** The band the slide's heading and text share: the course title above, the progress bar below. */
const TEXT_TOP = 96
const TEXT_BOTTOM = 462
const CAPTION_LINE = 42
const BACKGROUND = [246, 244, 238]
const INK = '0x1f2a2e'
const BODY_INK = '0x34403f'
/** One colour per pillar, for the shapes, the accent and the progress bar. */
const PILLAR_COLOURS = { sono: [63, 90, 168], estresse: [47, 143, 131], alimento: [94, 154, 58], exercicio: [217, 96, 59] }
const LANGUAGES = ['pt', 'en', 'es']
const BITEXACT = ['-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact', '-map_metadata', '-1']

const run = promisify(execFile)
const tool = (command, args) => run(command, args, { maxBuffer: 16 * 1024 * 1024 })
const ffmpeg = (args) => tool('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args])

async function durationOf(file) {
  const { stdout } = await tool('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=noprint_wrappers=1:nokey=1', file])
  const seconds = Number(stdout.trim())
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`ffprobe gave no duration for ${file}: ${stdout}`)
  return seconds
}

/** Advance widths from a TrueType font's cmap (format 4) and hmtx tables, to wrap text as drawtext will draw it. */
function fontMetrics(file) {
  const font = readFileSync(file)
  const tables = {}
  for (let index = 0; index < font.readUInt16BE(4); index += 1) {
    const entry = 12 + 16 * index
    tables[font.toString('latin1', entry, entry + 4)] = font.readUInt32BE(entry + 8)
  }
  const unitsPerEm = font.readUInt16BE(tables.head + 18)
  const metricsCount = font.readUInt16BE(tables.hhea + 34)
  let subtable
  for (let index = 0; index < font.readUInt16BE(tables.cmap + 2); index += 1) {
    const record = tables.cmap + 4 + 8 * index
    if (font.readUInt16BE(record) === 3 && font.readUInt16BE(record + 2) === 1) subtable = tables.cmap + font.readUInt32BE(record + 4)
  }
  if (subtable === undefined || font.readUInt16BE(subtable) !== 4) throw new Error(`${file}: no Unicode BMP cmap`)
  const segmentsX2 = font.readUInt16BE(subtable + 6)
  const ends = subtable + 14
  const starts = ends + segmentsX2 + 2
  const deltas = starts + segmentsX2
  const rangeOffsets = deltas + segmentsX2
  const glyphOf = (code) => {
    for (let offset = 0; offset < segmentsX2; offset += 2) {
      if (code > font.readUInt16BE(ends + offset)) continue
      const start = font.readUInt16BE(starts + offset)
      if (code < start) return 0
      const delta = font.readInt16BE(deltas + offset)
      const rangeOffset = font.readUInt16BE(rangeOffsets + offset)
      if (rangeOffset === 0) return (code + delta) & 0xffff
      const glyph = font.readUInt16BE(rangeOffsets + offset + rangeOffset + 2 * (code - start))
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff
    }
    return 0
  }
  const advance = (glyph) => font.readUInt16BE(tables.hmtx + 4 * Math.min(glyph, metricsCount - 1))
  /** The width of `text` in pixels at `size`, without kerning (which only narrows it). */
  return (text, size) => {
    let units = 0
    for (const character of text) units += advance(glyphOf(character.codePointAt(0)))
    return (units * size) / unitsPerEm
  }
}

/** Greedy word wrap: `fits(line)` says whether a line may hold its words. */
function wrap(text, fits) {
  const lines = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const longer = line ? `${line} ${word}` : word
    if (line && !fits(longer)) {
      lines.push(line)
      line = word
    } else line = longer
  }
  if (line) lines.push(line)
  return lines
}

const hex = (rgb) => `0x${rgb.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`
const mix = (rgb, share) => rgb.map((channel, index) => Math.round(BACKGROUND[index] + (channel - BACKGROUND[index]) * share))

/** A file or font path inside a filter graph: only characters that need no escaping. */
function filterPath(path) {
  if (!/^[\w/.-]+$/.test(path)) throw new Error(`unexpected characters in ${path}`)
  return path
}

/**
 * The slide's background as one geq expression per channel: soft circles in the pillar's colour,
 * each `[x, y, radius, opacity]`, anti-aliased over one pixel.
 */
function backgroundFilter(colour) {
  const circles = [
    [880, 40, 230, 0.12],
    [930, 450, 110, 0.2],
    [20, 560, 90, 0.14],
  ]
  const channel = (index) => {
    let value = String(BACKGROUND[index])
    for (const [x, y, radius, opacity] of circles) {
      const coverage = `clip(${radius}-hypot(X-${x},Y-${y})+0.5,0,1)`
      value = `(${value})+(${colour[index]}-(${value}))*${opacity}*${coverage}`
    }
    return `'${value}'`
  }
  return `format=gbrp,geq=r=${channel(0)}:g=${channel(1)}:b=${channel(2)},format=rgb24`
}

const measureRegular = fontMetrics(REGULAR)
const measureBold = fontMetrics(BOLD)

const HEADING_SIZE = 42
const HEADING_LEADING = 52
const HEADING_GAP = 24

/** A slide's heading and text wrapped, the text's size shrinking until both fit the band. */
function fit(slide) {
  const headingLines = wrap(slide.heading.pt, (line) => measureBold(line, HEADING_SIZE) <= TEXT_WIDTH)
  for (const textSize of [30, 28, 26, 24, 22]) {
    const leading = Math.round(textSize * 1.45)
    const textLines = wrap(slide.text.pt, (line) => measureRegular(line, textSize) <= TEXT_WIDTH)
    const height = headingLines.length * HEADING_LEADING + HEADING_GAP + textLines.length * leading
    if (height <= TEXT_BOTTOM - TEXT_TOP) return { headingLines, textSize, textLines, leading, height }
  }
  throw new Error(`the slide "${slide.heading.pt}" does not fit: shorten its text`)
}

/**
 * The layout of a lesson's slides: every slide's block starts at the same height (so the heading
 * stays put from slide to slide), the lesson's tallest block a little above the band's middle.
 * Lines are placed by their baselines (`y=…-ascent`): drawtext puts a line's tallest glyph at `y`,
 * so an accented capital ("Água") would otherwise push its line down.
 */
function layoutLesson(lesson) {
  const fits = lesson.slides.map(fit)
  const tallest = Math.max(...fits.map((one) => one.height))
  const top = TEXT_TOP + Math.round((TEXT_BOTTOM - TEXT_TOP - tallest) * 0.4)
  return fits.map(({ headingLines, textSize, textLines, leading }) => {
    const textTop = top + headingLines.length * HEADING_LEADING + HEADING_GAP
    return {
      top,
      headingHeight: headingLines.length * HEADING_LEADING - 10,
      heading: headingLines.map((line, index) => ({ line, baseline: top + index * HEADING_LEADING + Math.round(HEADING_SIZE * 0.95) })),
      text: textLines.map((line, index) => ({ line, baseline: textTop + index * leading + Math.round(textSize * 0.95) })),
      textSize,
    }
  })
}

async function drawSlide({ course, lesson, lessonNumber, slideIndex, place, colour, dir, file }) {
  const filters = [backgroundFilter(colour)]
  let textFiles = 0
  const text = (content, { font, size, colour: fontColour, x, baseline }) => {
    const textFile = join(dir, `text-${slideIndex}-${(textFiles += 1)}.txt`)
    writeFileSync(textFile, content)
    filters.push(`drawtext=fontfile=${filterPath(font)}:textfile=${filterPath(textFile)}:expansion=none:fontsize=${size}:fontcolor=${fontColour}:x=${x}:y=${baseline}-ascent`)
  }
  text(`${course.title.pt}  ·  Aula ${lessonNumber}`, { font: BOLD, size: 19, colour: hex(colour), x: MARGIN, baseline: 58 })
  text('Innera', { font: REGULAR, size: 19, colour: hex(mix(colour, 0.8)), x: `w-tw-${MARGIN}`, baseline: 58 })
  filters.push(`drawbox=x=${MARGIN - 26}:y=${place.top + 6}:w=8:h=${place.headingHeight - 4}:color=${hex(colour)}:t=fill`)
  for (const { line, baseline } of place.heading) text(line, { font: BOLD, size: HEADING_SIZE, colour: INK, x: MARGIN, baseline })
  for (const { line, baseline } of place.text) text(line, { font: REGULAR, size: place.textSize, colour: BODY_INK, x: MARGIN, baseline })
  // The progress bar: one segment per slide, those up to this one in the pillar's colour.
  const count = lesson.slides.length
  const gap = 10
  const segment = Math.floor((TEXT_WIDTH - gap * (count - 1)) / count)
  for (let index = 0; index < count; index += 1) {
    const fill = index <= slideIndex ? colour : mix(colour, 0.25)
    filters.push(`drawbox=x=${MARGIN + index * (segment + gap)}:y=498:w=${segment}:h=8:color=${hex(fill)}:t=fill`)
  }
  text(`${slideIndex + 1}/${count}`, { font: REGULAR, size: 16, colour: hex(mix(colour, 0.8)), x: `w-tw-${MARGIN}`, baseline: 486 })
  await ffmpeg(['-f', 'lavfi', '-i', `color=c=${hex(BACKGROUND)}:s=${WIDTH}x${HEIGHT}:d=1`, '-vf', filters.join(','), '-frames:v', '1', '-update', '1', ...BITEXACT, file])
}

const timestamp = (seconds) => {
  const millis = Math.round(seconds * 1000)
  const part = (value, width) => String(value).padStart(width, '0')
  return `${part(Math.floor(millis / 3_600_000), 2)}:${part(Math.floor(millis / 60_000) % 60, 2)}:${part(Math.floor(millis / 1000) % 60, 2)}.${part(millis % 1000, 3)}`
}
const round = (seconds, digits) => Number(seconds.toFixed(digits))

function webVtt(cues) {
  const blocks = cues.map((cue, index) => `${index + 1}\n${timestamp(cue.start)} --> ${timestamp(cue.end)}\n${wrap(cue.text, (line) => line.length <= CAPTION_LINE).join('\n')}`)
  return `WEBVTT\n\n${blocks.join('\n\n')}\n`
}

async function makeLesson({ course, lesson, lessonNumber }) {
  const colour = PILLAR_COLOURS[course.pillarSlug]
  if (!colour) throw new Error(`no colour for the pillar ${course.pillarSlug}`)
  const dir = mkdtempSync(join(tmpdir(), 'make-lessons-'))
  try {
    const layouts = layoutLesson(lesson)
    const slides = []
    let start = 0
    for (const [slideIndex, slide] of lesson.slides.entries()) {
      const wav = join(dir, `narration-${slideIndex}.wav`)
      await tool('espeak-ng', ['-v', 'pt-br', '-s', '150', '-w', wav, slide.text.pt])
      const speech = await durationOf(wav)
      // A whole number of frames, so that sound and picture change slides together.
      const duration = Math.ceil((speech + 2 * PAD) * FPS) / FPS
      const png = join(dir, `slide-${slideIndex}.png`)
      await drawSlide({ course, lesson, lessonNumber, slideIndex, place: layouts[slideIndex], colour, dir, file: png })
      slides.push({ slide, wav, png, start, duration })
      start += duration
    }
    const inputs = []
    const graph = []
    for (const { png, duration } of slides) inputs.push('-loop', '1', '-framerate', String(FPS), '-t', duration.toFixed(6), '-i', png)
    for (const { wav } of slides) inputs.push('-i', wav)
    for (const [index, { duration }] of slides.entries()) {
      graph.push(`[${index}:v]format=yuv420p,setsar=1[v${index}]`)
      graph.push(`[${slides.length + index}:a]aresample=22050,adelay=delays=${PAD * 1000}:all=1,apad,atrim=end=${duration.toFixed(6)},asetpts=N/SR/TB[a${index}]`)
    }
    graph.push(`${slides.map((_, index) => `[v${index}][a${index}]`).join('')}concat=n=${slides.length}:v=1:a=1[v][a]`)
    const mp4 = join(OUT, `${lesson.slug}.mp4`)
    await ffmpeg([
      ...inputs,
      '-filter_complex',
      graph.join(';'),
      '-map',
      '[v]',
      '-map',
      '[a]',
      '-c:v',
      'libx264',
      '-threads',
      '1',
      '-preset',
      'slow',
      '-tune',
      'stillimage',
      '-crf',
      '28',
      '-pix_fmt',
      'yuv420p',
      '-r',
      String(FPS),
      // A key frame at least every 20 s; x264 adds one at every slide change anyway.
      '-g',
      String(FPS * 20),
      '-c:a',
      'aac',
      // ffmpeg's AAC encoder overshoots: 40k gives about 45 kb/s, plenty for a synthetic voice.
      '-b:a',
      '40k',
      '-ac',
      '1',
      '-movflags',
      '+faststart',
      ...BITEXACT,
      mp4,
    ])
    await ffmpeg(['-i', slides[0].png, '-frames:v', '1', '-update', '1', '-q:v', '5', '-pix_fmt', 'yuvj420p', ...BITEXACT, join(OUT, `${lesson.slug}.jpg`)])
    const cues = {}
    for (const language of LANGUAGES) {
      cues[language] = slides.map(({ slide, start: from, duration }) => ({ start: round(from, 3), end: round(from + duration, 3), text: slide.text[language] }))
      writeFileSync(join(OUT, `${lesson.slug}.${language}.vtt`), webVtt(cues[language]))
    }
    return { duration_seconds: round(await durationOf(mp4), 1), bytes: statSync(mp4).size, cues }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

mkdirSync(OUT, { recursive: true })
const lessons = COURSES.flatMap((course) => course.lessons.map((lesson, index) => ({ course, lesson, lessonNumber: index + 1 })))
const manifest = {}
for (const entry of lessons) {
  const made = await makeLesson(entry)
  manifest[entry.lesson.slug] = made
  console.log(`${entry.lesson.slug}: ${made.duration_seconds.toFixed(1)} s, ${(made.bytes / 1024).toFixed(0)} kB`)
}
const sorted = Object.fromEntries(Object.keys(manifest).sort().map((slug) => [slug, manifest[slug]]))
writeFileSync(join(OUT, 'manifest.json'), `${JSON.stringify(sorted, null, 2)}\n`)
// Files of lessons that no longer exist.
const slugs = new Set(Object.keys(manifest))
for (const file of readdirSync(OUT)) {
  const match = /^(.+?)\.(mp4|jpg|pt\.vtt|en\.vtt|es\.vtt)$/.exec(file)
  if (match && !slugs.has(match[1])) {
    rmSync(join(OUT, file))
    console.log(`removed ${file}: no such lesson`)
  }
}
const total = readdirSync(OUT).reduce((sum, file) => sum + statSync(join(OUT, file)).size, 0)
console.log(`made ${lessons.length} lessons in ${OUT} (${(total / 1024 / 1024).toFixed(2)} MB in all)`)
