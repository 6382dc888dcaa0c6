/**
 * Secrets in the file: written as `${NAME}` references, never as values. Export names them after
 * the object and the field (`LANTERN_CHANNEL_OPS_SLACK_URL`); apply reads them from the environment
 * it is given. Pure.
 */
import { badRequest } from '../../lib/errors.ts'

const REFERENCE = /\$\{([A-Z_][A-Z0-9_]{0,127})\}/g

/** Headers whose values are credentials: exported as references like channel secrets. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key)$|token|secret|key|password|auth/i

export const isSecretHeader = (name: string): boolean => SECRET_HEADER.test(name)

/** `Ops Slack` → `OPS_SLACK`: the part of an environment variable's name an object gives. */
export function envPart(name: string): string {
  const part = name.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '')
  return part === '' ? 'X' : part
}

export const channelVariable = (channel: string, field: string): string => `LANTERN_CHANNEL_${envPart(channel)}_${envPart(field)}`
export const monitorVariable = (monitor: string, field: string): string => `LANTERN_MONITOR_${envPart(monitor)}_${envPart(field)}`

export const reference = (variable: string): string => `\${${variable}}`

/** A URL with a password in it (redis://user:secret@host, postgres://…): the whole target is a secret. */
export function hasCredentials(target: string | null | undefined): boolean {
  if (!target || !URL.canParse(target)) return false
  const url = new URL(target)
  return url.password !== '' || url.username !== ''
}

/**
 * Replaces every `${NAME}` in the strings of `value` with `env[NAME]`. All missing names are
 * named in one 400, and nothing is applied.
 */
export function resolveReferences<T>(value: T, env: Readonly<Record<string, string | undefined>>): T {
  const missing = new Set<string>()
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') {
      return node.replace(REFERENCE, (whole, name: string) => {
        const found = env[name]
        if (found === undefined) {
          missing.add(name)
          return whole
        }
        return found
      })
    }
    if (Array.isArray(node)) return node.map(walk)
    if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, inner]) => [key, walk(inner)]))
    return node
  }
  const resolved = walk(value) as T
  if (missing.size > 0) {
    const names = [...missing].sort()
    throw badRequest(`the file refers to ${names.length === 1 ? 'a secret' : 'secrets'} without a value: ${names.join(', ')} (set ${names.length === 1 ? 'it' : 'them'} in the environment; nothing was applied)`)
  }
  return resolved
}
