/**
 * The last report of an SSL or DNSBL monitor on its detail screen (pure): the verdict in words with
 * its reasons, the certificate's facts (chain and OCSP on paid plans, an upgrade note otherwise), or
 * each address and zone with listed / clear / zone error. Colour never carries a verdict alone.
 */
import { formatDayRange } from '../../lib/human-time.ts'
import { counted } from '../../lib/words.ts'
import { html } from '../../lib/html.ts'
import type { DnsblReport, SslReport } from '../../modules/monitors/kinds/index.ts'
import type { StoredToolReport } from '../../modules/monitors/service.ts'
import { formatTime } from './monitors.ts'

const VERDICT_LABELS = { pass: 'Pass', warning: 'Warning', fail: 'Fail' } as const
const STATUS_LABELS = { listed: 'Listed', clear: 'Not listed', error: 'Zone error (no verdict)' } as const

export function toolReportSection(type: string, stored: StoredToolReport | null): string {
  if (type !== 'ssl' && type !== 'dnsbl') return ''
  const title = type === 'ssl' ? 'Certificate' : 'Blocklists'
  if (!stored) return html`<section class="card" aria-labelledby="report-heading"><h2 id="report-heading">${title}</h2><p class="muted">No report yet: the first check has not finished.</p></section>`
  const { report } = stored
  const reasons = report.reasons.length
    ? html`<ul class="mon-reasons">!${report.reasons.map((reason) => html`<li>${reason}</li>`).join('')}</ul>`
    : ''
  const body = report.kind === 'ssl' ? sslFacts(report) : dnsblTable(report)
  return html`<section class="card" aria-labelledby="report-heading">
  <h2 id="report-heading">${title}: <span class="mon-verdict ${report.verdict}">${VERDICT_LABELS[report.verdict]}</span></h2>
  <p class="hint">Checked <time datetime="${new Date(stored.checkedAt).toISOString()}">${formatTime(stored.checkedAt)}</time>.</p>
  !${reasons}!${body}
</section>`
}

function sslFacts(r: SslReport): string {
  const yesNo = (value: boolean) => (value ? 'yes' : 'no')
  const key = `${r.keyType.toUpperCase()}${r.keyBits === null ? '' : ` ${r.keyBits} bits`}${r.curve ? ` (${r.curve})` : ''}`
  const chain = r.chain
    ? html`<dt>Chain</dt><dd>${r.chain.complete ? 'complete' : 'incomplete'}: ${r.chain.note}</dd>`
    : html`<dt>Chain</dt><dd class="muted">Chain and OCSP stapling checks come with paid plans.</dd>`
  const ocsp = r.ocsp ? html`<dt>OCSP stapling</dt><dd>${r.ocsp.status}: ${r.ocsp.note}</dd>` : ''
  return html`<dl class="mon-facts">
  <dt>Host</dt><dd class="target">${r.host}:${String(r.port)}${r.starttls ? ' (SMTP STARTTLS)' : ''}</dd>
  <dt>Valid</dt><dd>${formatDayRange(Date.parse(r.validFrom), Date.parse(r.validTo))} (${counted(r.daysLeft, 'day')} left)</dd>
  <dt>Names</dt><dd>${r.sans.join(', ') || 'none'} (covers the host: ${yesNo(r.hostCovered)})</dd>
  <dt>Trusted</dt><dd>${r.trusted ? 'yes' : `no (${r.trustError ?? 'unknown'})`}</dd>
  <dt>Issuer</dt><dd>${r.issuer}</dd>
  <dt>Protocol</dt><dd>${r.protocol}</dd>
  <dt>Key</dt><dd>${key}</dd>
  <dt>Signature</dt><dd>${r.signatureAlgorithm}</dd>
  !${chain}!${ocsp}
</dl>`
}

function dnsblTable(r: DnsblReport): string {
  const sources = new Map(r.addresses.map((a) => [a.address, a.source]))
  const rows = r.results.map(
    (row) =>
      html`<tr><td>${row.address}</td><td>${sources.get(row.address) ?? ''}</td><td>${row.zone}</td><td><span class="mon-dnsbl ${row.status}">${STATUS_LABELS[row.status]}</span></td><td class="message">${row.status === 'listed' ? row.codes.join(', ') : row.error ?? ''}</td></tr>`,
  )
  return html`<section class="scroll" tabindex="0" aria-label="Each address in each zone"><table><caption class="visually-hidden">Each address in each zone</caption>
<thead><tr><th scope="col">Address</th><th scope="col">From</th><th scope="col">Zone</th><th scope="col">Result</th><th scope="col">Detail</th></tr></thead>
<tbody>!${rows.join('')}</tbody></table></section>
<p class="hint">A zone error (an answer in 127.255.255.x, a refusal or a timeout) is never counted as a listing.</p>`
}
