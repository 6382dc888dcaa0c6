/**
 * The maintenance screens, on the MaintenancesService methods the API routes call (create, update,
 * delete) and the API's own body schemas. Times are typed as `datetime-local` in the zone the form
 * names (remembered in a cookie) and sent to the service as RFC 3339 UTC, as the API takes them.
 *
 *   GET  /user/pages/:id/maintenance      active, upcoming, past + schedule form   POST same   schedule
 *   GET  /user/maintenance/:id            edit                                     POST same   save
 *   POST /user/maintenance/:id/updates    post an update (Markdown message, status label) to the window's timeline
 *   POST /user/maintenance/:id/end        end an active window now (PATCH end_at)
 *   GET  /user/maintenance/:id/cancel     confirmation                             POST same   cancel (DELETE)
 */
import { Elysia, t } from 'elysia'
import { html } from '../../lib/html.ts'
import type { Owner } from '../../modules/accounts/service.ts'
import { CreateMaintenanceBody, UpdateMaintenanceBody } from '../../modules/maintenances/model.ts'
import type { Maintenance } from '../../modules/maintenances/service.ts'
import { maintenancePhase } from '../../modules/status-pipeline/windows.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { emptyForm, errorStatus, formFields, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens } from '../kit/guard.ts'
import { chosenZone, toLocalInput, zoneCookie, zoneOf } from '../kit/zones.ts'
import { cancelMaintenanceView, glance, glanceLists, maintenanceCrumbs, maintenanceEditView, maintenancePageView, seriesSection } from '../views/maintenances.ts'
import type { ScreenDeps } from './deps.ts'
import { readIdList, readLocalTimes } from './form-lists.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const IdPath = t.Object({ id: t.String() })
const FORM_ERRORS = { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse }
const TIMES = ['start_at', 'end_at'] as const
const STYLES = '<link rel="stylesheet" href="/static/user/incidents.css">'
const SCRIPTS = ['/static/user/when.js']

/** Reads the window form: typed values kept for re-rendering, times converted from the named zone. */
function readWindow<S extends typeof CreateMaintenanceBody | typeof UpdateMaintenanceBody>(schema: S, body: unknown, request: Request, extra: Record<string, unknown> = {}) {
  const typed: FormState = { values: formFields(body), errors: {} }
  const times = readLocalTimes(body, TIMES, typed, zoneOf(request))
  // notify_subscribers only where the schema has it (scheduling; the API's update takes none).
  const notify = 'notify_subscribers' in schema.properties ? ['notify_subscribers'] : []
  const only = ['title', 'start_at', 'end_at', 'message', ...notify, ...Object.keys(extra)]
  const form = readForm(schema, { ...times.body, ...extra }, { only })
  const state: FormState = { values: typed.values, errors: { ...typed.errors, ...form.state.errors } }
  const componentIds = readIdList(schema.properties.component_ids, body, state)
  const ok = form.ok && componentIds !== undefined && Object.keys(state.errors).length === 0
  return { ok, value: form.ok ? form.value : undefined, componentIds, state, zone: times.zone, zoneNamed: typed.values.tz === times.zone }
}

