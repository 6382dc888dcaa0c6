/**
 * The incident screens: the "Report an incident" form (on the page overview and the page's
 * Incidents section), the list of open and recent incidents, the incident screen (update form first,
 * one-button Resolve, timeline, edit, delete) and the delete confirmation.
 */
import { counted } from '../../lib/words.ts'
import { html } from '../../lib/html.ts'
import type { Component } from '../../modules/components/service.ts'
import type { Incident, IncidentTemplate } from '../../modules/incidents/service.ts'
import { INCIDENT_STATES } from '../../modules/incidents/states.ts'
import { IMPACT_LABELS, INCIDENT_IMPACTS } from '../../modules/status-pipeline/status.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { emptyForm, errorSummary, selectField, textArea, textField, type FormState, fieldErrorText } from '../kit/forms.ts'
import type { Crumb } from '../kit/layout.ts'
import { formatInZone } from '../kit/zones.ts'
import { autofocused, zoneField } from './when.ts'
import { pageCrumbs, sectionNav } from './pages.ts'
import { automaticBadge, automaticNote } from './auto-incidents.ts'
import { notifySubscribersBox, notifySubscribersField } from './notify-field.ts'

const NOTIFY_HINT = "Also tell this page's subscribers (by email and webhook)."

const STATE_LABELS: Record<string, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
}
export const stateLabel = (state: string): string => STATE_LABELS[state] ?? state
const STATE_OPTIONS = INCIDENT_STATES.map((state) => ({ value: state, label: STATE_LABELS[state]! }))

const COMPONENT_STATUS_LABELS: Record<string, string> = { up: 'Operational', degraded: 'Degraded', partial: 'Partial outage', down: 'Down' }
export const componentStatusLabel = (status: string): string => COMPONENT_STATUS_LABELS[status] ?? status
const COMPONENT_STATUS_OPTIONS = Object.entries(COMPONENT_STATUS_LABELS).map(([value, label]) => ({ value, label }))

/** Empty: derived from the affected components' worst status. */
const IMPACT_OPTIONS = [{ value: '', label: 'From the components' }, ...INCIDENT_IMPACTS.map((impact) => ({ value: impact, label: IMPACT_LABELS[impact] }))]
const IMPACT_HINT = 'From the components: critical while one is in major outage, major while one is in partial outage, else minor.'
const impactField = (form: FormState) => selectField({ name: 'impact', label: 'Impact', options: IMPACT_OPTIONS, state: form, fallback: '', hint: IMPACT_HINT })

const LABELS: Record<string, string> = {
  impact: 'Impact',
  notify_subscribers: 'Notify subscribers',
  template_id: 'Template',
  title: 'Title',
  state: 'State',
  message: 'Message',
  started_at: 'Started at',
  tz: 'Time zone',
  component_ids: 'Affected components',
}

export const incidentsCrumbs = (page: StatusPage, current?: string): Crumb[] =>
  current
    ? [...pageCrumbs(page, 'Incidents').slice(0, -1), { label: 'Incidents', href: `/user/pages/${page.id}/incidents` }, { label: current }]
    : pageCrumbs(page, 'Incidents')

export const incidentCrumbs = (page: StatusPage, incident: Incident, current?: string): Crumb[] => {
  const base = incidentsCrumbs(page, incident.title).slice(0, -1)
  return current
    ? [...base, { label: incident.title, href: `/user/incidents/${incident.id}` }, { label: current }]
    : [...base, { label: incident.title }]
}

/** The "selected" markers of component checkboxes come from the form's list, not one value. */
export interface ComponentChoice {
  component: Component
  checked: boolean
}

/**
 * Affected components (checkboxes) and the status each is set to. `status_<id>` selects use the
 * component API's own values; `component_ids` checkboxes the incident API's.
 */
