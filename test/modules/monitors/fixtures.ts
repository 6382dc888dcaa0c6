/** Real local targets for monitor checks: a throwaway PKI (openssl), a DNS server on 127.0.0.1, deps. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import DNS from 'dns2'
import { createAddressGuard, type AddressGuard, type PrivateTargets } from '../../../src/lib/address-guard.ts'
import { systemResolve } from '../../../src/lib/dns/system.ts'
import type { CheckDeps } from '../../../src/modules/monitors/kinds/spec.ts'
import { ManualClock } from '../../helpers/clock.ts'

export interface TestPki {
  ca: string
  cert: string
  key: string
  /** The leaf's notAfter in ms, as openssl wrote it. */
  notAfter: number
}

/** A CA and a leaf for `names` valid `days` days, made by openssl in a temp dir that is removed. */
export function makeTestPki(names: string[], days: number): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-pki-'))
  try {
    const run = (...args: string[]) => {
      const result = Bun.spawnSync(['openssl', ...args], { cwd: dir, stderr: 'pipe' })
      if (result.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr.toString()}`)
      return result.stdout.toString()
    }
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
    run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '30', '-subj', '/CN=Lantern Test CA')
    run('req', ...ec, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', `/CN=${names[0]}`)
    const san = names.map((name) => (/^[\d.]+$|:/.test(name) ? `IP:${name}` : `DNS:${name}`)).join(',')
    writeFileSync(join(dir, 'ext.cnf'), `subjectAltName=${san}\n`)
    run('x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'leaf.pem', '-days', String(days), '-extfile', 'ext.cnf')
    const notAfter = Date.parse(run('x509', '-in', 'leaf.pem', '-noout', '-enddate').trim().replace(/^notAfter=/, ''))
    return { ca: readFileSync(join(dir, 'ca.pem'), 'utf8'), cert: readFileSync(join(dir, 'leaf.pem'), 'utf8'), key: readFileSync(join(dir, 'leaf.key'), 'utf8'), notAfter }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Deps whose resolver knows only `names` (name → addresses); everything else is NXDOMAIN. */
export function testDeps(options: { allowPrivate: PrivateTargets; names?: Record<string, string[]>; trustedCa?: string; clock?: ManualClock; dnsServers?: string[] }): CheckDeps & { lookups: string[] } {
  const lookups: string[] = []
  const names = options.names ?? {}
  const resolve = async (host: string) => {
    lookups.push(host)
    const found = names[host]
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
    return found
  }
  return {
    guard: createAddressGuard({ resolve, allowPrivate: options.allowPrivate }),
    clock: options.clock ?? new ManualClock(),
    lookups,
    ...(options.trustedCa ? { trustedCa: options.trustedCa } : {}),
    ...(options.dnsServers ? { dnsServers: options.dnsServers } : {}),
  }
}

export type DnsAnswer = { type: 'A' | 'AAAA'; address: string } | { type: 'CNAME'; domain: string } | { type: 'MX'; exchange: string; priority: number } | { type: 'TXT'; data: string[] }

export interface TestDnsServer {
  /** "127.0.0.1:port" */
  address: string
  queries: number
  close(): Promise<void>
}

/** An in-process UDP DNS server on 127.0.0.1 answering from `zone` (name → answers); unknown names are NXDOMAIN. */
export async function startDnsServer(zone: Record<string, DnsAnswer[]>, options: { delayMs?: number } = {}): Promise<TestDnsServer> {
  const { Packet } = DNS
  const state = { queries: 0 }
  const server = DNS.createServer({
    udp: true,
    handle: async (request, send) => {
      state.queries++
      const response = Packet.createResponseFromRequest(request)
      const [question] = request.questions
      const answers = zone[question!.name.toLowerCase()]
      if (!answers) response.header.rcode = Packet.RCODE.NXDOMAIN
      for (const answer of answers ?? []) {
        const type = Packet.TYPE[answer.type]
        if (type !== question!.type && answer.type !== 'CNAME') continue
        response.answers.push({ name: question!.name, class: Packet.CLASS.IN, ttl: 60, ...answer, type } as never)
      }
      if (options.delayMs) await Bun.sleep(options.delayMs)
      send(response)
    },
  })
  const listening = await server.listen({ udp: { port: 0, address: '127.0.0.1' } })
  const port = (listening.udp as { port: number }).port
  return {
    address: `127.0.0.1:${port}`,
    get queries() {
      return state.queries
    },
    close: () => server.close(),
  }
}

/**
 * Check deps whose MONITOR_PRIVATE_TARGETS can be switched, as a restart with the other setting
 * would: the system resolver (so `localhost` is the machine's loopback) behind the real guard.
 */
export function switchablePrivateTargets(initial: boolean): CheckDeps & { setAllowPrivate(allow: boolean): void } {
  const guards = {
    on: createAddressGuard({ resolve: systemResolve, allowPrivate: true }),
    off: createAddressGuard({ resolve: systemResolve, allowPrivate: false }),
  }
  let current = initial ? guards.on : guards.off
  const guard: AddressGuard = {
    get allowPrivate() {
      return current.allowPrivate
    },
    check: (host, signal) => current.check(host, signal),
    refusesLiteral: (host) => current.refusesLiteral(host),
  }
  return {
    guard,
    clock: new ManualClock(),
    setAllowPrivate(allow) {
      current = allow ? guards.on : guards.off
    },
  }
}
