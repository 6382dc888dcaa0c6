/** The API's schemas for SSL and DNSBL reports (`GET /user/api/v1/monitors/:id/report`) and their JSON shape. */
import { t, type Static } from 'elysia'
import { modelRef, namedModels } from '../../http/schemas.ts'
import { toIso } from '../../lib/time.ts'
import type { DnsblReport, SslReport } from './kinds/spec.ts'
import type { StoredToolReport } from './tool-state.ts'

const VerdictSchema = t.Union([t.Literal('pass'), t.Literal('warning'), t.Literal('fail')])
const reasons = t.Array(t.String(), { description: 'why the verdict is not pass; empty when it is' })

const SslReportJson = t.Object({
  kind: t.Literal('ssl'),
  verdict: VerdictSchema,
  reasons,
  host: t.String(),
  port: t.Integer(),
  starttls: t.Boolean({ description: 'SMTP EHLO/STARTTLS before the handshake' }),
  protocol: t.String({ description: 'e.g. TLSv1.3' }),
  subject: t.String(),
  issuer: t.String(),
  valid_from: t.String({ description: 'RFC 3339' }),
  valid_to: t.String({ description: 'RFC 3339' }),
  days_left: t.Integer(),
  sans: t.Array(t.String()),
  host_covered: t.Boolean(),
  trusted: t.Boolean(),
  trust_error: t.Nullable(t.String()),
  key_type: t.String({ description: 'rsa, ec, ed25519, …' }),
  key_bits: t.Nullable(t.Integer()),
  curve: t.Nullable(t.String()),
  signature_algorithm: t.String(),
  fingerprint256: t.String(),
  chain: t.Nullable(
    t.Object({
      complete: t.Boolean(),
      certificates: t.Array(t.Object({ subject: t.String(), issuer: t.String(), valid_to: t.String() })),
      note: t.String(),
    }, { description: 'paid plans; null on the free plan' }),
  ),
  ocsp: t.Nullable(
    t.Object({ status: t.Union([t.Literal('stapled'), t.Literal('unavailable')]), note: t.String() }, { description: 'paid plans; "unavailable" on Bun, which does not hand over the stapled response' }),
  ),
})

const DnsblReportJson = t.Object({
  kind: t.Literal('dnsbl'),
  verdict: VerdictSchema,
  reasons,
  target: t.String(),
  addresses: t.Array(t.Object({ address: t.String(), source: t.String({ description: '"the target", "MX <host>" or "A <domain>"' }) })),
  results: t.Array(
    t.Object({
      address: t.String(),
      zone: t.String(),
      status: t.Union([t.Literal('listed'), t.Literal('clear'), t.Literal('error')], { description: 'error: the zone gave no verdict (127.255.255.x, SERVFAIL, timeout); never counted as listed' }),
      codes: t.Array(t.String(), { description: 'the 127.x answers of a listing' }),
      error: t.Nullable(t.String()),
    }),
  ),
})

const ToolReportJson = t.Object({
  checked_at: t.String({ description: 'RFC 3339' }),
  report: t.Union([SslReportJson, DnsblReportJson]),
})

export const toolReportModels = namedModels({ MonitorToolReport: ToolReportJson })
export const ToolReportRef = modelRef(toolReportModels, 'MonitorToolReport')

type Json = Static<typeof ToolReportJson>

export function toolReportJson(stored: StoredToolReport): Json {
  return { checked_at: toIso(stored.checkedAt), report: stored.report.kind === 'ssl' ? sslJson(stored.report) : dnsblJson(stored.report) }
}

function sslJson(r: SslReport): Static<typeof SslReportJson> {
  return {
    kind: 'ssl',
    verdict: r.verdict,
    reasons: r.reasons,
    host: r.host,
    port: r.port,
    starttls: r.starttls,
    protocol: r.protocol,
    subject: r.subject,
    issuer: r.issuer,
    valid_from: r.validFrom,
    valid_to: r.validTo,
    days_left: r.daysLeft,
    sans: r.sans,
    host_covered: r.hostCovered,
    trusted: r.trusted,
    trust_error: r.trustError,
    key_type: r.keyType,
    key_bits: r.keyBits,
    curve: r.curve,
    signature_algorithm: r.signatureAlgorithm,
    fingerprint256: r.fingerprint256,
    chain: r.chain ? { complete: r.chain.complete, note: r.chain.note, certificates: r.chain.certificates.map((c) => ({ subject: c.subject, issuer: c.issuer, valid_to: c.validTo })) } : null,
    ocsp: r.ocsp,
  }
}

function dnsblJson(r: DnsblReport): Static<typeof DnsblReportJson> {
  return { kind: 'dnsbl', verdict: r.verdict, reasons: r.reasons, target: r.target, addresses: r.addresses, results: r.results }
}
