/**
 * The acting team's audit log: the filters as a GET form (person, page, action, dates), the rows
 * newest first in a table (when, in the browser's chosen zone; who; action; object; page; address
 * and client; the names of the fields sent), an "Older entries" link, and "Download CSV" with the
 * same filters.
 */
import { formatDateTime } from '../../lib/human-time.ts'
import { html } from '../../lib/html.ts'
import { toIso } from '../../lib/time.ts'
import type { AuditEntry } from '../../modules/audit/service.ts'
import { errorSummary, selectField, textField, type FormState } from '../kit/forms.ts'

export interface AuditScreenInput {
  teamName: string
  entries: readonly AuditEntry[]
  nextCursor: number | null
  /** The filters as typed (the form's values), already checked when `form.errors` is empty. */
  form: FormState
  actors: ReadonlyArray<{ userId: number; label: string }>
  pages: ReadonlyArray<{ id: number; name: string }>
  zone: string
  retentionDays: number
  /** The page was opened with a cursor (not the newest rows). */
  paged: boolean
}

const LABELS = { actor: 'Person', page_id: 'Page', action: 'Action', from: 'From', to: 'To' }
const FILTERS = ['actor', 'page_id', 'action', 'from', 'to'] as const

/** The query string of the filters that are set (plus `extra`). */
export function filterQuery(values: Record<string, string>, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams()
  for (const name of FILTERS) if (values[name]) params.set(name, values[name])
  for (const [name, value] of Object.entries(extra)) params.set(name, value)
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

const KIND_LABELS: Record<AuditEntry['actorKind'], string> = { person: 'Signed in', api_key: 'API key', sso: 'SSO', probe: 'Probe token', system: 'Lantern' }

function entryRow(entry: AuditEntry, input: AuditScreenInput): string {
  const page = entry.pageId === null ? '' : (input.pages.find((p) => p.id === entry.pageId)?.name ?? `#${entry.pageId} (deleted)`)
  const fields = entry.fields.length === 0 ? html`<span class="muted">none</span>` : html`${entry.fields.join(', ')}`
  return html`<tr>
  <td><time datetime="${toIso(entry.createdAt)}">${formatDateTime(entry.createdAt, input.zone)}</time></td>
  <td>${entry.actorLabel}!${entry.actorKind === 'api_key' ? '' : html` <span class="muted">(${KIND_LABELS[entry.actorKind]})</span>`}</td>
  <td><code>${entry.action}</code></td>
  <td><code>${entry.objectType}</code>!${entry.objectId === null ? '' : html` <span class="muted">${entry.objectId}</span>`}</td>
  <td>${page}</td>
  <td>${entry.address ?? ''}!${entry.client ? html`<br><span class="muted">${entry.client}</span>` : ''}</td>
  <td>!${fields}</td>
</tr>`
}

export function teamAuditView(input: AuditScreenInput): string {
  const { form } = input
  const valid = Object.keys(form.errors).length === 0
  const values = valid ? form.values : {}
  const filters = html`<form method="get" action="/user/team/audit" class="stack" novalidate>
  !${errorSummary(form, LABELS)}
  !${selectField({ name: 'actor', label: LABELS.actor, options: [{ value: '', label: 'Anyone' }, ...input.actors.map((a) => ({ value: String(a.userId), label: a.label }))], state: form })}
  !${selectField({ name: 'page_id', label: LABELS.page_id, options: [{ value: '', label: 'Any page' }, ...input.pages.map((p) => ({ value: String(p.id), label: p.name }))], state: form })}
  !${textField({ name: 'action', label: LABELS.action, hint: 'Exactly as the table shows it, for example status-pages.patch.', maxLength: 100, state: form })}
  !${textField({ name: 'from', label: LABELS.from, type: 'date', hint: 'From the start of this day (UTC).', state: form })}
  !${textField({ name: 'to', label: LABELS.to, type: 'date', hint: 'Up to the end of this day (UTC).', state: form })}
  <div class="row"><button type="submit">Filter</button> <a href="/user/team/audit">Clear filters</a></div>
</form>`
  const table =
    input.entries.length === 0
      ? html`<p>No entries${valid && FILTERS.some((name) => form.values[name]) ? ' match these filters' : ''}.</p>`
      : html`<section class="scroll" tabindex="0" aria-label="Audit log entries"><table><caption class="visually-hidden">Audit log of ${input.teamName}, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Object</th><th scope="col">Page</th><th scope="col">Address</th><th scope="col">Changed fields</th></tr></thead>
<tbody>!${input.entries.map((entry) => entryRow(entry, input)).join('')}</tbody></table></section>`
  const paging = [
    input.paged ? html`<a href="/user/team/audit${filterQuery(values)}">Newest entries</a>` : '',
    input.nextCursor === null ? '' : html`<a href="/user/team/audit${filterQuery(values, { cursor: String(input.nextCursor) })}">Older entries</a>`,
  ].filter(Boolean)
  return html`<h1>Audit log of ${input.teamName}</h1>
<p>Every change made to this team's pages, monitors, members and settings, by a person or an API key: who, when, from where, and which fields were sent (never their values). Entries are kept ${String(input.retentionDays)} days on this plan.</p>
<section class="card" aria-labelledby="filter-heading">
  <h2 id="filter-heading">Filter</h2>
  !${filters}
</section>
<section class="card" aria-labelledby="entries-heading">
  <h2 id="entries-heading">Entries</h2>
  !${valid ? html`<p><a href="/user/api/v1/team/audit.csv${filterQuery(values)}" download>Download CSV</a> <span class="muted">(these filters, up to 10,000 entries)</span></p>` : ''}
  !${table}
  !${paging.length === 0 ? '' : html`<nav aria-label="Audit log pages"><p>!${paging.join(' · ')}</p></nav>`}
</section>`
}
