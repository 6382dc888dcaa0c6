/**
 * The maintenance screens: a page's windows at a glance (active now, upcoming, past), the schedule
 * form (times in the owner's zone, named on the form), edit, and cancel (the API's DELETE).
 */
import { formatDate } from '../../lib/human-time.ts'
import { html } from '../../lib/html.ts'
import type { Component } from '../../modules/components/service.ts'
import { MAINTENANCE_UPDATE_STATUSES, type Maintenance, type MaintenanceSeries, type MaintenanceUpdateStatus } from '../../modules/maintenances/service.ts'
import { maintenancePhase } from '../../modules/status-pipeline/windows.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { checkboxField, errorSummary, formError, selectField, textArea, textField, type FormState, fieldErrorText } from '../kit/forms.ts'
import { notifySubscribersField } from './notify-field.ts'
import type { Crumb } from '../kit/layout.ts'
import { formatInZone } from '../kit/zones.ts'
import { pageCrumbs, sectionNav } from './pages.ts'
import { zoneField } from './when.ts'

const LABELS: Record<string, string> = { notify_subscribers: 'Notify subscribers', title: 'Title', start_at: 'Starts', end_at: 'Ends', tz: 'Time zone', message: 'Message', component_ids: 'Affected components' }

export const maintenanceCrumbs = (page: StatusPage, current?: string): Crumb[] =>
  current
    ? [...pageCrumbs(page, 'Maintenance').slice(0, -1), { label: 'Maintenance', href: `/user/pages/${page.id}/maintenance` }, { label: current }]
    : pageCrumbs(page, 'Maintenance')

export interface Glance {
  active: Maintenance[]
  upcoming: Maintenance[]
  past: Maintenance[]
}

/** Windows by phase at `now`: active and upcoming soonest first, past latest first. */
export function glance(windows: Maintenance[], now: number): Glance {
  const by = (phase: string) => windows.filter((w) => maintenancePhase(w, now) === phase)
  return {
    active: by('in_progress').sort((a, b) => a.endAt - b.endAt),
    upcoming: by('scheduled').sort((a, b) => a.startAt - b.startAt),
    past: by('completed').sort((a, b) => b.endAt - a.endAt),
  }
}

function windowItem(window: Maintenance, zone: string, actions: boolean): string {
  const affected = window.components.length === 0 ? 'Whole page' : window.components.map((c) => c.name).join(', ')
  return html`<li class="window-row">
  <a href="/user/maintenance/${String(window.id)}">${window.title}</a>
  <span class="muted">${formatInZone(window.startAt, zone)} – ${formatInZone(window.endAt, zone)} · ${affected}</span>!${
    actions ? html` <a href="/user/maintenance/${String(window.id)}/cancel">Cancel<span class="visually-hidden"> ${window.title}</span></a>` : ''
  }
</li>`
}

const windowList = (windows: Maintenance[], zone: string, empty: string, actions: boolean) =>
  windows.length === 0 ? html`<p>${empty}</p>` : html`<ul class="plain">!${windows.map((w) => windowItem(w, zone, actions)).join('')}</ul>`

/** Active now and upcoming, for the page overview and the maintenance screen. */
export function glanceLists(view: Glance, zone: string, headingLevel: 'h2' | 'h3'): string {
  const heading = (id: string, text: string) => (headingLevel === 'h2' ? html`<h2 id="${id}">${text}</h2>` : html`<h3 id="${id}">${text}</h3>`)
  return html`!${heading('maint-active', 'Active now')}
!${windowList(view.active, zone, 'No maintenance in progress.', true)}
!${heading('maint-upcoming', 'Upcoming')}
!${windowList(view.upcoming, zone, 'Nothing scheduled.', true)}
<p class="hint">Times in ${zone}.</p>`
}