export function componentFieldset(legend: string, choices: ComponentChoice[], form: FormState, options: { checkboxes: boolean; statuses: boolean }): string {
  if (choices.length === 0) {
    return html`<p class="hint">This page has no components yet: the incident concerns the whole page.</p>`
  }
  const error = fieldErrorText(form, 'component_ids', 'Components')
  const rows = choices.map(({ component, checked }) => {
    const id = String(component.id)
    const statusName = `status_${id}`
    const current = form.values[statusName] ?? component.status
    const statusError = fieldErrorText(form, statusName)
    const select = html`<label for="f-${statusName}" class="visually-hidden">Status of ${component.name}</label>
<select id="f-${statusName}" name="${statusName}"!${statusError ? html` aria-invalid="true" aria-describedby="f-${statusName}-error"` : ''}>!${COMPONENT_STATUS_OPTIONS.map(
      (choice) => html`<option value="${choice.value}"!${choice.value === current ? ' selected' : ''}>${choice.label}</option>`,
    ).join('')}</select>`
    const box = options.checkboxes
      ? html`<span class="choice-name"><input type="checkbox" id="f-component-${id}" name="component_ids" value="${id}"!${checked ? ' checked' : ''}> <label for="f-component-${id}">${component.name}</label></span>`
      : html`<span class="choice-name">${component.name}</span>`
    if (!options.statuses) return html`<li class="component-choice">!${box}</li>`
    return html`<li class="component-choice">!${box} !${select}!${statusError ? html`<p class="field-error" id="f-${statusName}-error">${statusError}</p>` : ''}</li>`
  })
  // Only the ticked list is the `component_ids` field (error summaries link to it); a page may hold both kinds.
  const fieldId = options.checkboxes ? ' id="f-component_ids"' : ''
  return html`<fieldset class="field components-field!${error ? ' has-error' : ''}"!${fieldId}!${error ? ' aria-describedby="f-component_ids-error"' : ''}>
  <legend>${legend}</legend>
  !${options.checkboxes ? `<p class="hint">${options.statuses ? 'A component whose status you change here is affected too. ' : ''}None affected: the whole page.</p>` : ''}
  <ul class="plain">!${rows.join('')}</ul>
  !${error ? html`<p class="field-error" id="f-component_ids-error">${error}</p>` : ''}
</fieldset>`
}

export interface ReportFormOptions {
  page: StatusPage
  components: Component[]
  templates: IncidentTemplate[]
  form: FormState
  /** Where the form is: the overview's short form focuses its first field; the full one offers started_at. */
  full: boolean
  zone: string
  /** No zone chosen yet: the browser's may be picked (when.js). */
  zoneGuessed?: boolean
}

