/** The email-auth report on a monitor's detail screen: SPF, DKIM (each selector) and DMARC with reasons. */
import { html } from '../../lib/html.ts'
import type { StoredEmailAuthReport } from '../../modules/email-auth/service.ts'
import { formatTime } from './monitors.ts'
import { authPart } from './tools.ts'

export function emailAuthSection(stored: StoredEmailAuthReport | null): string {
  if (!stored) return html`<section class="card" aria-labelledby="auth-heading"><h2 id="auth-heading">Email authentication</h2><p>No answered check yet.</p></section>`
  const { spf, dkim, dmarc } = stored.report
  const selectors = dkim.selectors.map((s) => authPart(`DKIM selector ${s.selector}`, s, s.bits ? html`<p>${s.keyType ?? ''} key, ${String(s.bits)} bits</p>` : ''))
  const reports = (dmarc.reporting ?? []).map((e) => html`<li>${e.kind} <code>${e.uri}</code>${e.external ? (e.authorised ? ': outside, authorised' : ': outside, NOT authorised') : ''}</li>`)
  return html`<section class="card" aria-labelledby="auth-heading">
  <h2 id="auth-heading">Email authentication</h2>
  <p class="hint">Checked <time datetime="${new Date(stored.checkedAt).toISOString()}">${formatTime(stored.checkedAt)}</time>; last change <time datetime="${new Date(stored.changedAt).toISOString()}">${formatTime(stored.changedAt)}</time>.</p>
  !${authPart('SPF', spf, spf.lookups !== undefined ? html`<p>DNS lookups counted: ${String(spf.lookups)} of 10</p>` : '')}
  !${authPart('DKIM', { status: dkim.status, reason: dkim.reason })}
  !${selectors.join('')}
  !${authPart('DMARC', dmarc, reports.length ? html`<p>Reports:</p><ul>!${reports.join('')}</ul>` : '')}
</section>`
}
