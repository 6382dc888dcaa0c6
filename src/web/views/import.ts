/**
 * The Import screen: one form per source (an Uptime Kuma database, a Gatus configuration), each
 * a file upload; after a run, the report: what was made, what was already there from an earlier run,
 * what came with a change and what was left out, with why.
 */
import { html } from '../../lib/html.ts'
import { counted } from '../../lib/words.ts'
import type { ImportedKind, ImportReport, ImportSource } from '../../modules/importers/types.ts'

export type UploadSource = Extract<ImportSource, 'uptime-kuma' | 'gatus'>

export const SOURCE_LABELS: Record<UploadSource, string> = { 'uptime-kuma': 'Uptime Kuma', gatus: 'Gatus' }

const KIND_LABELS: Record<ImportedKind, string> = {
  pages: 'Status pages',
  components: 'Components',
  monitors: 'Monitors',
  channels: 'Notification channels',
  maintenances: 'Maintenance windows',
  incidents: 'Incidents',
  subscribers: 'Subscribers',
  history: 'Status changes (history)',
}

/** The counted nouns of the summary ("1 maintenance window", "3 status changes"). */
const KIND_NOUNS: Record<ImportedKind, [string, string]> = {
  pages: ['status page', 'status pages'],
  components: ['component', 'components'],
  monitors: ['monitor', 'monitors'],
  channels: ['notification channel', 'notification channels'],
  maintenances: ['maintenance window', 'maintenance windows'],
  incidents: ['incident', 'incidents'],
  subscribers: ['subscriber', 'subscribers'],
  history: ['status change', 'status changes'],
}

export interface ImportViewInput {
  /** The error of one form, shown at its file field. */
  errors?: Partial<Record<UploadSource, string>>
  /** The report of the run just made. */
  report?: ImportReport
  /** The file the report is about, as it was chosen. */
  fileName?: string
  kumaMaxMb: number
  gatusMaxMb: number
}

function fileField(source: UploadSource, label: string, accept: string, hint: string, error: string | undefined): string {
  const id = `f-${source}`
  const described = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ')
  return html`<div class="field!${error ? ' has-error' : ''}">
  <label for="${id}">${label}</label>
  <input id="${id}" name="file" type="file" accept="${accept}" required aria-describedby="${described}"!${error ? ' aria-invalid="true"' : ''}>
  <p class="hint" id="${id}-hint">${hint}</p>
  !${error ? html`<p class="field-error" id="${id}-error" role="alert">${error}</p>` : ''}
</div>`
}

function lines(report: ImportReport, which: 'changed' | 'skipped', caption: string): string {
  const rows = report[which].map((line) => html`<tr><td>${line.kind}</td><th scope="row">${line.name}</th><td>${line.reason}</td></tr>`)
  return html`<section class="scroll" tabindex="0" aria-label="${caption}"><table><caption class="visually-hidden">${caption}</caption>
<thead><tr><th scope="col">What</th><th scope="col">Name</th><th scope="col">Why</th></tr></thead>
<tbody>!${rows.join('')}</tbody></table></section>`
}

export function reportView(report: ImportReport, fileName: string | undefined): string {
  const source = SOURCE_LABELS[report.source as UploadSource] ?? report.source
  const kinds = (Object.keys(KIND_LABELS) as ImportedKind[]).filter((kind) => report.created[kind] > 0 || report.unchanged[kind] > 0)
  const made = kinds.reduce((sum, kind) => sum + report.created[kind], 0)
  const summary =
    made === 0 && kinds.length > 0
      ? 'Nothing new: everything in this file was imported before and is left as it is.'
      : made === 0
        ? 'The file held nothing to bring.'
        : `Made ${kinds.filter((kind) => report.created[kind] > 0).map((kind) => counted(report.created[kind], ...KIND_NOUNS[kind])).join(', ')}.`
  const rows = kinds.map((kind) => html`<tr><th scope="row">${KIND_LABELS[kind]}</th><td>${String(report.created[kind])}</td><td>${String(report.unchanged[kind])}</td></tr>`)
  return html`<section class="card" aria-labelledby="report-heading">
  <h2 id="report-heading">Imported from ${source} ${report.source_version}</h2>
  <p role="status">!${fileName ? html`<strong>${fileName}</strong>: ` : ''}${summary}</p>
  !${
    kinds.length > 0
      ? html`<section class="scroll" tabindex="0" aria-label="What the import made"><table><caption class="visually-hidden">What the import made</caption>
<thead><tr><th scope="col">Kind</th><th scope="col">Made now</th><th scope="col">Already there</th></tr></thead>
<tbody>!${rows.join('')}</tbody></table></section>`
      : ''
  }
  <h3>Brought with a change (${String(report.changed.length)})</h3>
  !${report.changed.length > 0 ? lines(report, 'changed', 'Brought with a change') : html`<p class="muted">None.</p>`}
  <h3>Not brought (${String(report.skipped.length)})</h3>
  !${report.skipped.length > 0 ? lines(report, 'skipped', 'Not brought') : html`<p class="muted">Nothing was left out.</p>`}
  <p><a href="/user/monitors">See your monitors</a> · <a href="/user">See your pages</a></p>
</section>`
}

export function importView(input: ImportViewInput): string {
  const errors = input.errors ?? {}
  return html`<h1>Import</h1>
<p>Move in from another tool: its monitors, status pages, notifications and maintenance land in the team you act in, as <code>lantern import</code> brings them. Importing the same file again changes nothing; what was deleted here since is made again.</p>
!${input.report ? reportView(input.report, input.fileName) : ''}
<section class="card" aria-labelledby="kuma-heading">
  <h2 id="kuma-heading">From Uptime Kuma</h2>
  <p>Kuma 1.23 or 2.x keeps everything in one SQLite file, <code>kuma.db</code>, in its data folder (with Docker, the volume mounted at <code>/app/data</code>). Stop Kuma first, or copy the file while it runs with <code>sqlite3 kuma.db ".backup kuma-copy.db"</code>. It is read, never changed, and not kept after the import.</p>
  <form method="post" action="/user/import/uptime-kuma" enctype="multipart/form-data" class="stack" novalidate>
    !${fileField('uptime-kuma', 'Uptime Kuma database (kuma.db)', '.db,.sqlite,.sqlite3,application/vnd.sqlite3,application/x-sqlite3', `SQLite, at most ${String(input.kumaMaxMb)} MB. Larger ones: lantern import uptime-kuma on the server.`, errors['uptime-kuma'])}
    <button type="submit">Import from Uptime Kuma</button>
  </form>
</section>
<section class="card" aria-labelledby="gatus-heading">
  <h2 id="gatus-heading">From Gatus</h2>
  <p>The configuration file Gatus runs with (<code>config.yaml</code>): its endpoints become monitors, their groups components, its alerting providers channels.</p>
  <form method="post" action="/user/import/gatus" enctype="multipart/form-data" class="stack" novalidate>
    !${fileField('gatus', 'Gatus configuration (config.yaml)', '.yaml,.yml,application/yaml,text/yaml', `YAML, at most ${String(input.gatusMaxMb)} MB.`, errors.gatus)}
    <button type="submit">Import from Gatus</button>
  </form>
</section>
<p class="hint">Atlassian Statuspage is imported from the command line (<code>lantern import statuspage</code>): it needs the page's API key. See <a href="/docs/importing">the importing guide</a>.</p>`
}
