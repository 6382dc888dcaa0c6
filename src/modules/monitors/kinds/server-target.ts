/**
 * The target of a server check (redis, postgres, smtp): "host", "host:port", "[v6]:port", or a URL
 * of one of the kind's schemes with credentials, a path and parameters. Pure.
 */
import { splitHostPort } from './kind.ts'

export interface ServerTarget {
  host: string
  port: number
  scheme: string | null
  username: string
  password: string
  /** The URL's path without its leading slash ('' for host:port). */
  path: string
  params: URLSearchParams
}

/** The parts of `target`; a URL of another scheme, or one that does not parse, leaves host empty (validate names it). */
export function parseServerTarget(target: string, schemes: readonly string[], defaultPort: number): ServerTarget {
  const empty = { scheme: null, username: '', password: '', path: '', params: new URLSearchParams() }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(target)?.[1]?.toLowerCase()
  if (scheme === undefined) {
    const split = splitHostPort(target)
    return { ...empty, host: split.host, port: split.port ?? defaultPort }
  }
  if (!schemes.includes(scheme) || !URL.canParse(target)) return { ...empty, host: '', port: defaultPort }
  const url = new URL(target)
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : defaultPort,
    scheme,
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    path: decodeURIComponent(url.pathname.replace(/^\//, '')),
    params: url.searchParams,
  }
}

/** The target with its password replaced by "***", for lists and messages. */
export function maskTargetPassword(target: string): string {
  return target.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*:)[^@/]*@/i, '$1***@')
}
