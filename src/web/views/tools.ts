/** Views of the Tools screens (screens/tools.ts): one form per lookup tool, a result, the recent checks. */
import { formatDateTime } from '../../lib/human-time.ts'
import { explainCertificateError } from '../../lib/network-errors.ts'
import { html } from '../../lib/html.ts'
import { wrappable } from '../kit/text.ts'
import { LABEL as STATUS_LABELS } from '../../modules/monitors/kinds/index.ts'
import { LOOKUP_TOOLS, TOOL_LABELS, type LookupTool } from '../../modules/lookup-tools/runner.ts'
import { PAID_RECENT_CHECKS_CAP, type ToolCheck } from '../../modules/lookup-tools/service.ts'
import { errorSummary, textField, type FormState } from '../kit/forms.ts'
import type { Crumb } from '../kit/layout.ts'
import { formatTime } from './monitors.ts'

export const TOOLS_HEAD = '<link rel="stylesheet" href="/static/user/tools.css">'
export const toolsPath = '/user/tools'
export const toolPath = (tool: LookupTool) => `${toolsPath}/${tool}`
export const checkPath = (id: number) => `${toolsPath}/checks/${id}`
export const toolsCrumbs = (...more: Crumb[]): Crumb[] => (more.length ? [{ label: 'Tools', href: toolsPath }, ...more] : [{ label: 'Tools' }])

const TOOL_HINTS: Record<LookupTool, string> = {
  dns: 'A, AAAA, CNAME, MX, NS and TXT records of a name.',
  mx: 'The mail servers of a domain and their addresses.',
  spf: 'One valid v=spf1 record, at most 10 DNS lookups, ending in ~all or -all.',
  dkim: 'The public keys of your selectors: present, valid, 2048 bits or more.',
  dmarc: 'The policy, its reports, and whether outside report addresses accept them.',
  ssl: 'The certificate of a host: validity, days left, names, trust, key.',
  dnsbl: 'Whether an IP address, or a domain’s mail and web addresses, is on a blocklist.',
}
const TARGET_HINTS: Record<LookupTool, string> = {
  dns: 'A name, e.g. example.com',
  mx: 'A domain, e.g. example.com',
  spf: 'A domain, e.g. example.com',
  dkim: 'A domain, e.g. example.com',
  dmarc: 'A domain, e.g. example.com',
  ssl: 'A host with an optional port, e.g. example.com or mail.example.com:587',
  dnsbl: 'An IP address or a domain, e.g. 192.0.2.10 or example.com',
}
export const TOOL_FIELD_LABELS: Record<string, string> = { target: 'Target', selectors: 'DKIM selectors' }

/** The status in words, with a class for its colour (never the colour alone). */
export const statusBadge = (status: string) => html`<span class="tool-status ${status}">${STATUS_LABELS[status as keyof typeof STATUS_LABELS] ?? status}</span>`

function toolNav(current?: LookupTool): string {
  const items = LOOKUP_TOOLS.map((tool) =>
    tool === current
      ? html`<li><a href="${toolPath(tool)}" aria-current="page">${TOOL_LABELS[tool]}</a></li>`
      : html`<li><a href="${toolPath(tool)}">${TOOL_LABELS[tool]}</a></li>`,
  )
  return html`<nav class="tool-nav" aria-label="Lookup tools"><ul>!${items.join('')}</ul></nav>`
}

function recentTable(checks: ReadonlyArray<ToolCheck>): string {
  if (checks.length === 0) return html`<p>No lookups yet.</p>`
  const rows = checks.map(
    (c) => html`<tr>
  <td data-label="Tool">${TOOL_LABELS[c.tool] ?? c.tool}</td>
  <td data-label="Target" class="target"><a href="${checkPath(c.id)}">!${wrappable(c.target)}</a></td>
  <td data-label="Result">!${statusBadge(c.status)}</td>
  <td data-label="Summary" class="summary">${c.summary}</td>
  <td data-label="When"><time datetime="${new Date(c.createdAt).toISOString()}">${formatTime(c.createdAt)}</time></td>
</tr>`,
  )
  return html`<div class="tools-wrap"><table class="tool-checks"><caption class="visually-hidden">Your recent lookups, newest first</caption>
<thead><tr><th scope="col">Tool</th><th scope="col">Target</th><th scope="col">Result</th><th scope="col">Summary</th><th scope="col">When</th></tr></thead>
<tbody>!${rows.join('')}</tbody></table></div>`
}

