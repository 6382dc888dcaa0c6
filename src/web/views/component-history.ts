/**
 * A component's status history screen (pure): the recent changes, the corrections made to them
 * (who, when, why, what was replaced), and the form that corrects a past span (times typed in the
 * zone the form names, as the maintenance form does).
 */
import { html } from '../../lib/html.ts'
import type { Component, StatusChange, StatusCorrection } from '../../modules/components/service.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { errorSummary, selectField, textArea, textField, type FormState } from '../kit/forms.ts'
import { formatInZone } from '../kit/zones.ts'
import { STATUS_OPTIONS, statusLabel } from './components.ts'
import { sectionNav } from './pages.ts'
import { zoneField } from './when.ts'

const LABELS: Record<string, string> = { tz: 'Time zone', from: 'From', to: 'To', status: 'Status it really had', reason: 'Reason' }

export interface ComponentHistoryData {
  changes: readonly StatusChange[]
  corrections: readonly StatusCorrection[]
  /** Where the correction form posts. */
  action: string
  form: FormState
  zone: string
  zoneGuessed: boolean
}

const when = (ms: number, zone: string) => html`<time datetime="${new Date(ms).toISOString()}">${formatInZone(ms, zone)}</time>`

function changesTable(changes: readonly StatusChange[], zone: string): string {
  if (changes.length === 0) return html`<p>No status recorded yet.</p>`
  const rows = changes.map((c) => html`<tr><td>!${when(c.at, zone)}</td><td>${statusLabel(c.status)}</td></tr>`)
  return html`<table class="comp-history"><caption>Recent status changes, newest first</caption>
<thead><tr><th scope="col">Since</th><th scope="col">Status</th></tr></thead>
<tbody>!${rows.join('')}</tbody></table>`
}

function correctionItem(c: StatusCorrection, zone: string): string {
  const replaced = [...(c.replaced.before ? [c.replaced.before] : []), ...c.replaced.changes]
    .map((change) => html`${statusLabel(change.status)} from !${when(change.at, zone)}`)
    .join('; ')
  return html`<li>
  <p>!${when(c.from, zone)} to !${when(c.to, zone)}: set to <strong>${statusLabel(c.status)}</strong>.</p>
  <p>Reason: ${c.reason}</p>
  <p class="muted">By ${c.by} on !${when(c.at, zone)}. It replaced: !${replaced || 'nothing'}.</p>
</li>`
}

export function componentHistoryView(page: StatusPage, component: Component, d: ComponentHistoryData): string {
  const corrections =
    d.corrections.length === 0
      ? html`<p>No corrections.</p>`
      : html`<ol class="comp-corrections">!${d.corrections.map((c) => correctionItem(c, d.zone)).join('')}</ol>`
  return html`<h1>History of ${component.name}</h1>
!${sectionNav(page, 'Components')}
<section class="card" aria-labelledby="history-heading">
  <h2 id="history-heading">Status history</h2>
  !${changesTable(d.changes, d.zone)}
  <h3 id="corrections-heading">Corrections</h3>
  !${corrections}
  <p class="hint">Times in ${d.zone}.</p>
</section>
<section class="card" aria-labelledby="correct-heading">
  <h2 id="correct-heading">Correct the history</h2>
  <p>After a false outage (a misconfigured monitor, a wrong status set by hand), set the status ${component.name} really had over a past span. Its uptime, daily bars, SLA and analytics are computed again from the corrected history. The status before and after the span and the current status stay as they are, and nobody is notified. The correction is kept here with your reason.</p>
  !${errorSummary(d.form, LABELS)}
  <form method="post" action="${d.action}" class="stack" novalidate>
    !${zoneField(d.form, d.zone, d.zoneGuessed)}
    !${textField({ name: 'from', label: LABELS.from!, type: 'datetime-local', required: true, hint: 'In the time zone above.', state: d.form })}
    !${textField({ name: 'to', label: LABELS.to!, type: 'datetime-local', required: true, hint: 'In the time zone above; not in the future.', state: d.form })}
    !${selectField({ name: 'status', label: LABELS.status!, options: STATUS_OPTIONS, state: d.form, fallback: 'up' })}
    !${textArea({ name: 'reason', label: LABELS.reason!, hint: 'Kept with the correction, e.g. "the monitor was misconfigured; the site was up".', rows: 2, state: d.form })}
    <button type="submit">Correct history</button>
  </form>
</section>`
}
