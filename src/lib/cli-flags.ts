/**
 * Flags of the feature subcommands (`monitor …`, `page transfer …`) as `node:util` parseArgs gives
 * them, and the two readers they share. A missing required flag is a 400: the CLI prints its message
 * on one line and exits 1.
 */
import { badRequest } from './errors.ts'

export type Flags = Record<string, string | boolean | undefined>

/** A subcommand: its parseArgs options and what it runs against the services. */
export type CliCommand<S> = {
  options: Record<string, { type: 'string' | 'boolean'; short?: string }>
  /** `env`: the command's environment (what `${NAME}` references in a configuration file read). */
  run: (services: S, flags: Flags, env: Readonly<Record<string, string | undefined>>) => Promise<string>
}

export const text = (flags: Flags, name: string): string | undefined => (typeof flags[name] === 'string' ? (flags[name] as string) : undefined)

export function need(flags: Flags, name: string): string {
  const value = text(flags, name)
  if (!value) throw badRequest(`--${name} is required`)
  return value
}