function componentChecks(components: Component[], form: FormState): string {
  if (components.length === 0) return '<p class="hint">This page has no components yet: the window concerns the whole page.</p>'
  const ticked = new Set((form.values.component_ids ?? '').split(',').filter(Boolean))
  const error = fieldErrorText(form, 'component_ids', 'Components')
  const rows = components.map((component) => {
    const id = String(component.id)
    return html`<li class="component-choice"><span class="choice-name"><input type="checkbox" id="f-component-${id}" name="component_ids" value="${id}"!${ticked.has(id) ? ' checked' : ''}> <label for="f-component-${id}">${component.name}</label></span></li>`
  })
  return html`<fieldset class="field components-field!${error ? ' has-error' : ''}" id="f-component_ids"!${error ? ' aria-describedby="f-component_ids-error"' : ''}>
  <legend>Affected components</legend>
  <p class="hint">None ticked: the whole page.</p>
  <ul class="plain">!${rows.join('')}</ul>
  !${error ? html`<p class="field-error" id="f-component_ids-error">${error}</p>` : ''}
</fieldset>`
}

export interface WindowFormOptions {
  action: string
  button: string
  components: Component[]
  form: FormState
  zone: string
  zoneGuessed: boolean
  /** Scheduling only: the API's update takes no notify_subscribers (the choice is made when scheduling). */
  notify?: boolean
}

export function windowForm(options: WindowFormOptions): string {
  const { form } = options
  return html`!${errorSummary(form, LABELS)}
<form method="post" action="${options.action}" class="stack" novalidate>
  !${textField({ name: 'title', label: 'Title', hint: 'e.g. "Database upgrade".', required: true, maxLength: 200, state: form, autocomplete: 'off' })}
  !${zoneField(form, options.zone, options.zoneGuessed)}
  !${textField({ name: 'start_at', label: 'Starts', type: 'datetime-local', required: true, hint: 'In the time zone above.', state: form })}
  !${textField({ name: 'end_at', label: 'Ends', type: 'datetime-local', required: true, hint: 'In the time zone above.', state: form })}
  !${textArea({ name: 'message', label: 'Message', hint: 'What visitors should expect (optional).', rows: 3, state: form })}
  !${componentChecks(options.components, form)}
  !${options.notify ? notifySubscribersField(form, "Also tell this page's subscribers (by email and webhook) when it is scheduled, starts and ends.") : ''}
  <button type="submit">${options.button}</button>
</form>`
}

export function maintenancePageView(page: StatusPage, view: Glance, formOptions: Omit<WindowFormOptions, 'action' | 'button'>, recurring = ''): string {
  const zone = formOptions.zone
  return html`<h1>Maintenance: ${page.name}</h1>
!${sectionNav(page, 'Maintenance')}
<section class="card" aria-labelledby="maint-active">
  !${glanceLists(view, zone, 'h2')}
</section>
<section class="card" aria-labelledby="schedule-heading" id="schedule">
  <h2 id="schedule-heading">Schedule maintenance</h2>
  !${windowForm({ ...formOptions, action: `/user/pages/${page.id}/maintenance`, button: 'Schedule', notify: true })}
</section>
!${recurring}
<section class="card" aria-labelledby="maint-past">
  <h2 id="maint-past">Past</h2>
  !${windowList(view.past, zone, 'None yet.', false)}
</section>`
}

const UPDATE_STATUS_LABELS: Record<MaintenanceUpdateStatus, string> = { scheduled: 'Scheduled', in_progress: 'In progress', verifying: 'Verifying', completed: 'Completed' }
const UPDATE_STATUS_OPTIONS = MAINTENANCE_UPDATE_STATUSES.map((status) => ({ value: status, label: UPDATE_STATUS_LABELS[status] }))
const UPDATE_LABELS: Record<string, string> = { update_message: 'Update', update_status: 'Status' }

