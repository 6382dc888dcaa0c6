/**
 * The components screens of a page (pure): the list in page order (blocks as the public page shows
 * them) with a status control, Move up / Move down, edit and delete per component, move and rename
 * per group, and the "Add component" form; the edit form and the delete confirmation.
 * Drag-and-drop (/static/user/components.js) only re-posts the order the buttons also set.
 */
import { html } from '../../lib/html.ts'
import type { Component } from '../../modules/components/service.ts'
import { pageBlocks, type OrderBlock } from '../../modules/components/order.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { emptyForm, errorSummary, selectField, textArea, textField, type FormState } from '../kit/forms.ts'
import type { Crumb } from '../kit/layout.ts'
import { pageCrumbs, pagesCrumbs, sectionNav } from './pages.ts'

export const STATUS_OPTIONS = [
  { value: 'up', label: 'Operational' },
  { value: 'degraded', label: 'Degraded performance' },
  { value: 'partial', label: 'Partial outage' },
  { value: 'down', label: 'Down' },
]
const TYPE_OPTIONS = [
  { value: 'site', label: 'Website' },
  { value: 'api', label: 'API' },
  { value: 'dns', label: 'DNS' },
]
const labelOf = (options: ReadonlyArray<{ value: string; label: string }>, value: string) => options.find((o) => o.value === value)?.label ?? value
export const statusLabel = (status: string) => labelOf(STATUS_OPTIONS, status)

const LABELS: Record<string, string> = { name: 'Name', type: 'Type', group: 'Group', description: 'Description', status: 'Status', from: 'Group', to: 'New name' }

export const componentsPath = (pageId: number) => `/user/pages/${pageId}/components`
const componentPath = (c: Component) => `${componentsPath(c.pageId)}/${c.id}`

export const componentsCrumbs = (page: StatusPage, current?: string): Crumb[] =>
  current
    ? [...pagesCrumbs(), { label: page.name, href: `/user/pages/${page.id}` }, { label: 'Components', href: componentsPath(page.id) }, { label: current }]
    : pageCrumbs(page, 'Components')

/** A one-button form; `context` is read by screen readers after the visible label. */
function actionButton(action: string, label: string, context: string, fields: Record<string, string>, disabled = false): string {
  const hidden = Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)
  return html`<form method="post" action="${action}" class="inline">!${hidden.join('')}<button type="submit" class="secondary"!${disabled ? ' disabled' : ''}>${label}<span class="visually-hidden"> ${context}</span></button></form>`
}

function statusForm(c: Component): string {
  const id = `status-${c.id}`
  const options = STATUS_OPTIONS.map((o) => html`<option value="${o.value}"!${o.value === c.status ? ' selected' : ''}>${o.label}</option>`)
  return html`<form method="post" action="${componentPath(c)}/status" class="comp-status">
  <label for="${id}" class="visually-hidden">Status of ${c.name}</label>
  <select id="${id}" name="status">!${options.join('')}</select>
  <button type="submit">Set<span class="visually-hidden"> status of ${c.name}</span></button>
</form>`
}

function componentItem(c: Component, index: number, count: number): string {
  const path = componentPath(c)
  return html`<li class="comp" id="c-${String(c.id)}" data-id="${String(c.id)}" tabindex="-1">
  <div class="comp-head">
    <span class="comp-name">${c.name}</span>
    <span class="muted">${labelOf(TYPE_OPTIONS, c.type)}</span>
    <span class="comp-state comp-state-${c.status}">${statusLabel(c.status)}</span>
  </div>
  <div class="comp-actions">
    !${statusForm(c)}
    <div class="comp-move">
      !${actionButton(`${path}/move`, 'Move up', c.name, { direction: 'up' }, index === 0)}
      !${actionButton(`${path}/move`, 'Move down', c.name, { direction: 'down' }, index === count - 1)}
    </div>
    <a href="${path}">Edit<span class="visually-hidden"> ${c.name}</span></a>
    <a href="${path}/history">History<span class="visually-hidden"> of ${c.name}</span></a>
    <a href="${path}/delete">Delete<span class="visually-hidden"> ${c.name}</span></a>
  </div>
</li>`
}

/** One form for every group: pick it, type its new name (empty ungroups, another group's name merges). */
function renameSection(page: StatusPage, groups: string[], state: FormState | undefined): string {
  if (groups.length === 0) return ''
  const form: FormState = state ?? emptyForm({ from: groups[0] })
  return html`<section class="card" aria-labelledby="rename-heading">
  <h2 id="rename-heading">Rename a group</h2>
  !${errorSummary(form, LABELS)}
  <form method="post" action="${componentsPath(page.id)}/groups/rename" class="stack" novalidate>
    !${selectField({ name: 'from', label: 'Group', options: groups.map((g) => ({ value: g, label: g })), state: form })}
    !${textField({ name: 'to', label: 'New name', hint: 'Empty takes its components out of any group; the name of another group merges them.', maxLength: 100, autocomplete: 'off', state: form })}
    <button type="submit">Rename group</button>
  </form>
</section>`
}

