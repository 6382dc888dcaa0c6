/**
 * The incident screens, on the same service methods the API routes call (IncidentsService create,
 * createFromTemplate, addUpdate, update, delete; ComponentsService update for component statuses)
 * and the API's own body schemas:
 *
 *   GET  /user/pages/:id/incidents        open + recent, the full report form   POST same   open one
 *   GET  /user/incidents/:id              update form first, Resolve, timeline, edit
 *   POST /user/incidents/:id/updates      post an update (message, state, component statuses)
 *   POST /user/incidents/:id/resolve      resolve; affected components back to operational
 *   POST /user/incidents/:id/edit         title and affected components
 *   POST /user/incidents/:id/postmortem   save the postmortem (a draft until published)
 *   POST /user/incidents/:id/postmortem/publish   publish it (notify_subscribers: tell subscribers)
 *   GET  /user/incidents/:id/delete       confirmation                          POST same   delete
 *
 * The page overview carries the short report form (overviewIncidentsPanel), which posts to the same route.
 */
import { Elysia, t } from 'elysia'
import type { Owner } from '../../modules/accounts/service.ts'
import type { Component } from '../../modules/components/service.ts'
import type { ComponentStatus } from '../../modules/components/tables.ts'
import { CreateIncidentBody, FromTemplateBody, IncidentUpdateBody, PostmortemBody, PublishPostmortemBody, UpdateIncidentBody } from '../../modules/incidents/model.ts'
import type { Incident } from '../../modules/incidents/service.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { emptyForm, errorStatus, formFields, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens } from '../kit/guard.ts'
import { html } from '../../lib/html.ts'
import { chosenZone, zoneCookie, zoneOf } from '../kit/zones.ts'
import { deleteIncidentView, incidentCrumbs, incidentsCrumbs, incidentsPageView, incidentView, openIncidentsList, reportForm, RESOLVE_MESSAGE } from '../views/incidents.ts'
import type { ScreenDeps } from './deps.ts'
import { readIdList, readLocalTimes, readStatusChanges } from './form-lists.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const IdPath = t.Object({ id: t.String() })
const FORM_ERRORS = { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse, 409: HtmlResponse }
const STYLES = '<link rel="stylesheet" href="/static/user/incidents.css">'
const SCRIPTS = ['/static/user/when.js']

