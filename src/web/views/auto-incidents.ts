/**
 * The Auto incidents section of a page: the three settings (Auto Incidents, Auto Incident Notify,
 * Auto Resolve), the components that take part with why one is paused, and the plan's limit.
 */
import { counted, noun } from '../../lib/words.ts'
import { html } from '../../lib/html.ts'
import type { PageAutomation } from '../../modules/auto-incidents/service.ts'
import type { Incident } from '../../modules/incidents/service.ts'
import { planLabel } from '../../modules/plans/matrix.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { checkboxField, errorSummary, type FormState, fieldErrorText } from '../kit/forms.ts'
import { sectionNav } from './pages.ts'

export const AUTO_INCIDENTS_SECTION = 'Auto incidents'

const LABELS = {
  auto_incidents: 'Auto Incidents',
  auto_incident_notify: 'Auto Incident Notify',
  auto_resolve: 'Auto Resolve',
  component_ids: 'Components',
}

export interface AutoIncidentsViewInput {
  page: StatusPage
  automation: PageAutomation
  form: FormState
  reopenMinutes: number
  mailEnabled: boolean
}

/** The form's values from what is stored. */
export function automationValues(automation: PageAutomation): Record<string, string> {
  return {
    auto_incidents: automation.autoIncidents ? 'on' : '',
    auto_incident_notify: automation.notify ? 'on' : '',
    auto_resolve: automation.autoResolve ? 'on' : '',
    component_ids: automation.components.filter((c) => c.enabled).map((c) => c.id).join(','),
  }
}

function componentState(component: PageAutomation['components'][number]): string {
  if (component.pausedReason === 'plan_limit') return 'Paused: beyond your plan’s limit (the oldest ones keep working)'
  if (component.pausedReason === 'page_off') return 'Paused: Auto Incidents is off for this page'
  if (component.active) return component.monitored ? 'Working' : 'On, but no monitor watches it yet'
  return component.monitored ? 'Off' : 'Off (no monitor)'
}

function componentsFieldset(input: AutoIncidentsViewInput): string {
  const { automation, form } = input
  if (automation.components.length === 0) {
    return html`<p>This page has no components yet. <a href="/user/pages/${String(input.page.id)}/components">Add components</a> and a monitor for each.</p>`
  }
  const ticked = new Set((form.values.component_ids ?? '').split(',').filter(Boolean))
  const error = fieldErrorText(form, 'component_ids', 'Components')
  const rows = automation.components.map((component) => {
    const id = String(component.id)
    return html`<li class="component-choice"><span class="choice-name"><input type="checkbox" id="f-component-${id}" name="component_ids" value="${id}" aria-describedby="f-component-${id}-state"!${ticked.has(id) ? ' checked' : ''}> <label for="f-component-${id}">${component.name}</label></span> <span class="muted" id="f-component-${id}-state">${componentState(component)}</span></li>`
  })
  return html`<fieldset class="field components-field!${error ? ' has-error' : ''}" id="f-component_ids"!${error ? ' aria-describedby="f-component_ids-error"' : ''}>
  <legend>Components with automatic incidents</legend>
  <p class="hint">Each ticked component counts against your plan’s limit. A component needs a monitor: its confirmed state opens and resolves the incident.</p>
  <ul class="plain">!${rows.join('')}</ul>
  !${error ? html`<p class="field-error" id="f-component_ids-error">${error}</p>` : ''}
</fieldset>`
}

function planLine(automation: PageAutomation): string {
  const plan = planLabel(automation.plan)
  if (automation.limit === null) return html`<p>Your ${plan} plan has no limit: ${counted(automation.used, 'component')} ${automation.used === 1 ? 'has' : 'have'} automatic incidents on, over all your pages.</p>`
  if (automation.limit === 0 && automation.used === 0) {
    return html`<p>Automatic incidents are not part of the ${plan} plan: Pro has them on 5 components, Growth on 20, Business and up on all.</p>`
  }
  const over = automation.used > automation.limit
  return html`<p>Your ${plan} plan allows automatic incidents on <strong>${String(automation.limit)}</strong> ${noun(automation.limit, 'component')} over all your pages; <strong>${String(automation.used)}</strong> ${automation.used === 1 ? 'has them' : 'have them'} on.!${over ? ' ' + html`Since the plan changed, only the ${String(automation.limit)} oldest work; the others are paused until you turn some off or upgrade.` : ''}</p>`
}

export function autoIncidentsView(input: AutoIncidentsViewInput): string {
  const { page, form } = input
  const id = String(page.id)
  const notifyHint = input.mailEnabled
    ? 'Subscribers hear of the opening and the resolution at once, on all their channels.'
    : 'Subscribers hear of the opening and the resolution at once. Mail is off on this server (no SMTP settings): only webhook and chat subscribers and channels are told.'
  return html`<h1>Automatic incidents: ${page.name}</h1>
!${sectionNav(page, AUTO_INCIDENTS_SECTION)}
<section class="card" aria-labelledby="auto-about">
  <h2 id="auto-about">How it works</h2>
  <p>When a monitor confirms that a chosen component is down, an incident “<em>Component</em> is experiencing issues” opens in Investigating with the component linked. While it stays down no second one opens. None opens during a maintenance of the component, while an open incident of yours covers it, or while one of its monitors is flapping.</p>
  <p>Once you post an update, the incident is yours: a recovery then adds an update instead of resolving it. A new failure within ${String(input.reopenMinutes)} minutes of an automatic resolve reopens the same incident, without telling subscribers again.</p>
  !${planLine(input.automation)}
</section>
<section class="card" aria-labelledby="auto-settings">
  <h2 id="auto-settings">Settings</h2>
  !${errorSummary(form, LABELS)}
  <form method="post" action="/user/pages/${id}/auto-incidents" class="stack" novalidate>
    !${checkboxField({ name: 'auto_incidents', label: LABELS.auto_incidents, hint: 'Open an incident when a chosen component is confirmed down.', state: form })}
    !${checkboxField({ name: 'auto_incident_notify', label: LABELS.auto_incident_notify, hint: notifyHint, state: form })}
    !${checkboxField({ name: 'auto_resolve', label: LABELS.auto_resolve, hint: 'Resolve it when the component is confirmed up again, with the recovery time and the outage length.', state: form })}
    !${componentsFieldset(input)}
    <button type="submit">Save automatic incidents</button>
  </form>
</section>`
}

/** An automatic incident nobody has taken over yet says so (next to its state), in lists and on its screen. */
export function automaticBadge(incident: Incident): string {
  if (!incident.automatic || incident.automatic.acknowledgedAt !== null) return ''
  return ' <span class="badge" title="Opened by automatic incidents; post an update to take it over">Automatic</span>'
}

/** On an automatic incident's screen: what posting an update changes. */
export function automaticNote(incident: Incident): string {
  if (!incident.automatic) return ''
  return incident.automatic.acknowledgedAt === null
    ? '<p class="hint">Opened automatically by a monitor. Post an update to take it over: a recovery then adds an update instead of resolving it.</p>'
    : '<p class="hint">Opened automatically, now yours: a recovery adds an update; you resolve it.</p>'
}
