/**
 * A Bun macro: `import { buildWidget } from './build.ts' with { type: 'macro' }` runs this at
 * transpile time (`bun src/main.ts`, `bun test`) and at bundle time (`bun build --compile`), and
 * inlines the returned string. So the built widget ships inside the program and a compiled binary
 * needs no source tree. Bun.build may not be called from inside a macro (the bundler would wait on
 * itself), so the macro runs build-cli.ts in a child Bun process.
 */
export function buildWidget(): string {
  const result = Bun.spawnSync([process.execPath, `${import.meta.dir}/build-cli.ts`], { stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0) throw new Error(`widget build failed: ${result.stderr.toString()}`)
  return result.stdout.toString()
}
