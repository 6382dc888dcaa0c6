/**
 * The incident templates screens, on the IncidentsService template methods the API routes call and
 * the API's own TemplateBody schema:
 *
 *   GET  /user/templates               list + "New template"   POST /user/templates              create
 *   GET  /user/templates/:id           edit                    POST /user/templates/:id          save
 *   GET  /user/templates/:id/delete    confirmation            POST /user/templates/:id/delete   delete
 *
 * "Use" is a link to /user/pages/:page/incidents?template=:id (screens/incidents.ts).
 */
import { Elysia, t } from 'elysia'
import { TemplateBody } from '../../modules/incidents/model.ts'
import type { IncidentTemplate } from '../../modules/incidents/service.ts'
import { emptyForm, errorStatus, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens } from '../kit/guard.ts'
import { deleteTemplateView, templateEditView, templatesCrumbs, templatesListView } from '../views/templates.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const IdPath = t.Object({ id: t.String() })
const FIELDS = ['name', 'title', 'message'] as const
const STYLES = '<link rel="stylesheet" href="/static/user/incidents.css">'

export function templateScreens(deps: ScreenDeps<'accounts' | 'incidents' | 'pages'>) {
  const { services, config } = deps
  const { incidents, pages } = services
  const screen = screens({ accounts: services.accounts, config })
  const formOf = (template: IncidentTemplate): FormState => emptyForm({ name: template.name, title: template.title, message: template.message })

  return new Elysia()
    .get(
      '/user/templates',
      screen(async ({ user, render }) => {
        const [templates, pageList] = await Promise.all([incidents.listTemplates(user), pages.list(user)])
        return render({ title: 'Incident templates', crumbs: templatesCrumbs(), head: STYLES }, templatesListView(templates, pageList, emptyForm()))
      }),
      { response: { 200: HtmlResponse }, detail: detail('Incident templates: list and "New template"') },
    )
    .post(
      '/user/templates',
      screen(async ({ user, body, render, redirect }) => {
        const form = readForm(TemplateBody, body, { only: FIELDS })
        const again = async (state: FormState, status: number) => {
          const [templates, pageList] = await Promise.all([incidents.listTemplates(user), pages.list(user)])
          return render({ title: 'Incident templates', crumbs: templatesCrumbs(), head: STYLES }, templatesListView(templates, pageList, state), status)
        }
        if (!form.ok) return again(form.state, 400)
        try {
          const template = await incidents.createTemplate(user, form.value)
          return redirect('/user/templates', `Template "${template.name}" created.`)
        } catch (error) {
          return again(serviceErrorState(error, form.state), errorStatus(error))
        }
      }),
      { response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse }, detail: detail('Create an incident template (form post)') },
    )
    .get(
      '/user/templates/:id',
      screen(async ({ user, params, render }) => {
        const template = await incidents.getTemplate(user, idParam(params.id))
        return render({ title: `Template: ${template.name}`, crumbs: templatesCrumbs(template.name), head: STYLES }, templateEditView(template, await pages.list(user), formOf(template)))
      }),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('An incident template: edit') },
    )
    .post(
      '/user/templates/:id',
      screen(async ({ user, params, body, render, redirect }) => {
        const template = await incidents.getTemplate(user, idParam(params.id))
        const form = readForm(TemplateBody, body, { only: FIELDS })
        const again = async (state: FormState, status: number) =>
          render({ title: `Template: ${template.name}`, crumbs: templatesCrumbs(template.name), head: STYLES }, templateEditView(template, await pages.list(user), state), status)
        if (!form.ok) return again(form.state, 400)
        try {
          // Emptied fields are sent as "" (as a PATCH clearing them): the message clears, name and title are refused.
          const value = form.value
          await incidents.updateTemplate(user, template.id, { name: value.name ?? '', title: value.title ?? '', message: value.message ?? '' })
        } catch (error) {
          return again(serviceErrorState(error, form.state), errorStatus(error))
        }
        return redirect('/user/templates', 'Template saved.')
      }),
      { params: IdPath, response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Change an incident template (form post)') },
    )
    .get(
      '/user/templates/:id/delete',
      screen(async ({ user, params, render }) => {
        const template = await incidents.getTemplate(user, idParam(params.id))
        return render({ title: `Delete ${template.name}`, crumbs: templatesCrumbs('Delete') }, deleteTemplateView(template))
      }),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('An incident template: confirm deletion') },
    )
    .post(
      '/user/templates/:id/delete',
      screen(async ({ user, params, redirect }) => {
        const template = await incidents.getTemplate(user, idParam(params.id))
        await incidents.deleteTemplate(user, template.id)
        return redirect('/user/templates', `Template "${template.name}" deleted.`)
      }),
      { params: IdPath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Delete an incident template (form post)') },
    )
}