/** One form for the outage path: template, title, state, message, affected components and their status. */
export function reportForm(options: ReportFormOptions): string {
  const { page, form, full } = options
  const ticked = new Set((form.values.component_ids ?? '').split(',').filter(Boolean))
  const choices = options.components.map((component) => ({ component, checked: ticked.has(String(component.id)) }))
  const templateOptions = [
    { value: '', label: 'None: write it below' },
    ...options.templates.map((template) => ({ value: String(template.id), label: template.name })),
  ]
  const templateData = options.templates.map(
    (template) => html`<template data-template-id="${String(template.id)}" data-title="${template.title}" data-message="${template.message}"></template>`,
  )
  return html`!${errorSummary(form, LABELS)}
<form method="post" action="/user/pages/${String(page.id)}/incidents" class="stack report-form" novalidate>
  !${
    options.templates.length > 0
      ? html`<div class="field!${form.errors.template_id ? ' has-error' : ''}">
  <label for="f-template_id">Template</label>
  <select id="f-template_id" name="template_id" data-fills-incident!${full ? '' : ' autofocus'}>!${templateOptions
    .map((choice) => html`<option value="${choice.value}"!${choice.value === (form.values.template_id ?? '') ? ' selected' : ''}>${choice.label}</option>`)
    .join('')}</select>
  <p class="hint" id="f-template_id-hint">With a template, an empty title or message takes the template's; {{component}} and {{page}} are filled in.</p>
  !${form.errors.template_id ? html`<p class="field-error" id="f-template_id-error">${fieldErrorText(form, 'template_id', 'Template')!}</p>` : ''}
</div>!${templateData.join('')}`
      : ''
  }
  !${autofocused(
    textField({ name: 'title', label: 'Title', hint: 'What people see first, e.g. "API errors".', maxLength: 200, state: form, autocomplete: 'off' }),
    !full && options.templates.length === 0,
  )}
  !${selectField({ name: 'state', label: 'State', options: STATE_OPTIONS, state: form, fallback: 'investigating' })}
  !${textArea({ name: 'message', label: 'Message', hint: 'The first update on the public page (optional).', rows: 3, state: form })}
  !${componentFieldset('Affected components', choices, form, { checkboxes: true, statuses: true })}
  !${impactField(form)}
  !${notifySubscribersField(form, NOTIFY_HINT)}
  !${
    full
      ? html`!${textField({ name: 'started_at', label: 'Started at', type: 'datetime-local', hint: 'Empty: now. Read in the time zone below.', state: form })}
  !${zoneField(form, options.zone, options.zoneGuessed)}`
      : ''
  }
  <button type="submit">Open incident</button>
</form>`
}

function incidentRow(incident: Incident, zone: string): string {
  const affected = incident.components.length === 0 ? 'Whole page' : incident.components.map((c) => c.name).join(', ')
  return html`<li class="incident-row">
  <a href="/user/incidents/${String(incident.id)}">${incident.title}</a>
  <span class="badge!${incident.state === 'resolved' ? ' ok' : ''}">${stateLabel(incident.state)}</span>!${automaticBadge(incident)}
  <span class="muted">${affected} · started ${formatInZone(incident.startedAt, zone)}</span>
</li>`
}

/** Open incidents, linked to their screens; '' when none. */
export function openIncidentsList(incidents: Incident[], zone: string): string {
  const open = incidents.filter((incident) => incident.state !== 'resolved')
  if (open.length === 0) return '<p>No open incidents.</p>'
  return html`<ul class="plain">!${open.map((incident) => incidentRow(incident, zone)).join('')}</ul>`
}

export function incidentsPageView(options: ReportFormOptions & { incidents: Incident[] }): string {
  const { page, incidents, zone } = options
  const recent = incidents.filter((incident) => incident.state === 'resolved')
  return html`<h1>Incidents: ${page.name}</h1>
!${sectionNav(page, 'Incidents')}
<section class="card" aria-labelledby="open-heading">
  <h2 id="open-heading">Open</h2>
  !${openIncidentsList(incidents, zone)}
</section>
<section class="card" aria-labelledby="report-heading" id="report">
  <h2 id="report-heading">Report an incident</h2>
  !${reportForm({ ...options, full: true })}
</section>
<section class="card" aria-labelledby="recent-heading">
  <h2 id="recent-heading">Recently resolved</h2>
  !${recent.length === 0 ? '<p>None yet.</p>' : html`<ul class="plain">!${recent.map((incident) => incidentRow(incident, zone)).join('')}</ul>`}
  <p class="hint">Times in ${zone}.</p>
</section>`
}

const UPDATE_LABELS: Record<string, string> = { impact: 'Impact', notify_subscribers: 'Notify subscribers', message: 'Message', state: 'State', title: 'Title', component_ids: 'Affected components' }

export interface IncidentViewOptions {
  page: StatusPage
  incident: Incident
  components: Component[]
  updateForm: FormState
  editForm: FormState
  /** The Resolve form (its closing message); empty: the default text. */
  resolveForm?: FormState
  /** The postmortem form (its body as typed, and its errors). */
  postmortemForm?: FormState
  zone: string
}

