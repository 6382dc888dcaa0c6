/**
 * The email-auth monitor type as the monitors engine sees it: the spec made from a stored
 * definition (target = the domain, option `dkim_selectors`) and its field-named problems. Pure.
 */
import type { AddressGuard } from '../../../../lib/address-guard.ts'
import type { MonitorDefinition } from '../../definition.ts'
import { resolverProblems } from '../dns.ts'
import type { MonitorKind } from '../kind.ts'
import { fieldChecks, type SpecProblem } from '../validate.ts'
import { normalizeDomain, runEmailAuthCheck, type EmailAuthSpec } from './check.ts'
import { MAX_SELECTORS, SELECTOR_PATTERN } from './dkim.ts'

/** A mail domain: at least two labels, letters, digits, hyphens (IDNs in their xn-- form). */
export const MAIL_DOMAIN = /^(?=.{1,253}$)(?:(?!-)[a-z0-9-]{1,63}(?<!-)\.)+(?!-)[a-z0-9-]{2,63}(?<!-)$/

/**
 * What an email-auth monitor starts with unless the owner says otherwise: no whole-run retries (each
 * DNS question is retried inside the check). Its interval defaults to 6 hours (defaultIntervalSeconds).
 */
export const EMAIL_AUTH_DEFAULTS = { retries: 0 } as const

export function emailAuthSpec(definition: MonitorDefinition): EmailAuthSpec {
  const o = definition.options
  return {
    type: 'email_auth',
    domain: normalizeDomain(definition.target ?? ''),
    selectors: o.dkim_selectors ?? [],
    timeoutMs: definition.timeoutMs,
    degradedAfterMs: definition.degradedAfterMs,
    ...(o.resolver ? { resolver: o.resolver } : {}),
  }
}

export function validateEmailAuthSpec(spec: EmailAuthSpec, guard: AddressGuard): SpecProblem[] {
  const check = fieldChecks(guard)
  const { problems } = check
  if (typeof spec.domain !== 'string' || !MAIL_DOMAIN.test(normalizeDomain(spec.domain))) problems.push({ field: 'domain', message: 'must be a domain name such as example.com' })
  const selectors = spec.selectors ?? []
  if (selectors.length > MAX_SELECTORS) problems.push({ field: 'selectors', message: `at most ${MAX_SELECTORS} selectors` })
  for (const selector of selectors) {
    if (typeof selector !== 'string' || !SELECTOR_PATTERN.test(selector)) {
      problems.push({ field: 'selectors', message: `"${String(selector).slice(0, 63)}" is not a selector (letters, digits, - and _, dot-separated)` })
      break
    }
  }
  resolverProblems(check, spec.resolver)
  return problems
}

/** email_auth: a mail domain's SPF, DKIM and DMARC records. Its verdict does not depend on where it is asked from. */
export const emailAuthKind: MonitorKind<EmailAuthSpec> = { type: 'email_auth', toSpec: emailAuthSpec, validate: validateEmailAuthSpec, run: runEmailAuthCheck, probeable: false }
