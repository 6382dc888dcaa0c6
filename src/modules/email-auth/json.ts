/** The API shape of an email-auth report (snake_case names, absent fields left out). Pure. */
import type { Static } from 'elysia'
import type { EmailAuthReport } from './model.ts'
import type { EmailAuthReportJson } from './schemas.ts'

export function emailAuthReportJson(report: EmailAuthReport): Static<typeof EmailAuthReportJson> {
  const { spf, dkim, dmarc } = report
  return {
    domain: report.domain,
    spf: { status: spf.status, reason: spf.reason, ...(spf.records ? { records: spf.records } : {}), ...(spf.lookups !== undefined ? { lookups: spf.lookups } : {}) },
    dkim: {
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
    },
    dmarc: {
      status: dmarc.status,
      reason: dmarc.reason,
      ...(dmarc.records ? { records: dmarc.records } : {}),
      ...(dmarc.policy ? { policy: dmarc.policy } : {}),
      ...(dmarc.recordDomain ? { record_domain: dmarc.recordDomain } : {}),
      ...(dmarc.reporting ? { reporting: dmarc.reporting } : {}),
    },
  }
}
