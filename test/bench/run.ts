/**
 * `bun run bench [name…]`: runs every `test/bench/*.bench.ts` (or those whose name contains one of
 * the arguments) one after another, each in its own process. `reads` (every warm public read against
 * a bare Bun.serve, each in its own process) comes first; `bun run bench reads` runs only it (under 3 minutes).
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

const folder = import.meta.dir
const FIRST = 'reads.bench.ts'
const filters = process.argv.slice(2)
const files = readdirSync(folder)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort()
  .sort((a, b) => Number(b === FIRST) - Number(a === FIRST))

if (files.length === 0) {
  console.error(`bench: nothing matches ${filters.join(', ')}`)
  process.exit(1)
}
let failed = false
const started = performance.now()
for (const file of files) {
  console.log(`\n# ${file} (at ${((performance.now() - started) / 1000).toFixed(0)} s)`)
  const proc = Bun.spawn([process.execPath, join(folder, file)], { stdout: 'inherit', stderr: 'inherit' })
  if ((await proc.exited) !== 0) failed = true
}
process.exit(failed ? 1 : 0)
