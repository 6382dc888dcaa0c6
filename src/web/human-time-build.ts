/**
 * A Bun macro: `import { humanTimeModule } from './human-time-build.ts' with { type: 'macro' }`
 * inlines src/lib/human-time.ts with its types stripped, at transpile and bundle time, so browsers
 * get the server's own formatter of dates for people and a compiled binary needs no source tree.
 */
import { readFileSync } from 'node:fs'

export function humanTimeModule(): string {
  const source = readFileSync(`${import.meta.dir}/../lib/human-time.ts`, 'utf8')
  return new Bun.Transpiler({ loader: 'ts' }).transformSync(source)
}
