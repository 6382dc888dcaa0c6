/** Runs the real CLI (`bun src/cli.ts …`) as a subprocess against a database file. */
import { join } from 'node:path'

const CLI = join(import.meta.dir, '../../src/cli.ts')

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

export async function runCliProcess(args: string[], env: Record<string, string>): Promise<CliResult> {
  const proc = Bun.spawn([process.execPath, CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, stdout, stderr }
}