export function incidentScreens(deps: ScreenDeps<'accounts' | 'pages' | 'incidents' | 'components'>) {
  const { services, config } = deps
  const { pages, incidents, components } = services
  const screen = screens({ accounts: services.accounts, config })

  const editForm = (incident: Incident): FormState =>
    emptyForm({ title: incident.title, component_ids: incident.components.map((c) => c.id).join(','), impact: incident.impactChosen ?? '' })

  async function incidentsPage(user: Owner, page: StatusPage, form: FormState, request: Request) {
    const [list, componentList, templates] = await Promise.all([
      incidents.list(user, { pageId: page.id, limit: 50 }),
      components.list(user, page.id),
      incidents.listTemplates(user),
    ])
    return incidentsPageView({
      page,
      incidents: list,
      components: componentList,
      templates,
      form,
      full: true,
      zone: zoneOf(request),
      zoneGuessed: chosenZone(request) === undefined,
    })
  }

  /** The new-incident form, filled from a template when `?template=` names one of the owner's. */
  async function newIncidentForm(user: Owner, templateParam: string | undefined): Promise<FormState> {
    if (!templateParam) return emptyForm({ state: 'investigating' })
    const template = await incidents.getTemplate(user, idParam(templateParam))
    return emptyForm({ state: 'investigating', template_id: String(template.id), title: template.title, message: template.message })
  }

  async function applyStatuses(user: Owner, changes: Array<{ component: Component; status: ComponentStatus }>) {
    for (const change of changes) await components.update(user, change.component.id, { status: change.status })
  }

  async function incidentScreen(user: Owner, incident: Incident, updateForm: FormState, edit: FormState, request: Request, resolveForm?: FormState, postmortemForm?: FormState) {
    const page = await pages.get(user, incident.pageId)
    const componentList = await components.list(user, page.id)
    return {
      title: incident.title,
      crumbs: incidentCrumbs(page, incident),
      body: incidentView({
        page,
        incident,
        components: componentList,
        updateForm,
        editForm: edit,
        zone: zoneOf(request),
        ...(resolveForm ? { resolveForm } : {}),
        ...(postmortemForm ? { postmortemForm } : {}),
      }),
    }
  }

  return new Elysia()
    .get(
      '/user/pages/:id/incidents',
      screen(async ({ user, params, query, request, render }) => {
        const page = await pages.get(user, idParam(params.id))
        const form = await newIncidentForm(user, query.template)
        return render({ title: `Incidents: ${page.name}`, crumbs: incidentsCrumbs(page), head: STYLES, scripts: SCRIPTS }, await incidentsPage(user, page, form, request))
      }),
      {
        params: IdPath,
        query: t.Object({ template: t.Optional(t.String({ maxLength: 20 })) }),
        response: { 200: HtmlResponse, 404: HtmlResponse },
        detail: detail("A page's incidents: open, recent, and the report form (template= fills it from a template)"),
      },
    )
    .post(
      '/user/pages/:id/incidents',
      screen(async ({ user, params, body, request, render, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const fields = formFields(body)
        const templateId = fields.template_id ? idParam(fields.template_id) : undefined
        // Another owner's template is a 404, as the API's.
        if (templateId !== undefined) await incidents.getTemplate(user, templateId)
        const state: FormState = { values: { ...fields }, errors: {} }
        const times = readLocalTimes(body, ['started_at'], state, zoneOf(request))
        const form =
          templateId === undefined
            ? readForm(CreateIncidentBody, times.body, { only: ['title', 'message', 'state', 'started_at', 'impact', 'notify_subscribers'] })
            : readForm(FromTemplateBody, times.body, { only: ['title', 'message', 'state', 'impact', 'notify_subscribers'] })
        Object.assign(state.errors, form.state.errors)
        const componentIds = readIdList(CreateIncidentBody.properties.component_ids, body, state)
        const componentList = await components.list(user, page.id)
        const statusChanges = readStatusChanges(body, componentList, state)
        const again = async (formState: FormState, status: number) =>
          render({ title: `Incidents: ${page.name}`, crumbs: incidentsCrumbs(page), head: STYLES, scripts: SCRIPTS }, await incidentsPage(user, page, formState, request), status)
        if (!form.ok || componentIds === undefined || Object.keys(state.errors).length > 0) return again(state, 400)
        let incident: Incident
        try {
          // A component whose status the form sets is affected, ticked or not.
          const affected = [...new Set([...componentIds, ...statusChanges.map((change) => change.component.id)])]
          const target = { status_page_id: page.id, component_ids: affected }
          incident =
            templateId === undefined
              ? await incidents.create(user, { ...form.value, ...target })
              : await incidents.createFromTemplate(user, templateId, { ...form.value, ...target })
        } catch (error) {
          return again(serviceErrorState(error, state), errorStatus(error))
        }
        await applyStatuses(user, statusChanges)
        const response = redirect(`/user/incidents/${incident.id}`, `Incident "${incident.title}" opened.`)
        if (fields.tz && times.zone === fields.tz) response.headers.append('set-cookie', zoneCookie(config, times.zone))
        return response
      }),
      { params: IdPath, response: FORM_ERRORS, detail: detail('Open an incident (form post; template_id uses a template)') },
    )
    .get(
      '/user/incidents/:id',
      screen(async ({ user, params, request, render }) => {
        const incident = await incidents.get(user, idParam(params.id))
        const view = await incidentScreen(user, incident, emptyForm({ state: incident.state }), editForm(incident), request)
        return render({ title: view.title, crumbs: view.crumbs, head: STYLES }, view.body)
      }),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('An incident: post an update, resolve, timeline, edit') },
    )
    .post(
      '/user/incidents/:id/updates',
      screen(async ({ user, params, body, request, render, redirect }) => {
        const incident = await incidents.get(user, idParam(params.id))
        const form = readForm(IncidentUpdateBody, body, { only: ['message', 'state', 'notify_subscribers'] })
        const state = form.state
        const componentList = await components.list(user, incident.pageId)
        const statusChanges = readStatusChanges(body, componentList, state)
        const again = async (formState: FormState, status: number) => {
          const view = await incidentScreen(user, incident, formState, editForm(incident), request)
          return render({ title: view.title, crumbs: view.crumbs, head: STYLES }, view.body, status)
        }
        if (!form.ok || Object.keys(state.errors).length > 0) return again(state, 400)
        // As a PATCH would: the state only when it changes; statuses alone add no timeline entry.
        const input = {
          message: form.value.message || undefined,
          state: form.value.state === incident.state ? undefined : form.value.state,
          notify_subscribers: form.value.notify_subscribers,
        }
        const entry = input.message !== undefined || input.state !== undefined
        try {
          if (entry || statusChanges.length === 0) await incidents.addUpdate(user, incident.id, input)
        } catch (error) {
          return again(serviceErrorState(error, state), errorStatus(error))
        }
        await applyStatuses(user, statusChanges)
        return redirect(`/user/incidents/${incident.id}`, entry ? 'Update posted.' : 'Component statuses saved.')
      }),
      { params: IdPath, response: FORM_ERRORS, detail: detail('Post an update to an incident (form post; status_<component id> sets statuses)') },
    )
    .post(
      '/user/incidents/:id/resolve',
      screen(async ({ user, params, body, request, render, redirect }) => {
        const incident = await incidents.get(user, idParam(params.id))
        // The closing message (empty or absent: the default text) and "Notify subscribers" (absent: false).
        const form = readForm(IncidentUpdateBody, body, { only: ['message', 'notify_subscribers'] })
        const again = async (formState: FormState, status: number) => {
          const view = await incidentScreen(user, incident, emptyForm({ state: incident.state }), editForm(incident), request, formState)
          return render({ title: view.title, crumbs: view.crumbs, head: STYLES }, view.body, status)
        }
        if (!form.ok) return again(form.state, 400)
        const message = form.value.message?.trim() || RESOLVE_MESSAGE
        try {
          if (incident.state !== 'resolved') await incidents.addUpdate(user, incident.id, { state: 'resolved', message, notify_subscribers: form.value.notify_subscribers })
        } catch (error) {
          return again(serviceErrorState(error, form.state), errorStatus(error))
        }
        // The affected components (all of the page's when page-wide) are operational again.
        const affected = new Set(incident.components.map((c) => c.id))
        const componentList = await components.list(user, incident.pageId)
        const back = componentList.filter((c) => c.status !== 'up' && (affected.size === 0 || affected.has(c.id)))
        await applyStatuses(user, back.map((component) => ({ component, status: 'up' as const })))
        return redirect(`/user/incidents/${incident.id}`, `Incident "${incident.title}" resolved.`)
      }),
      { params: IdPath, response: FORM_ERRORS, detail: detail('Resolve an incident (form post; message: the closing entry, empty for the default text)') },
    )
    .post(
      '/user/incidents/:id/edit',
      screen(async ({ user, params, body, request, render, redirect }) => {
        const incident = await incidents.get(user, idParam(params.id))
        const form = readForm(UpdateIncidentBody, body, { only: ['title', 'impact'] })
        const state = form.state
        const componentIds = readIdList(UpdateIncidentBody.properties.component_ids, body, state)
        const again = async (formState: FormState, status: number) => {
          const view = await incidentScreen(user, incident, emptyForm({ state: incident.state }), formState, request)
          return render({ title: view.title, crumbs: view.crumbs, head: STYLES }, view.body, status)
        }
        if (!form.ok || componentIds === undefined) return again(state, 400)
        try {
          // An emptied title is sent as "" (refused with the API's text, as a PATCH with it would be).
          await incidents.update(user, incident.id, { title: form.value.title ?? '', component_ids: componentIds, impact: form.value.impact ?? null })
        } catch (error) {
          return again(serviceErrorState(error, state), errorStatus(error))
        }
        return redirect(`/user/incidents/${incident.id}`, 'Incident saved.')
      }),
      { params: IdPath, response: FORM_ERRORS, detail: detail('Change the title, impact and affected components of an incident (form post)') },
    )
    .post(
      '/user/incidents/:id/postmortem',
      screen(async ({ user, params, body, request, render, redirect }) => {
        const incident = await incidents.get(user, idParam(params.id))
        // An emptied box is sent as "" (removes a draft; refused once published, as the API does).
        const form = readForm(PostmortemBody, { body: '', ...formFields(body) }, { only: ['body'] })
        const again = async (formState: FormState, status: number) => {
          const view = await incidentScreen(user, incident, emptyForm({ state: incident.state }), editForm(incident), request, undefined, formState)
          return render({ title: view.title, crumbs: view.crumbs, head: STYLES }, view.body, status)
        }
        if (!form.ok) return again(form.state, 400)
        let saved: Incident
        try {
          saved = await incidents.savePostmortem(user, incident.id, { body: form.value.body ?? '' })
        } catch (error) {
          return again(serviceErrorState(error, form.state), errorStatus(error))
        }
        const note = saved.postmortem?.publishedAt != null ? 'Postmortem saved: the page shows the change.' : saved.postmortem ? 'Postmortem draft saved.' : 'Postmortem draft removed.'
        return redirect(`/user/incidents/${incident.id}#postmortem-heading`, note)
      }),
      { params: IdPath, response: FORM_ERRORS, detail: detail('Save the postmortem of a resolved incident (form post; a draft until published)') },
    )
    .post(
      '/user/incidents/:id/postmortem/publish',
      screen(async ({ user, params, body, request, render, redirect }) => {
        const incident = await incidents.get(user, idParam(params.id))
        const form = readForm(PublishPostmortemBody, body, { only: ['notify_subscribers'] })
        const again = async (formState: FormState, status: number) => {
          const view = await incidentScreen(user, incident, emptyForm({ state: incident.state }), editForm(incident), request, undefined, formState)
          return render({ title: view.title, crumbs: view.crumbs, head: STYLES }, view.body, status)
        }
        if (!form.ok) return again(form.state, 400)
        try {
          await incidents.publishPostmortem(user, incident.id, { notify_subscribers: form.value.notify_subscribers })
        } catch (error) {
          return again(serviceErrorState(error, emptyForm({ body: incident.postmortem?.body ?? '' })), errorStatus(error))
        }
        return redirect(`/user/incidents/${incident.id}#postmortem-heading`, form.value.notify_subscribers ? 'Postmortem published; subscribers are told.' : 'Postmortem published.')
      }),
      { params: IdPath, response: FORM_ERRORS, detail: detail('Publish the postmortem (form post; notify_subscribers tells the subscribers)') },
    )
    .get(
      '/user/incidents/:id/delete',
      screen(async ({ user, params, render }) => {
        const incident = await incidents.get(user, idParam(params.id))
        const page = await pages.get(user, incident.pageId)
        return render({ title: `Delete ${incident.title}`, crumbs: incidentCrumbs(page, incident, 'Delete') }, deleteIncidentView(incident))
      }),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('An incident: confirm deletion') },
    )
    .post(
      '/user/incidents/:id/delete',
      screen(async ({ user, params, redirect }) => {
        const incident = await incidents.get(user, idParam(params.id))
        await incidents.delete(user, incident.id)
        return redirect(`/user/pages/${incident.pageId}/incidents`, `Incident "${incident.title}" deleted.`)
      }),
      { params: IdPath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Delete an incident (form post)') },
    )
}

/** The page overview's incident panel: open incidents and the short "Report an incident" form. */
export async function overviewIncidentsPanel(deps: ScreenDeps<'incidents' | 'components'>, user: Owner, page: StatusPage, request: Request): Promise<string> {
  const { incidents, components } = deps.services
  const [open, componentList, templates] = await Promise.all([
    incidents.list(user, { pageId: page.id, limit: 20 }),
    components.list(user, page.id),
    incidents.listTemplates(user),
  ])
  const zone = zoneOf(request)
  const form = emptyForm({ state: 'investigating' })
  return html`<section class="card" aria-labelledby="incidents-heading">
<h2 id="incidents-heading">Incidents</h2>
!${openIncidentsList(open, zone)}
<h3 id="report-heading">Report an incident</h3>
!${reportForm({ page, components: componentList, templates, form, full: false, zone })}
<p><a href="/user/pages/${String(page.id)}/incidents">All incidents</a></p>
</section>`
}
