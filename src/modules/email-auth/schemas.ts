/** The email-auth report as the API answers it (typed `t` schemas). */
import { t } from 'elysia'

const Status = t.Union([t.Literal('pass'), t.Literal('warning'), t.Literal('fail'), t.Literal('missing'), t.Literal('error')], {
  description: 'pass, warning, fail, missing (no record), or error (the DNS did not answer, after retries: nothing is claimed)',
})
const part = {
  status: Status,
  reason: t.String({ description: 'why, in one sentence' }),
  records: t.Optional(t.Array(t.String(), { description: 'the records read, each joined from its 255-byte pieces' })),
}

export const EmailAuthReportJson = t.Object({
  domain: t.String(),
  spf: t.Object({ ...part, lookups: t.Optional(t.Integer({ description: 'DNS-querying terms counted across includes and redirects (limit 10)' })) }),
  dkim: t.Object({
    ...part,
    selectors: t.Array(t.Object({ selector: t.String(), ...part, key_type: t.Optional(t.String()), bits: t.Optional(t.Integer()) })),
  }),
  dmarc: t.Object({
    ...part,
    policy: t.Optional(t.String({ description: 'none, quarantine or reject (sp when inherited)' })),
    record_domain: t.Optional(t.String({ description: 'where the record was found' })),
    reporting: t.Optional(
      t.Array(
        t.Object({
          uri: t.String(),
          kind: t.Union([t.Literal('rua'), t.Literal('ruf')]),
          external: t.Boolean({ description: 'outside the organizational domain' }),
          authorised: t.Nullable(t.Boolean({ description: 'external only: <domain>._report._dmarc.<host> exists (RFC 7489 §7.1)' })),
        }),
      ),
    ),
  }),
})

export const EmailAuthMonitorReportJson = t.Object({
  report: EmailAuthReportJson,
  summary: t.String({ description: 'each part’s status, what a change notice compares' }),
  checked_at: t.String({ description: 'RFC 3339: the last answered run' }),
  changed_at: t.String({ description: 'RFC 3339: when the summary last changed' }),
})
