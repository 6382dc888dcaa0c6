/**
 * Domain expiry over RDAP: the registry's RDAP service for the domain's TLD (IANA's bootstrap data,
 * rdap/bootstrap.ts) is asked for the domain (RFC 9082), through the address guard, and the
 * registration's `expiration` event is compared with the injected clock: degraded at 30, 14 and 7 days
 * left, failed once expired. A TLD without an RDAP service is misconfigured, never down.
 */
import { counted } from '../../../lib/words.ts'
import { isIpLiteral, type AddressGuard } from '../../../lib/address-guard.ts'
import { DAY_MS } from '../../../lib/time.ts'
import type { MonitorDefinition } from '../definition.ts'
import { misconfiguredResult, thrownResult } from './failure.ts'
import { fetchAt, readLimited } from './http.ts'
import { commonSpec, type MonitorKind } from './kind.ts'
import { rdapBaseFor, rdapDomainUrl, SHIPPED_BOOTSTRAP } from './rdap/bootstrap.ts'
import { clipMessage, DEFAULTS, type CheckDeps, type CheckResult, type DomainExpirySpec } from './spec.ts'
import { DNS_NAME, fieldChecks, type SpecProblem } from './validate.ts'

const MAX_RDAP_REDIRECTS = 3
const REDIRECTS = new Set([301, 302, 303, 307, 308])
const NO_RDAP_FIX = "watch this domain's expiry at its registrar; if the registry has started an RDAP service since, refresh the bootstrap data with `lantern rdap-refresh`"