/** Post an update (Markdown, a status label) and the window's timeline, newest first. */
function updatesSections(window: Maintenance, phase: MaintenanceUpdateStatus, form: FormState, zone: string): string {
  const timeline = window.updates.map(
    (update) => html`<li><p><strong>${UPDATE_STATUS_LABELS[update.status]}</strong> · <time datetime="${new Date(update.at).toISOString()}">${formatInZone(update.at, zone)}</time></p><p class="message">${update.message}</p></li>`,
  )
  return html`<section class="card" aria-labelledby="update-heading">
  <h2 id="update-heading">Post an update</h2>
  !${errorSummary(form, UPDATE_LABELS)}
  <form method="post" action="/user/maintenance/${String(window.id)}/updates" class="stack" novalidate>
    !${textArea({ name: 'update_message', label: 'Update', rows: 3, state: form, hint: 'Markdown: links, emphasis, lists, code. Shown on the status page, in the feeds and the v2 JSON; subscribers are not notified.' })}
    !${selectField({ name: 'update_status', label: 'Status', options: UPDATE_STATUS_OPTIONS, state: form, fallback: phase, hint: "A label for the update; the window's times still decide when it is in progress." })}
    <button type="submit">Post update</button>
  </form>
</section>
<section class="card" aria-labelledby="timeline-heading">
  <h2 id="timeline-heading">Timeline</h2>
  !${timeline.length === 0 ? html`<p class="muted">No updates yet.</p>` : html`<p class="hint">Newest first; times in ${zone}.</p><ol class="plain timeline">!${timeline.join('')}</ol>`}
</section>`
}

export function maintenanceEditView(window: Maintenance, phase: MaintenanceUpdateStatus, formOptions: Omit<WindowFormOptions, 'action' | 'button'>, updateForm: FormState): string {
  const id = String(window.id)
  const phaseLabel = phase === 'in_progress' ? 'In progress' : phase === 'scheduled' ? 'Upcoming' : 'Completed'
  return html`<h1>Maintenance: ${window.title}</h1>
<p><span class="badge!${phase === 'completed' ? ' ok' : ''}">${phaseLabel}</span>!${window.seriesId === null ? '' : html` <span class="muted">An occurrence of a recurring maintenance: updates belong to this occurrence only.</span>`}</p>
!${updatesSections(window, phase, updateForm, formOptions.zone)}
<section class="card" aria-labelledby="edit-heading">
  <h2 id="edit-heading">Edit</h2>
  !${windowForm({ ...formOptions, action: `/user/maintenance/${id}`, button: 'Save maintenance' })}
</section>
!${
  phase === 'in_progress'
    ? html`<section class="card" aria-labelledby="end-heading"><h2 id="end-heading">Finish early</h2>
  <form method="post" action="/user/maintenance/${id}/end"><button type="submit" class="secondary">End now</button></form>
  <p class="hint">Sets the end to now; the window stays in the page's history.</p></section>`
    : ''
}
<section class="card danger" aria-labelledby="cancel-heading">
  <h2 id="cancel-heading">Cancel</h2>
  <p>Cancelling removes the window from the status page and its history.</p>
  <p><a class="button danger" href="/user/maintenance/${id}/cancel">Cancel maintenance…</a></p>
</section>`
}

export function cancelMaintenanceView(window: Maintenance, zone: string): string {
  const id = String(window.id)
  return html`<h1>Cancel "${window.title}"?</h1>
<section class="card narrow danger">
  <p>${formatInZone(window.startAt, zone)} – ${formatInZone(window.endAt, zone)} (${zone}). The window is removed from the status page and its history; this cannot be undone.</p>
  <form method="post" action="/user/maintenance/${id}/cancel" class="stack">
    <button type="submit" class="danger">Cancel maintenance</button>
    <a href="/user/maintenance/${id}">Keep it</a>
  </form>
