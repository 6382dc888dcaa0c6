/**
 * The incident templates screens: the list with "New template", edit, delete confirmation. "Use"
 * opens a page's incident form filled from the template (one link per page).
 */
import { html } from '../../lib/html.ts'
import type { IncidentTemplate } from '../../modules/incidents/service.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { errorSummary, textArea, textField, type FormState } from '../kit/forms.ts'
import type { Crumb } from '../kit/layout.ts'

const LABELS: Record<string, string> = { name: 'Name', title: 'Title', message: 'Message' }
const PLACEHOLDER_HINT = '{{component}} becomes the affected components ("all systems" when none), {{page}} the page name.'

export const templatesCrumbs = (current?: string): Crumb[] =>
  current ? [{ label: 'Templates', href: '/user/templates' }, { label: current }] : [{ label: 'Templates' }]

function templateFields(form: FormState): string {
  return html`!${textField({ name: 'name', label: 'Name', hint: 'For you only, e.g. "Database down".', required: true, maxLength: 100, state: form, autocomplete: 'off' })}
!${textField({ name: 'title', label: 'Incident title', hint: PLACEHOLDER_HINT, required: true, maxLength: 200, state: form, autocomplete: 'off' })}
!${textArea({ name: 'message', label: 'First message', rows: 4, state: form })}`
}

function useLinks(template: IncidentTemplate, pages: StatusPage[]): string {
  if (pages.length === 0) return '<span class="muted">Create a page to use it.</span>'
  const links = pages.map(
    (page) => html`<li><a href="/user/pages/${String(page.id)}/incidents?template=${String(template.id)}#report">Use on ${page.name}</a></li>`,
  )
  return html`<ul class="plain inline-list">!${links.join('')}</ul>`
}

export function templatesListView(templates: IncidentTemplate[], pages: StatusPage[], form: FormState): string {
  const rows = templates.map(
    (template) => html`<tr>
  <td><a href="/user/templates/${String(template.id)}">${template.name}</a></td>
  <td>${template.title}</td>
  <td>!${useLinks(template, pages)}</td>
</tr>`,
  )
  const list =
    templates.length === 0
      ? '<p>No templates yet. A template holds the wording of an incident you expect, ready to open in two keystrokes.</p>'
      : html`<section class="scroll" tabindex="0" aria-label="Your incident templates"><table><caption class="visually-hidden">Your incident templates</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Incident title</th><th scope="col">Use</th></tr></thead>
<tbody>!${rows.join('')}</tbody></table></section>`
  return html`<h1>Incident templates</h1>
<section class="card" aria-labelledby="templates-heading"><h2 id="templates-heading" class="visually-hidden">Templates</h2>!${list}</section>
<section class="card" aria-labelledby="new-heading">
  <h2 id="new-heading">New template</h2>
  !${errorSummary(form, LABELS)}
  <form method="post" action="/user/templates" class="stack" novalidate>
    !${templateFields(form)}
    <button type="submit">Create template</button>
  </form>
</section>`
}

export function templateEditView(template: IncidentTemplate, pages: StatusPage[], form: FormState): string {
  const id = String(template.id)
  return html`<h1>Template: ${template.name}</h1>
<section class="card" aria-labelledby="edit-heading">
  <h2 id="edit-heading">Edit</h2>
  !${errorSummary(form, LABELS)}
  <form method="post" action="/user/templates/${id}" class="stack" novalidate>
    !${templateFields(form)}
    <button type="submit">Save template</button>
  </form>
</section>
<section class="card" aria-labelledby="use-heading"><h2 id="use-heading">Use</h2>!${useLinks(template, pages)}</section>
<section class="card danger" aria-labelledby="delete-heading">
  <h2 id="delete-heading">Delete</h2>
  <p>Incidents opened from it stay as they are.</p>
  <p><a class="button danger" href="/user/templates/${id}/delete">Delete template…</a></p>
</section>`
}

export function deleteTemplateView(template: IncidentTemplate): string {
  const id = String(template.id)
  return html`<h1>Delete the template "${template.name}"?</h1>
<section class="card narrow danger">
  <p>Incidents opened from it stay as they are.</p>
  <form method="post" action="/user/templates/${id}/delete" class="stack">
    <button type="submit" class="danger">Delete template</button>
    <a href="/user/templates/${id}">Cancel</a>
  </form>
</section>`
}