const MARKDOWN_HINT = 'Markdown: **bold**, *italic*, [a link](https://…), lists with - or 1., `code`. HTML shows as text.'

/**
 * The postmortem of a resolved incident: written as a draft, then published (subscribers told if
 * ticked); once published, a save changes it at once.
 */
function postmortemSection(incident: Incident, form: FormState | undefined, zone: string): string {
  const id = String(incident.id)
  const postmortem = incident.postmortem
  if (incident.state !== 'resolved') {
    return html`<section class="card" aria-labelledby="postmortem-heading">
  <h2 id="postmortem-heading">Postmortem</h2>
  <p class="hint">Once the incident is resolved, write what happened and what changes; publish it on the page when ready.</p>
</section>`
  }
  const state = form ?? emptyForm({ body: postmortem?.body ?? '' })
  const published = postmortem?.publishedAt ?? null
  const status =
    published !== null
      ? html`Published ${formatInZone(published, zone)} on the incident's page and in the feeds. A save changes it there at once.`
      : postmortem
        ? 'A draft: only you see it.'
        : 'Not written yet.'
  return html`<section class="card" aria-labelledby="postmortem-heading">
  <h2 id="postmortem-heading">Postmortem</h2>
  <p class="hint" id="postmortem-status">${status}</p>
  !${errorSummary(state, { body: 'Postmortem text' })}
  <form method="post" action="/user/incidents/${id}/postmortem" class="stack" novalidate>
    !${textArea({ name: 'body', label: 'Postmortem text', rows: 8, hint: MARKDOWN_HINT, state })}
    <button type="submit"!${published === null ? ' class="secondary"' : ''}>${published === null ? 'Save draft' : 'Save postmortem'}</button>
  </form>
  !${
    postmortem && published === null
      ? html`<form method="post" action="/user/incidents/${id}/postmortem/publish" class="resolve">
    !${notifySubscribersBox('postmortem')}
    <button type="submit">Publish postmortem</button>
  </form>`
      : ''
  }
</section>`
}

/** What the Resolve button posts as the closing entry unless the owner writes another. */
export const RESOLVE_MESSAGE = 'The issue is fixed and everything works normally again.'

/** The Resolve form's message box: its own id beside the update form's "Message". */
function resolveMessageField(form: FormState): string {
  const error = form.errors.message
  const described = `resolve-message-hint${error ? ' resolve-message-error' : ''}`
  return html`<div class="field!${error ? ' has-error' : ''}">
  <label for="resolve-message">Closing message</label>
  <textarea id="resolve-message" name="message" rows="2" aria-describedby="${described}"!${error ? ' aria-invalid="true"' : ''}>${form.values.message ?? RESOLVE_MESSAGE}</textarea>
  <p class="hint" id="resolve-message-hint">The timeline's last entry, which notified subscribers read too. Left empty, the text above is posted.</p>
  !${error ? html`<p class="field-error" id="resolve-message-error">${error}</p>` : ''}
</div>`
}

