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

/**
 * The dashboard's formatters (src/assets/analytics/format.js) as text, for browsers. Not an import
 * with `type: 'text'`: the server imports that file as a module too (it writes the dashboard's first
 * figures with it), and the bundler of the compiled binary takes a file one way only.
 */
export function analyticsFormatModule(): string {
  return readFileSync(`${import.meta.dir}/../assets/analytics/format.js`, 'utf8')
}
