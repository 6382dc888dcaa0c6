/**
 * `bun run bench [name…]`: runs every `test/bench/*.bench.ts` (or those whose name contains one of
 * the arguments) one after another, each in its own process.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

const folder = import.meta.dir
const filters = process.argv.slice(2)
const files = readdirSync(folder)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort()

if (files.length === 0) {
  console.error(`bench: nothing matches ${filters.join(', ')}`)
  process.exit(1)
}
let failed = false
for (const file of files) {
  console.log(`\n# ${file}`)
  const proc = Bun.spawn([process.execPath, join(folder, file)], { stdout: 'inherit', stderr: 'inherit' })
  if ((await proc.exited) !== 0) failed = true
}
process.exit(failed ? 1 : 0)