export function incidentView(options: IncidentViewOptions): string {
  const { page, incident, components, updateForm, editForm, zone } = options
  const resolveForm = options.resolveForm ?? emptyForm({})
  const id = String(incident.id)
  const affectedIds = new Set(incident.components.map((c) => c.id))
  // The update form offers the statuses of the affected components (all of them when page-wide).
  const statusChoices = components
    .filter((component) => affectedIds.size === 0 || affectedIds.has(component.id))
    .map((component) => ({ component, checked: true }))
  const ticked = new Set((editForm.values.component_ids ?? '').split(',').filter(Boolean))
  const editChoices = components.map((component) => ({ component, checked: ticked.has(String(component.id)) }))
  const resolved = incident.state === 'resolved'
  const timeline = [...incident.updates].reverse().map(
    (update) => html`<li><p><strong>${stateLabel(update.state)}</strong> · <time datetime="${new Date(update.at).toISOString()}">${formatInZone(update.at, zone)}</time></p>!${
      update.message ? html`<p class="message">${update.message}</p>` : ''
    }</li>`,
  )
  return html`<h1>${incident.title}</h1>
<p><span class="badge!${resolved ? ' ok' : ''}">${stateLabel(incident.state)}</span> <span class="muted">on <a href="/user/pages/${String(page.id)}">${page.name}</a> · ${
    incident.components.length === 0 ? 'whole page' : incident.components.map((c) => c.name).join(', ')
  }</span>!${automaticBadge(incident)}</p>
<p id="impact">Impact: <strong>${IMPACT_LABELS[incident.impact]}</strong> <span class="muted">(${incident.impactChosen === null ? 'from the components' : 'chosen'})</span></p>
!${automaticNote(incident)}
<section class="card" aria-labelledby="update-heading">
  <h2 id="update-heading">Post an update</h2>
  !${errorSummary(updateForm, UPDATE_LABELS)}
  <form method="post" action="/user/incidents/${id}/updates" class="stack" novalidate>
    !${textArea({ name: 'message', label: 'Message', rows: 3, state: updateForm })}
    !${selectField({ name: 'state', label: 'State', options: STATE_OPTIONS, state: updateForm, fallback: incident.state })}
    !${componentFieldset('Component statuses', statusChoices, updateForm, { checkboxes: false, statuses: true })}
    !${notifySubscribersField(updateForm, NOTIFY_HINT)}
    <button type="submit">Post update</button>
  </form>
  !${
    resolved
      ? ''
      : html`<form method="post" action="/user/incidents/${id}/resolve" class="resolve">
    !${resolveMessageField(resolveForm)}
    !${notifySubscribersBox('resolve')}
    <button type="submit" aria-describedby="resolve-hint">Resolve</button>
    <p class="hint" id="resolve-hint">Marks the incident resolved and its affected components operational.</p>
  </form>`
  }
</section>
<section class="card" aria-labelledby="timeline-heading">
  <h2 id="timeline-heading">Timeline</h2>
  <p class="hint">Newest first; times in ${zone}. Started ${formatInZone(incident.startedAt, zone)}!${
    incident.resolvedAt === null ? '' : html`, resolved ${formatInZone(incident.resolvedAt, zone)}`
  }.</p>
  <ol class="plain timeline">!${timeline.join('')}</ol>
</section>
!${postmortemSection(incident, options.postmortemForm, zone)}
<section class="card" aria-labelledby="edit-heading">
  <h2 id="edit-heading">Edit</h2>
  !${errorSummary(editForm, UPDATE_LABELS)}
  <form method="post" action="/user/incidents/${id}/edit" class="stack" novalidate>
    !${textField({ name: 'title', label: 'Title', maxLength: 200, state: editForm, autocomplete: 'off' })}
    !${impactField(editForm)}
    !${componentFieldset('Affected components', editChoices, editForm, { checkboxes: true, statuses: false })}
    <button type="submit" class="secondary">Save changes</button>
  </form>
</section>
<section class="card danger" aria-labelledby="delete-heading">
  <h2 id="delete-heading">Delete</h2>
  <p>Deleting removes the incident and its timeline from the public page and its history.</p>
  <p><a class="button danger" href="/user/incidents/${id}/delete">Delete incident…</a></p>
</section>`
}

export function deleteIncidentView(incident: Incident): string {
  return html`<h1>Delete "${incident.title}"?</h1>
<section class="card narrow danger">
  <p>This removes the incident and its ${counted(incident.updates.length, 'timeline entry', 'timeline entries')} from the public page and its history. It cannot be undone.</p>
  <form method="post" action="/user/incidents/${String(incident.id)}/delete" class="stack">
    <button type="submit" class="danger">Delete incident</button>
    <a href="/user/incidents/${String(incident.id)}">Cancel</a>
  </form>
</section>`
}

