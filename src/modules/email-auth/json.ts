/** The API shape of an email-auth report and of each part (snake_case names, absent fields left out). Pure. */
import type { Static } from 'elysia'
import type { DkimResult, DmarcResult, EmailAuthReport, SpfResult } from '../monitors/kinds/index.ts'
import type { EmailAuthReportJson } from './schemas.ts'

type ReportJson = Static<typeof EmailAuthReportJson>

export function spfJson(spf: SpfResult): ReportJson['spf'] {
  return { status: spf.status, reason: spf.reason, ...(spf.records ? { records: spf.records } : {}), ...(spf.lookups !== undefined ? { lookups: spf.lookups } : {}) }
}

export function dkimJson(dkim: DkimResult): ReportJson['dkim'] {
  return {
    status: dkim.status,
    reason: dkim.reason,
    selectors: dkim.selectors.map((s) => ({
      selector: s.selector,
      status: s.status,
      reason: s.reason,
      ...(s.records ? { records: s.records } : {}),
      ...(s.keyType ? { key_type: s.keyType } : {}),
      ...(s.bits !== undefined ? { bits: s.bits } : {}),
    })),
  }
}

export function dmarcJson(dmarc: DmarcResult): ReportJson['dmarc'] {
  return {
    status: dmarc.status,
    reason: dmarc.reason,
    ...(dmarc.records ? { records: dmarc.records } : {}),
    ...(dmarc.policy ? { policy: dmarc.policy } : {}),
    ...(dmarc.recordDomain ? { record_domain: dmarc.recordDomain } : {}),
    ...(dmarc.reporting ? { reporting: dmarc.reporting } : {}),
  }
}

export function emailAuthReportJson(report: EmailAuthReport): ReportJson {
  return { domain: report.domain, spf: spfJson(report.spf), dkim: dkimJson(report.dkim), dmarc: dmarcJson(report.dmarc) }
}
