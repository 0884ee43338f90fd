/**
 * A strict reader of Prometheus' text exposition format (version 0.0.4), for the metrics tests of
 * the provider and the app: every line is a `# HELP`, a `# TYPE` or a sample of a declared family,
 * or it throws, naming the line. prom-client writes the format but has no reader of it.
 */
export type Sample = { name: string; labels: Record<string, string>; value: number }
export type Exposition = { samples: Sample[]; types: Map<string, string>; series: Set<string> }

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*'
const HELP = new RegExp(`^# HELP (${NAME}) .*$`)
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`)
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (-?(?:\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?|[Nn]a[Nn]|\\+Inf|-Inf))(?: -?\\d+)?$`)
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"(?:,|$)/

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = []
  const types = new Map<string, string>()
  const series = new Set<string>()
  for (const [index, line] of text.split('\n').entries()) {
    if (line === '' || HELP.test(line)) continue
    const type = TYPE.exec(line)
    if (type) {
      types.set(type[1]!, type[2]!)
      continue
    }
    const sample = SAMPLE.exec(line)
    if (!sample) throw new Error(`line ${index + 1} is not in the exposition format: ${line}`)
    const name = sample[1]!
    const family = [name, name.replace(/_(bucket|sum|count|total|created)$/, '')].find((candidate) => types.has(candidate))
    if (!family) throw new Error(`line ${index + 1}: ${name} has no # TYPE before it`)
    const labels: Record<string, string> = {}
    let rest = sample[2] ?? ''
    while (rest !== '') {
      const label = LABEL.exec(rest)
      if (!label) throw new Error(`line ${index + 1}: bad labels ${sample[2]}`)
      labels[label[1]!] = label[2]!.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1')
      rest = rest.slice(label[0].length)
    }
    samples.push({ name, labels, value: /^nan$/i.test(sample[3]!) ? Number.NaN : Number(sample[3]!.replace('+Inf', 'Infinity').replace('-Inf', '-Infinity')) })
    series.add(line.slice(0, line.lastIndexOf(' ')))
  }
  return { samples, types, series }
}

/** The sum of a series' samples whose labels include `labels` (0 when there is none). */
export function valueOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  return exposition.samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0)
}