</section>`
}

const FREQUENCY_WORDS: Record<string, string> = { daily: 'day', weekly: 'week', monthly: 'month' }

/** A calendar day ("2027-12-31") as people read it: "31 Dec 2027". */
const dayWords = (day: string): string => (/^\d{4}-\d{2}-\d{2}$/.test(day) ? formatDate(Date.parse(`${day}T00:00:00Z`)) : day)

/** "Every 2 weeks on MO, TH at 03:00 Europe/Berlin, 30 min, until 31 Dec 2027". */
export function seriesRule(series: MaintenanceSeries): string {
  const { rule } = series
  const unit = FREQUENCY_WORDS[rule.frequency]!
  const every = rule.interval === 1 ? `Every ${unit}` : `Every ${rule.interval} ${unit}s`
  const on = rule.weekdays.length > 0 ? ` on ${rule.weekdays.join(', ')}` : rule.monthDay !== undefined ? ` on day ${rule.monthDay}` : ''
  const end = rule.untilOn !== undefined ? `, until ${dayWords(rule.untilOn)}` : rule.count !== undefined ? `, ${rule.count} times` : ''
  const skipped = rule.exceptions.length > 0 ? `, except ${rule.exceptions.map(dayWords).join(', ')}` : ''
  return `${every}${on} at ${rule.startTime} ${rule.timeZone}, ${rule.durationMinutes} min${end}${skipped}`
}

/** The page's recurring maintenance (next occurrences in the zone of the list) and the form to add one. */
export function seriesSection(pageId: number, list: readonly MaintenanceSeries[], form: FormState, zone: string): string {
  const active = list.filter((s) => s.cancelledAt === null)
  const items = active.map(
    (s) => html`<li class="series"><strong>${s.title}</strong> <span class="hint">${seriesRule(s)}</span>
  <ul class="next-occurrences" aria-label="Next occurrences of ${s.title}">!${s.next.map((o) => html`<li>${formatInZone(o.startAt, zone)}</li>`).join('') || '<li>No more occurrences.</li>'}</ul>
  <form method="post" action="/user/maintenance-series/${String(s.id)}/cancel"><button type="submit" class="secondary">Cancel “${s.title}”</button></form></li>`,
  )
  // Names start with r_: ids stay unique beside the one-off form on the same screen.
  const field = (name: string, label: string, extra: Partial<Parameters<typeof textField>[0]> = {}) => textField({ name: `r_${name}`, label, state: form, ...extra })
  return html`<section class="card" aria-labelledby="recurring-heading" id="recurring">
<h2 id="recurring-heading">Recurring maintenance</h2>
!${items.length > 0 ? `<ul class="series-list">${items.join('')}</ul>` : '<p>None yet.</p>'}
<h3>Add recurring maintenance</h3>
<form method="post" action="/user/pages/${String(pageId)}/maintenance/recurring">
!${formError(form)}
!${field('title', 'Title', { required: true, maxLength: 200 })}
!${textArea({ name: 'r_message', label: 'Message', state: form, rows: 2 })}
!${field('time_zone', 'Time zone', { required: true, fallback: zone, hint: 'An IANA zone, such as Europe/Berlin: the start time stays the same across daylight-saving changes.' })}
!${field('starts_on', 'First date', { type: 'date', required: true })}
!${field('start_time', 'Start time', { type: 'time', required: true })}
!${field('duration_minutes', 'Duration (minutes)', { type: 'number', required: true })}
!${selectField({ name: 'r_frequency', label: 'Repeats', state: form, options: [{ value: 'daily', label: 'Daily' }, { value: 'weekly', label: 'Weekly' }, { value: 'monthly', label: 'Monthly' }] })}
!${field('interval', 'Every', { type: 'number', fallback: '1', hint: 'Every n days, weeks or months.' })}
!${field('weekdays', 'Weekdays (weekly)', { hint: 'Comma-separated, such as MO, TH; empty: the weekday of the first date.' })}
!${field('until', 'Until (optional)', { type: 'date' })}
!${field('count', 'Or number of times (optional)', { type: 'number' })}
!${field('exceptions', 'Skipped dates (optional)', { hint: 'Comma-separated days, each written YYYY-MM-DD (year, month, day).' })}
!${checkboxField({ name: 'r_notify_subscribers', label: 'Tell subscribers', state: form })}
<button type="submit">Add recurring maintenance</button>
</form>
</section>`
}