function blockSection(page: StatusPage, block: OrderBlock<Component>, index: number, count: number): string {
  const items = block.items.map((c, i) => componentItem(c, i, block.items.length)).join('')
  const heading = block.group ?? 'Not in a group'
  const moves = html`<div class="comp-move">
    !${actionButton(`${componentsPath(page.id)}/groups/move`, 'Move group up', heading, { member: String(block.items[0]!.id), direction: 'up' }, index === 0)}
    !${actionButton(`${componentsPath(page.id)}/groups/move`, 'Move group down', heading, { member: String(block.items[0]!.id), direction: 'down' }, index === count - 1)}
  </div>`
  return html`<section class="comp-block" aria-labelledby="block-${String(index)}">
  <div class="comp-block-head"><h3 id="block-${String(index)}">${heading}</h3>!${count > 1 ? moves : ''}</div>
  <ol class="comp-list">!${items}</ol>
</section>`
}

export interface ComponentsViewOptions {
  /** The "Add component" form (values and errors). */
  add: FormState
  /** A rename that came back with an error. */
  rename?: FormState
}

export function componentsView(page: StatusPage, components: Component[], options: ComponentsViewOptions): string {
  const blocks = pageBlocks(components)
  const groups = [...new Set(components.map((c) => c.group).filter((g): g is string => g !== null))]
  const list =
    components.length === 0
      ? html`<p>No components yet. Add the parts of your service people depend on (website, API, DNS…).</p>`
      : html`<p class="hint">Shown in this order on the public page; a group stands where its first component does. Drag a component, or use Move up and Move down.</p>
!${blocks.map((block, i) => blockSection(page, block, i, blocks.length)).join('')}
<form method="post" action="${componentsPath(page.id)}/order" id="order-form" hidden><input type="hidden" name="ids" value="${components.map((c) => c.id).join(',')}"><button type="submit">Save the order</button></form>`
  return html`<h1>Components: ${page.name}</h1>
!${sectionNav(page, 'Components')}
<section class="card" aria-labelledby="list-heading">
  <h2 id="list-heading">Components</h2>
  !${list}
</section>
!${renameSection(page, groups, options.rename)}
<section class="card" aria-labelledby="add-heading">
  <h2 id="add-heading">Add component</h2>
  !${errorSummary(options.add, LABELS)}
  <form method="post" action="${componentsPath(page.id)}" class="stack" novalidate>
    !${componentFields(options.add)}
    !${groupNames(groups)}
    <button type="submit">Add component</button>
  </form>
</section>`
}

/** Suggestions for the group field: the page's existing groups. */
const groupNames = (groups: string[]) => html`<datalist id="group-names">!${groups.map((g) => html`<option value="${g}"></option>`).join('')}</datalist>`

function componentFields(form: FormState): string {
  return [
    textField({ name: 'name', label: 'Name', hint: 'As visitors see it, e.g. Website or Payments API.', required: true, maxLength: 100, state: form }),
    selectField({ name: 'type', label: 'Type', options: TYPE_OPTIONS, state: form, fallback: 'site' }),
    textField({ name: 'group', label: 'Group', hint: 'Optional, e.g. Backend. Components of a group are shown together.', maxLength: 100, autocomplete: 'off', list: 'group-names', state: form }),
    textArea({ name: 'description', label: 'Description', hint: 'Optional: a line under the name on the public page, e.g. what it covers. Markdown: **bold**, [links](https://example.com) and `code`.', rows: 2, state: form }),
    selectField({ name: 'status', label: 'Status', options: STATUS_OPTIONS, state: form, fallback: 'up' }),
  ].join('')
}

export function editComponentView(page: StatusPage, component: Component, groups: string[], form: FormState): string {
  return html`<h1>Edit ${component.name}</h1>
!${sectionNav(page, 'Components')}
<section class="card" aria-labelledby="edit-heading">
  <h2 id="edit-heading">Component</h2>
  !${errorSummary(form, LABELS)}
  <form method="post" action="${componentPath(component)}" class="stack" novalidate>
    !${componentFields(form)}
    !${groupNames(groups)}
    <button type="submit">Save component</button>
    <a href="${componentsPath(page.id)}">Cancel</a>
  </form>
</section>
<section class="card" aria-labelledby="history-link-heading">
  <h2 id="history-link-heading">Status history</h2>
  <p><a href="${componentPath(component)}/history">Status history and corrections</a>: see each change, and correct a past span after a false outage.</p>
</section>
<section class="card" aria-labelledby="vendor-link-heading">
  <h2 id="vendor-link-heading">Vendor status</h2>
  <p><a href="${componentPath(component)}/vendor-feed">Follow a provider's status page</a>: for a service you depend on, take the status from its public Statuspage-style page.</p>
</section>
<section class="card danger" aria-labelledby="danger-heading">
  <h2 id="danger-heading">Delete this component</h2>
  <p><a class="button danger" href="${componentPath(component)}/delete">Delete component…</a></p>
</section>`
}

export function deleteComponentView(page: StatusPage, component: Component): string {
  return html`<h1>Delete ${component.name}?</h1>
<section class="card narrow danger">
  <p>This removes <strong>${component.name}</strong> from ${page.name} with its status history and uptime. It cannot be undone.</p>
  <form method="post" action="${componentPath(component)}/delete" class="stack">
    <button type="submit" class="danger">Delete component</button>
    <a href="${componentsPath(page.id)}">Cancel</a>
  </form>
</section>`
}