export function maintenanceScreens(deps: ScreenDeps<'accounts' | 'pages' | 'maintenances' | 'maintenanceSeries' | 'components'>) {
  const { services, config } = deps
  const { pages, maintenances, maintenanceSeries, components } = services
  const screen = screens({ accounts: services.accounts, config })

  async function pageView(user: Owner, page: StatusPage, form: FormState, request: Request, seriesForm = emptyForm()) {
    const [windows, componentList, series] = await Promise.all([
      maintenances.list(user, { pageId: page.id, limit: 200 }),
      components.list(user, page.id),
      maintenanceSeries.list(user, { pageId: page.id }),
    ])
    const view = glance(windows, maintenances.now())
    const zone = zoneOf(request)
    return maintenancePageView(page, view, { components: componentList, form, zone, zoneGuessed: chosenZone(request) === undefined }, seriesSection(page.id, series, seriesForm, zone))
  }

  async function editView(user: Owner, window: Maintenance, form: FormState, request: Request, updateForm = emptyForm()) {
    const page = await pages.get(user, window.pageId)
    const componentList = await components.list(user, page.id)
    const options = { components: componentList, form, zone: zoneOf(request), zoneGuessed: chosenZone(request) === undefined }
    return {
      options: { title: `Maintenance: ${window.title}`, crumbs: maintenanceCrumbs(page, window.title), head: STYLES, scripts: SCRIPTS },
      body: maintenanceEditView(window, maintenancePhase(window, maintenances.now()), options, updateForm),
    }
  }

  const formOf = (window: Maintenance, zone: string): FormState =>
    emptyForm({
      title: window.title,
      message: window.message,
      start_at: toLocalInput(window.startAt, zone),
      end_at: toLocalInput(window.endAt, zone),
      component_ids: window.components.map((c) => c.id).join(','),
    })

  const rememberZone = (response: Response, read: { zone: string; zoneNamed: boolean }) => {
    if (read.zoneNamed) response.headers.append('set-cookie', zoneCookie(config, read.zone))
    return response
  }

  return new Elysia()
    .get(
      '/user/pages/:id/maintenance',
      screen(async ({ user, params, request, render }) => {
        const page = await pages.get(user, idParam(params.id))
        return render({ title: `Maintenance: ${page.name}`, crumbs: maintenanceCrumbs(page), head: STYLES, scripts: SCRIPTS }, await pageView(user, page, emptyForm(), request))
      }),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail("A page's maintenance: active, upcoming, past, and the schedule form") },
    )
    .post(
      '/user/pages/:id/maintenance',
      screen(async ({ user, params, body, request, render, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const read = readWindow(CreateMaintenanceBody, body, request, { status_page_id: page.id })
        const again = async (state: FormState, status: number) =>
          render({ title: `Maintenance: ${page.name}`, crumbs: maintenanceCrumbs(page), head: STYLES, scripts: SCRIPTS }, await pageView(user, page, state, request), status)
        if (!read.ok || !read.value) return again(read.state, 400)
        try {
          const window = await maintenances.create(user, { ...read.value, status_page_id: page.id, component_ids: read.componentIds })
          return rememberZone(redirect(`/user/pages/${page.id}/maintenance`, `Maintenance "${window.title}" scheduled.`), read)
        } catch (error) {
          return again(serviceErrorState(error, read.state), errorStatus(error))
        }
      }),
      { params: IdPath, response: FORM_ERRORS, detail: detail('Schedule maintenance (form post; times in the zone named by tz)') },
    )
    .post(
      '/user/pages/:id/maintenance/recurring',
      screen(async ({ user, params, body, request, render, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const state: FormState = { values: formFields(body), errors: {} }
        const v = Object.fromEntries(Object.entries(state.values).map(([name, value]) => [name.replace(/^r_/, ''), value]))
        const list = (raw: string | undefined) => (raw ?? '').split(',').map((part) => part.trim()).filter(Boolean)
        const number = (raw: string | undefined) => (raw === undefined || raw.trim() === '' ? undefined : Number(raw))
        try {
          const series = await maintenanceSeries.create(user, {
            status_page_id: page.id,
            title: v.title ?? '',
            message: v.message ?? '',
            time_zone: (v.time_zone ?? '').trim(),
            starts_on: v.starts_on ?? '',
            start_time: v.start_time ?? '',
            duration_minutes: number(v.duration_minutes),
            frequency: v.frequency as 'daily' | 'weekly' | 'monthly',
            interval: number(v.interval) ?? 1,
            weekdays: list(v.weekdays).map((day) => day.toUpperCase()) as never,
            until: v.until ? v.until : undefined,
            count: number(v.count),
            exceptions: list(v.exceptions),
            notify_subscribers: v.notify_subscribers === 'on',
          })
          return redirect(`/user/pages/${page.id}/maintenance#recurring`, `Recurring maintenance "${series.title}" added.`)
        } catch (error) {
          // The service names API fields; the form shows its error above the fields.
          const again = serviceErrorState(error, { values: state.values, errors: {} })
          return render({ title: `Maintenance: ${page.name}`, crumbs: maintenanceCrumbs(page), head: STYLES, scripts: SCRIPTS }, await pageView(user, page, emptyForm(), request, again), errorStatus(error))
        }
      }),
      { params: IdPath, response: FORM_ERRORS, detail: detail('Add recurring maintenance (form post)') },
    )
    .post(
      '/user/maintenance-series/:id/cancel',
      screen(async ({ user, params, redirect }) => {
        const series = await maintenanceSeries.cancel(user, idParam(params.id))
        return redirect(`/user/pages/${series.pageId}/maintenance#recurring`, `Recurring maintenance "${series.title}" cancelled.`)
      }),
      { params: IdPath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Cancel a recurring maintenance (form post)') },
    )
    .get(
      '/user/maintenance/:id',
      screen(async ({ user, params, request, render }) => {
        const window = await maintenances.get(user, idParam(params.id))
        const view = await editView(user, window, formOf(window, zoneOf(request)), request)
        return render(view.options, view.body)
      }),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A maintenance window: edit, end, cancel') },
    )
    .post(
      '/user/maintenance/:id',
      screen(async ({ user, params, body, request, render, redirect }) => {
        const window = await maintenances.get(user, idParam(params.id))
        const read = readWindow(UpdateMaintenanceBody, body, request)
        const again = async (state: FormState, status: number) => {
          const view = await editView(user, window, state, request)
          return render(view.options, view.body, status)
        }
        if (!read.ok || !read.value) return again(read.state, 400)
        try {
          // An emptied title is sent as "" (refused, as the API would); an emptied message clears it.
          await maintenances.update(user, window.id, { ...read.value, title: read.value.title ?? '', message: read.value.message ?? '', component_ids: read.componentIds })
        } catch (error) {
          return again(serviceErrorState(error, read.state), errorStatus(error))
        }
        return rememberZone(redirect(`/user/pages/${window.pageId}/maintenance`, `Maintenance "${read.value.title ?? window.title}" saved.`), read)
      }),
      { params: IdPath, response: FORM_ERRORS, detail: detail('Change a maintenance window (form post)') },
    )
    .post(
      '/user/maintenance/:id/updates',
      screen(async ({ user, params, body, request, render, redirect }) => {
        const window = await maintenances.get(user, idParam(params.id))
        const fields = formFields(body)
        const values = { update_message: fields.update_message ?? '', update_status: fields.update_status ?? '' }
        try {
          await maintenances.addUpdate(user, window.id, { message: values.update_message, status: (values.update_status || undefined) as never })
        } catch (error) {
          // The service names the API's fields (message, status); the form's are prefixed.
          const named = serviceErrorState(error, emptyForm({ message: values.update_message, status: values.update_status }))
          const errors = Object.fromEntries(Object.entries(named.errors).map(([name, text]) => [name === '_form' ? name : `update_${name}`, text]))
          const view = await editView(user, window, formOf(window, zoneOf(request)), request, { values, errors })
          return render(view.options, view.body, errorStatus(error))
        }
        return redirect(`/user/maintenance/${window.id}#timeline-heading`, 'Update posted.')
      }),
      { params: IdPath, response: FORM_ERRORS, detail: detail('Post an update to a maintenance window (form post: update_message, update_status)') },
    )
    .post(
      '/user/maintenance/:id/end',
      screen(async ({ user, params, redirect }) => {
        const window = await maintenances.get(user, idParam(params.id))
        try {
          await maintenances.update(user, window.id, { end_at: new Date(maintenances.now()).toISOString() })
        } catch (error) {
          const state = serviceErrorState(error, emptyForm())
          return redirect(`/user/maintenance/${window.id}`, { kind: 'error', text: Object.values(state.errors)[0] ?? 'Could not end it.' })
        }
        return redirect(`/user/pages/${window.pageId}/maintenance`, `Maintenance "${window.title}" ended.`)
      }),
      { params: IdPath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail('End an active maintenance window now (form post)') },
    )
    .get(
      '/user/maintenance/:id/cancel',
      screen(async ({ user, params, request, render }) => {
        const window = await maintenances.get(user, idParam(params.id))
        const page = await pages.get(user, window.pageId)
        return render({ title: `Cancel ${window.title}`, crumbs: maintenanceCrumbs(page, 'Cancel') }, cancelMaintenanceView(window, zoneOf(request)))
      }),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A maintenance window: confirm cancelling') },
    )
    .post(
      '/user/maintenance/:id/cancel',
      screen(async ({ user, params, redirect }) => {
        const window = await maintenances.get(user, idParam(params.id))
        try {
          await maintenances.delete(user, window.id)
        } catch (error) {
          // An occurrence whose series already skips the most dates it may (409).
          const state = serviceErrorState(error, emptyForm())
          return redirect(`/user/maintenance/${window.id}`, { kind: 'error', text: Object.values(state.errors)[0] ?? 'Could not cancel it.' })
        }
        return redirect(`/user/pages/${window.pageId}/maintenance`, `Maintenance "${window.title}" cancelled.`)
      }),
      { params: IdPath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Cancel a maintenance window (form post; deletes it, as the API does)') },
    )
}

/** The page overview's maintenance panel: active now and upcoming, with a link to schedule. */
export async function overviewMaintenancePanel(deps: ScreenDeps<'maintenances'>, user: Owner, page: StatusPage, request: Request): Promise<string> {
  const { maintenances } = deps.services
  const view = glance(await maintenances.list(user, { pageId: page.id, limit: 200 }), maintenances.now())
  return html`<section class="card" aria-labelledby="maintenance-heading">
<h2 id="maintenance-heading">Maintenance</h2>
!${glanceLists(view, zoneOf(request), 'h3')}
<p><a href="/user/pages/${String(page.id)}/maintenance#schedule">Schedule maintenance</a></p>
</section>`
}
