/**
 * Bench-only: a copy of this checkout's server with the owner routes' role guard and audit row
 * skipped, as the baseline of `teams.bench.ts`. Nothing in the application can switch them off: the
 * copy (src/ and db/, node_modules linked) gets a rewritten `src/modules/accounts/auth.ts`, and the
 * copy fails when that file no longer holds the two places it skips, so a changed guard never lets
 * the baseline silently measure the guarded build.
 */
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const SKIPS: ReadonlyArray<[string, string]> = [
  // The role guard (permission, two-factor): a function that does nothing, the real one renamed.
  ['export async function authorize(', 'export async function authorize(): Promise<void> {}\nasync function authorizeSkippedByBench('],
  // The audit row after a successful write: never written.
  ['await accounts.audit?.recordRequest(', 'await undefined?.recordRequest('],
]

/** Writes the unguarded copy into `dir` and returns the path of its `src/main.ts`. */
export function writeUnguardedTree(dir: string): string {
  const root = join(import.meta.dir, '..', '..')
  cpSync(join(root, 'src'), join(dir, 'src'), { recursive: true })
  cpSync(join(root, 'db'), join(dir, 'db'), { recursive: true })
  for (const file of ['package.json', 'tsconfig.json', 'bunfig.toml']) if (existsSync(join(root, file))) cpSync(join(root, file), join(dir, file))
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  const auth = join(dir, 'src', 'modules', 'accounts', 'auth.ts')
  let contents = readFileSync(auth, 'utf8')
  for (const [from, to] of SKIPS) {
    if (contents.split(from).length !== 2) throw new Error(`unguarded-build.ts: auth.ts no longer holds exactly one "${from}"`)
    contents = contents.replace(from, to)
  }
  writeFileSync(auth, contents)
  return join(dir, 'src', 'main.ts')
}