/** Lower case, no trailing dot, internationalized names in their ASCII (punycode) form; null when not a name. */
export function normalizeDomainName(value: string): string | null {
  const trimmed = value.trim().replace(/\.$/, '')
  if (!trimmed || /[/:@?#\s]/.test(trimmed)) return null
  try {
    const ascii = new URL(`http://${trimmed}/`).hostname
    return DNS_NAME.test(ascii) && ascii.includes('.') && !isIpLiteral(ascii) ? ascii : null
  } catch {
    return null
  }
}

export async function runDomainExpiryCheck(spec: DomainExpirySpec, deps: CheckDeps): Promise<CheckResult> {
  const elapsed = deps.elapsed ?? (() => performance.now())
  const started = elapsed()
  const domain = normalizeDomainName(spec.domain)
  if (!domain) return misconfiguredResult(`${JSON.stringify(spec.domain.slice(0, 100))} is not a domain name`, "edit the monitor's target")
  const bootstrap = deps.rdapBootstrap ? await deps.rdapBootstrap() : SHIPPED_BOOTSTRAP
  const base = rdapBaseFor(bootstrap, domain)
  const tld = domain.slice(domain.lastIndexOf('.') + 1)
  if (!base) {
    return misconfiguredResult(`.${tld} has no RDAP service in IANA's bootstrap data (published ${bootstrap.publication.slice(0, 10)}), so its expiry cannot be read`, NO_RDAP_FIX, { tld })
  }
  const signal = AbortSignal.timeout(spec.timeoutMs)
  let url = rdapDomainUrl(base, domain)
  let response: Response
  let redirects = 0
  try {
    for (;;) {
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return failure(`the RDAP service sent a ${url.protocol} URL`)
      const checked = await deps.guard.check(url.hostname, signal)
      const headers = new Headers({ accept: 'application/rdap+json, application/json' })
      if (deps.userAgent) headers.set('user-agent', deps.userAgent)
      response = await fetchAt(url, checked.address, { method: 'GET', headers, body: undefined, signal, trustedCa: deps.trustedCa })
      const location = response.headers.get('location')
      if (!REDIRECTS.has(response.status) || location === null) break
      await response.body?.cancel()
      if (redirects++ >= MAX_RDAP_REDIRECTS) return failure(`the RDAP service redirected more than ${MAX_RDAP_REDIRECTS} times`)
      url = new URL(location, url)
    }
  } catch (error) {
    return thrownResult(error, signal, spec.timeoutMs, { allowPrivate: deps.guard.allowPrivate, context: `RDAP service ${url.host}` })
  }
  const responseTimeMs = Math.round(elapsed() - started)
  const server = url.host
  if (response.status === 404) {
    await response.body?.cancel()
    return { outcome: 'fail', responseTimeMs, statusCode: 404, message: clipMessage(`the .${tld} registry (${server}) has no registration for ${domain}`), details: { rdapServer: server } }
  }
  if (!response.ok) {
    await response.body?.cancel()
    return { outcome: 'fail', responseTimeMs, statusCode: response.status, message: clipMessage(`the RDAP service ${server} answered HTTP ${response.status}`), details: { rdapServer: server } }
  }
  let record: RdapDomain
  try {
    const body = await readLimited(response, DEFAULTS.bodyLimitBytes)
    if (body.truncated) return failure(`the RDAP answer from ${server} is larger than 1 MiB`)
    record = JSON.parse(body.text) as RdapDomain
  } catch (error) {
    return signal.aborted ? failure(`timed out after ${spec.timeoutMs} ms`) : failure(`the RDAP service ${server} did not answer JSON`)
  }
  const expiration = (Array.isArray(record?.events) ? record.events : []).find((e) => typeof e?.eventAction === 'string' && e.eventAction.toLowerCase() === 'expiration')
  const expiresAt = typeof expiration?.eventDate === 'string' ? Date.parse(expiration.eventDate) : Number.NaN
  const registrar = registrarName(record)
  if (Number.isNaN(expiresAt)) {
    return misconfiguredResult(`the .${tld} registry's RDAP answer for ${domain} has no expiration date`, 'watch this domain\'s expiry at its registrar', { rdapServer: server })
  }
  const daysLeft = Math.floor((expiresAt - deps.clock.now()) / DAY_MS)
  const on = new Date(expiresAt).toISOString().slice(0, 10)
  const details = { expiresAt: new Date(expiresAt).toISOString(), daysLeft, rdapServer: server, registrar }
  const result = (outcome: CheckResult['outcome'], message: string): CheckResult => ({ outcome, responseTimeMs, statusCode: response.status, message: clipMessage(message), details })
  if (expiresAt <= deps.clock.now()) return result('fail', `${domain} expired on ${on}`)
  const warning = [...DEFAULTS.domainExpiryWarnDays].sort((a, b) => a - b).find((days) => daysLeft < days)
  const left = `${domain} expires in ${counted(daysLeft, 'day')} (${on})`
  if (warning !== undefined) return result('degraded', `${left}: under ${warning} days, renew it`)
  const slow = spec.degradedAfterMs != null && responseTimeMs > spec.degradedAfterMs
  return result(slow ? 'degraded' : 'ok', slow ? `${left}, RDAP answer slower than ${spec.degradedAfterMs} ms` : left)
}

interface RdapDomain {
  events?: Array<{ eventAction?: unknown; eventDate?: unknown }>
  entities?: Array<{ roles?: unknown; vcardArray?: unknown }>
}

/** The registrar's name from its vCard (jCard, RFC 7095), when the answer has one. */
function registrarName(record: RdapDomain): string | null {
  const entity = (Array.isArray(record?.entities) ? record.entities : []).find((e) => Array.isArray(e?.roles) && e.roles.includes('registrar'))
  const card = Array.isArray(entity?.vcardArray) ? (entity.vcardArray[1] as unknown) : undefined
  if (!Array.isArray(card)) return null
  const fn = card.find((p) => Array.isArray(p) && p[0] === 'fn')
  return Array.isArray(fn) && typeof fn[3] === 'string' ? fn[3].slice(0, 200) : null
}

function failure(message: string): CheckResult {
  return { outcome: 'fail', responseTimeMs: null, message: clipMessage(message) }
}

function domainExpirySpec(definition: MonitorDefinition): DomainExpirySpec {
  return { type: 'domain_expiry', domain: definition.target ?? '', ...commonSpec(definition) }
}

function validateDomainExpirySpec(spec: DomainExpirySpec, guard: AddressGuard): SpecProblem[] {
  const check = fieldChecks(guard)
  if (!normalizeDomainName(spec.domain)) check.problem('domain', 'must be a registered domain name, e.g. example.com')
  return check.problems
}

/** domain_expiry: the registration's expiry date, read over RDAP from the TLD's registry. */
export const domainExpiryKind: MonitorKind<DomainExpirySpec> = {
  type: 'domain_expiry',
  toSpec: domainExpirySpec,
  validate: validateDomainExpirySpec,
  run: runDomainExpiryCheck,
  probeable: false,
}
