/**
 * The Auto incidents section of a page (views in views/auto-incidents.ts), on the service the
 * management API calls (AutoIncidentSettingsService), validated with the API's own `t` schema.
 *
 *   GET  /user/pages/:id/auto-incidents   the settings, the components and the plan limit
 *   POST /user/pages/:id/auto-incidents   save them (a plan refusal shows above the form)
 */
import { Elysia, t } from 'elysia'
import type { Owner } from '../../modules/accounts/service.ts'
import { AutomationBody } from '../../modules/auto-incidents/model.ts'
import { REOPEN_WINDOW_MS } from '../../modules/auto-incidents/rules.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { emptyForm, errorStatus, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens, type ScreenContext } from '../kit/guard.ts'
import { AUTO_INCIDENTS_SECTION, automationValues, autoIncidentsView } from '../views/auto-incidents.ts'
import { pageCrumbs } from '../views/pages.ts'
import { readIdList } from './form-lists.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const IdPath = t.Object({ id: t.String() })
const HEAD = '<link rel="stylesheet" href="/static/user/incidents.css">'

export function autoIncidentScreens(deps: ScreenDeps<'accounts' | 'mail' | 'pages' | 'autoIncidentSettings'>) {
  const { services, config } = deps
  const { pages, autoIncidentSettings: settings } = services
  const screen = screens({ accounts: services.accounts, config })

  async function show(user: Owner, page: StatusPage, render: ScreenContext['render'], form?: FormState, status?: number): Promise<Response> {
    const automation = await settings.get(user, page.id)
    const body = autoIncidentsView({
      page,
      automation,
      form: form ?? emptyForm(automationValues(automation)),
      reopenMinutes: REOPEN_WINDOW_MS / 60_000,
      mailEnabled: services.mail.enabled,
    })
    return render({ title: `Automatic incidents: ${page.name}`, crumbs: pageCrumbs(page, AUTO_INCIDENTS_SECTION), head: HEAD }, body, status)
  }

  return new Elysia()
    .get(
      '/user/pages/:id/auto-incidents',
      screen(async ({ user, params, render }) => show(user, await pages.get(user, idParam(params.id)), render)),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A status page: automatic incidents') },
    )
    .post(
      '/user/pages/:id/auto-incidents',
      screen(async ({ user, params, body, render, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const form = readForm(AutomationBody, body, { only: ['auto_incidents', 'auto_incident_notify', 'auto_resolve'] })
        const componentIds = readIdList(AutomationBody.properties.component_ids, body, form.state)
        if (!form.ok || componentIds === undefined) return show(user, page, render, form.state, 400)
        try {
          await settings.update(user, page.id, { ...form.value, component_ids: componentIds })
        } catch (error) {
          return show(user, page, render, serviceErrorState(error, form.state), errorStatus(error))
        }
        return redirect(`/user/pages/${page.id}/auto-incidents`, 'Automatic incidents saved.')
      }),
      { params: IdPath, response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Save the automatic incidents of a page (form post)') },
    )
}