function recentSection(recent: { items: ReadonlyArray<ToolCheck>; limit: number | null; cap: number }): string {
  const rule =
    recent.limit !== null
      ? html`<p class="hint">The Free plan keeps your newest ${String(recent.limit)} lookups; a paid plan keeps them all (up to ${PAID_RECENT_CHECKS_CAP.toLocaleString('en')}). <a href="/user/plan">Plans</a></p>`
      : html`<p class="hint">Your plan keeps every lookup, up to the newest ${recent.cap.toLocaleString('en')}.</p>`
  return html`<section class="card" aria-labelledby="recent-heading">
  <h2 id="recent-heading">Recent checks</h2>
  !${rule}
  !${recentTable(recent.items)}
</section>`
}

export function toolsIndexView(recent: { items: ReadonlyArray<ToolCheck>; limit: number | null; cap: number }): string {
  const items = LOOKUP_TOOLS.map((tool) => html`<li><a href="${toolPath(tool)}">${TOOL_LABELS[tool]}</a>: ${TOOL_HINTS[tool]}</li>`)
  return html`<h1>Domain lookup tools</h1>
<section class="card" aria-labelledby="tools-heading">
  <h2 id="tools-heading">Look up</h2>
  <ul class="tool-list">!${items.join('')}</ul>
  <p class="hint">To watch a domain over time, add an <a href="/user/monitors/new?type=email_auth">email authentication monitor</a>.</p>
</section>
!${recentSection(recent)}`
}

export function toolFormView(tool: LookupTool, form: FormState, recent: { items: ReadonlyArray<ToolCheck>; limit: number | null; cap: number }): string {
  const selectors =
    tool === 'dkim'
      ? textField({ name: 'selectors', label: TOOL_FIELD_LABELS.selectors!, hint: 'Separated by spaces or commas, e.g. google s1. Empty: only whether any keys exist.', autocomplete: 'off', maxLength: 1000, state: form })
      : ''
  return html`<h1>${TOOL_LABELS[tool]} lookup</h1>
!${toolNav(tool)}
<section class="card" aria-labelledby="form-heading">
  <h2 id="form-heading" class="visually-hidden">Look up</h2>
  <p>${TOOL_HINTS[tool]}</p>
  <form method="post" action="${toolPath(tool)}" novalidate>
    !${errorSummary(form, TOOL_FIELD_LABELS)}
    !${textField({ name: 'target', label: TOOL_FIELD_LABELS.target!, hint: TARGET_HINTS[tool], required: true, autocomplete: 'off', maxLength: 300, state: form })}
    !${selectors}
    <button type="submit">Look up</button>
  </form>
</section>
!${recentSection(recent)}`
}

/** One part of an email-auth result (SPF, DKIM, DMARC) with its records. */
export function authPart(name: string, part: { status: string; reason: string; records?: string[] }, extra = ''): string {
  const records = (part.records ?? []).map((r) => html`<li><code>${r}</code></li>`)
  return html`<div class="tool-part"><h3>${name} !${statusBadge(part.status)}</h3><p>${part.reason}</p>!${extra}!${records.length ? html`<p>Records read:</p><ul class="records">!${records.join('')}</ul>` : ''}</div>`
}

type Json = Record<string, unknown>
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : [])
const str = (value: unknown): string => (value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value))

function facts(pairs: Array<[string, string]>): string {
  const rows = pairs.filter(([, v]) => v !== '').map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)
  return html`<dl class="tool-facts">!${rows.join('')}</dl>`
}

