/** Reading an exposition back in tests: its samples with labels parsed, and one sample's value. */

export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/** The samples of an exposition, labels parsed; comments skipped. */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match) throw new Error(`not an exposition line: ${line}`)
    const labels: Record<string, string> = {}
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!
    samples.push({ name: match[1]!, labels, value: Number(match[3]) })
  }
  return samples
}

/** The value of the one sample with this name whose labels include `labels` (0 when there is none). */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`)
  return found[0]?.value ?? 0
}

/** The samples with this name whose labels include `labels`. */
export function samplesOf(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
}

/** The families an exposition declares (its `# TYPE` lines), by name. */
export function familiesOf(text: string): Map<string, string> {
  const families = new Map<string, string>()
  for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) families.set(match[1]!, match[2]!)
  return families
}
