/**
 * What an email-authentication check reports: one verdict per part (SPF, DKIM, DMARC) with the
 * reason, in four statuses (pass, warning, fail, missing) plus `error` for a part the DNS could not
 * answer even after the retries (nothing is claimed about it). Pure.
 */
export type AuthStatus = 'pass' | 'warning' | 'fail' | 'missing' | 'error'

export const AUTH_STATUSES: readonly AuthStatus[] = ['pass', 'warning', 'fail', 'missing', 'error']

export interface PartResult {
  status: AuthStatus
  /** One sentence for the owner. */
  reason: string
  /** The record(s) read, as published (joined per record). */
  records?: string[]
}

export interface SpfResult extends PartResult {
  /** DNS-querying terms counted, nested includes and redirects too (limit 10). */
  lookups?: number
}

export interface DkimSelectorResult extends PartResult {
  selector: string
  keyType?: string
  bits?: number
}

export interface DkimResult extends PartResult {
  selectors: DkimSelectorResult[]
}

export interface DmarcResult extends PartResult {
  policy?: string
  /** Where the record was found (the domain itself or its organizational domain). */
  recordDomain?: string
  reporting?: Array<{ uri: string; kind: 'rua' | 'ruf'; external: boolean; authorised: boolean | null }>
}

export interface EmailAuthReport {
  domain: string
  spf: SpfResult
  dkim: DkimResult
  dmarc: DmarcResult
}

const RANK: Record<AuthStatus, number> = { pass: 0, warning: 1, missing: 2, fail: 3, error: 4 }

/** The worst of the statuses (error outranks all: the result is unknown). */
export function worst(statuses: readonly AuthStatus[]): AuthStatus {
  return statuses.reduce<AuthStatus>((a, b) => (RANK[b] > RANK[a] ? b : a), 'pass')
}

export const LABEL: Record<AuthStatus, string> = { pass: 'Pass', warning: 'Warning', fail: 'Fail', missing: 'Missing', error: 'DNS error' }

/** One line, stable while nothing changes: what a change notice compares. */
export function summaryOf(report: EmailAuthReport): string {
  return (['spf', 'dkim', 'dmarc'] as const).map((part) => `${part.toUpperCase()} ${report[part].status}`).join(', ')
}

/** The monitor's one-line message: each part's status, with its reason unless it passed. */
export function messageOf(report: EmailAuthReport): string {
  return (['spf', 'dkim', 'dmarc'] as const)
    .map((part) => {
      const result = report[part]
      return result.status === 'pass' ? `${part.toUpperCase()} pass` : `${part.toUpperCase()} ${result.status}: ${result.reason}`
    })
    .join(' · ')
}

/** Did any part fail to answer (nothing is known about it)? */
export const hasDnsError = (report: EmailAuthReport): boolean => report.spf.status === 'error' || report.dkim.status === 'error' || report.dmarc.status === 'error'