/** The tool's own result, in words and tables (never raw HTML from a record: every value is escaped). */
function resultDetails(check: ToolCheck): string {
  const r = check.result
  switch (check.tool) {
    case 'spf':
      return authPart('SPF', r.spf as never, (r.spf as Json)?.lookups !== undefined ? html`<p>DNS lookups counted: ${str((r.spf as Json).lookups)} of 10</p>` : '')
    case 'dmarc': {
      const dmarc = r.dmarc as Json
      const reports = list(dmarc?.reporting).map((e) => html`<li>${str(e.kind)} <code>${str(e.uri)}</code>${e.external ? (e.authorised ? ': outside, authorised' : ': outside, NOT authorised') : ''}</li>`)
      return authPart('DMARC', dmarc as never, reports.length ? html`<p>Reports:</p><ul>!${reports.join('')}</ul>` : '')
    }
    case 'dkim': {
      const dkim = r.dkim as Json
      const selectors = list(dkim?.selectors).map((s) => authPart(`Selector ${str(s.selector)}`, s as never, s.bits ? html`<p>${str(s.key_type)} key, ${str(s.bits)} bits</p>` : ''))
      return authPart('DKIM', { status: str(dkim?.status), reason: str(dkim?.reason) }) + selectors.join('')
    }
    case 'dns': {
      const records = (r.records ?? {}) as Record<string, string[]>
      const rows = Object.entries(records).flatMap(([type, values]) => values.map((v) => html`<tr><td data-label="Type">${type}</td><td data-label="Value" class="value"><code>${v}</code></td></tr>`))
      return rows.length ? html`<table class="tool-records"><caption>Records of ${str(r.name)}</caption><thead><tr><th scope="col">Type</th><th scope="col">Value</th></tr></thead><tbody>!${rows.join('')}</tbody></table>` : ''
    }
    case 'mx': {
      const rows = list(r.hosts).map((h) => html`<tr><td data-label="Priority">${str(h.priority)}</td><td data-label="Host">${str(h.exchange)}</td><td data-label="Addresses" class="value">${list(h.addresses).map(str).join(', ') || 'none'}</td></tr>`)
      return rows.length ? html`<table class="tool-records"><caption>Mail servers</caption><thead><tr><th scope="col">Priority</th><th scope="col">Host</th><th scope="col">Addresses</th></tr></thead><tbody>!${rows.join('')}</tbody></table>` : ''
    }
    case 'ssl':
      if (r.kind !== 'ssl') return ''
      return facts([
        ['Subject', str(r.subject)], ['Issuer', str(r.issuer)], ['Valid until', typeof r.validTo === 'string' && Number.isFinite(Date.parse(r.validTo)) ? formatDateTime(Date.parse(r.validTo)) : str(r.validTo)], ['Days left', str(r.daysLeft)],
        ['Names', list(r.sans).map(str).join(', ')], ['Trusted', r.trusted ? 'yes' : `no${r.trustError ? `: ${explainCertificateError(str(r.trustError))}` : ''}`],
        ['Key', `${str(r.keyType)}${r.keyBits ? ` ${str(r.keyBits)} bits` : ''}`], ['Signature', str(r.signatureAlgorithm)], ['Protocol', str(r.protocol)],
        ['Chain', r.chain ? str((r.chain as Json).note) : 'on paid plans'], ['OCSP stapling', r.ocsp ? str((r.ocsp as Json).note) : 'on paid plans'],
      ])
    case 'dnsbl': {
      if (r.kind !== 'dnsbl') return ''
      const rows = list(r.results).map((e) => html`<tr><td data-label="Address">${str(e.address)}</td><td data-label="Zone">${str(e.zone)}</td><td data-label="Answer">${e.status === 'listed' ? `listed (${list(e.codes).map(str).join(', ')})` : e.status === 'error' ? `zone error: ${str(e.error)}` : 'not listed'}</td></tr>`)
      return html`<table class="tool-records"><caption>Blocklists</caption><thead><tr><th scope="col">Address</th><th scope="col">Zone</th><th scope="col">Answer</th></tr></thead><tbody>!${rows.join('')}</tbody></table>`
    }
  }
}

export function checkView(check: ToolCheck): string {
  return html`<h1>${TOOL_LABELS[check.tool] ?? check.tool}: ${check.target}</h1>
!${toolNav(check.tool)}
<section class="card" aria-labelledby="result-heading">
  <h2 id="result-heading">Result !${statusBadge(check.status)}</h2>
  <p class="summary">${check.summary}</p>
  <p class="hint">Looked up <time datetime="${new Date(check.createdAt).toISOString()}">${formatTime(check.createdAt)}</time>. <a href="${toolPath(check.tool)}">Look up again</a></p>
  !${resultDetails(check)}
</section>`
}
