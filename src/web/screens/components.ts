/**
 * The components screens of a page (views in views/components.ts), on the methods the API routes
 * call (ComponentsService create/update/delete/reorder/renameGroup) and the API's own body schemas:
 *
 *   GET  /user/pages/:id/components                  list + Add     POST …/components                  create
 *   GET  /user/pages/:id/components/:cid             edit           POST …/components/:cid             update
 *   POST …/components/:cid/status                    set the status (one control per component)
 *   POST …/components/:cid/move   direction=up|down  one place within its block (keyboard, no JS)
 *   POST …/components/groups/move member=cid&direction  the group (block) holding cid past its neighbour
 *   POST …/components/order       ids=3,1,2          the order drag-and-drop made (components.js)
 *   POST …/components/groups/rename from&to          rename (merge, ungroup) a group
 *   GET  …/components/:cid/delete                    confirmation   POST …/components/:cid/delete      delete
 */
import { Value } from '@sinclair/typebox/value'
import { Elysia, t } from 'elysia'
import { ComponentOrderBody, CreateComponentBody, RenameGroupBody, UpdateComponentBody } from '../../modules/components/model.ts'
import { moveBlock, moveComponent, type Direction } from '../../modules/components/order.ts'
import type { Component } from '../../modules/components/service.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import type { Owner } from '../../modules/accounts/service.ts'
import { emptyForm, errorStatus, formFields, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens, type ScreenContext } from '../kit/guard.ts'
import { HttpError } from '../../lib/errors.ts'
import type { ScreenDeps } from './deps.ts'
import {
  componentsCrumbs,
  componentsPath,
  componentsView,
  deleteComponentView,
  editComponentView,
  statusLabel,
  type ComponentsViewOptions,
} from '../views/components.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const PagePath = t.Object({ id: t.String() })
const ComponentPath = t.Object({ id: t.String(), cid: t.String() })
const FORM_FIELDS = ['name', 'type', 'group', 'description', 'status'] as const
const LOOK = { head: '<link rel="stylesheet" href="/static/user/components.css">', scripts: ['/static/user/components.js'] }
const formResponses = { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse }

const directionOf = (body: unknown): Direction => {
  const direction = formFields(body).direction
  if (direction !== 'up' && direction !== 'down') throw new HttpError(400, 'direction must be up or down')
  return direction
}

/** The page (`:id`) and one of its components (`:cid`); another page's (or owner's) component is 404. */
export async function loadPageAndComponent(
  services: Pick<ScreenDeps<'pages' | 'components'>['services'], 'pages' | 'components'>,
  user: Owner,
  params: Record<string, string>,
): Promise<{ page: StatusPage; component: Component }> {
  const page = await services.pages.get(user, idParam(params.id))
  const component = await services.components.get(user, idParam(params.cid))
  if (component.pageId !== page.id) throw new HttpError(404, 'not found')
  return { page, component }
}

export function componentScreens(deps: ScreenDeps<'accounts' | 'pages' | 'components'>) {
  const { services, config } = deps
  const { pages, components } = services
  const screen = screens({ accounts: services.accounts, config })

  const pageAndComponent = (user: Owner, params: Record<string, string>) => loadPageAndComponent(services, user, params)

  const listPage = async (user: Owner, page: StatusPage, render: ScreenContext['render'], options: ComponentsViewOptions, status = 200) =>
    render({ title: `Components: ${page.name}`, crumbs: componentsCrumbs(page), ...LOOK }, componentsView(page, await components.list(user, page.id), options), status)

  const newForm = () => emptyForm({ type: 'site', status: 'up' })
  const back = (pageId: number, componentId?: number) => `${componentsPath(pageId)}${componentId ? `#c-${componentId}` : ''}`

  /** Applies a new order through the service the API's PUT …/components/order calls. */
  async function applyOrder(user: Owner, page: StatusPage, ids: number[] | undefined, redirect: (to: string, flash?: string) => Response, message: string, focus?: number) {
    if (ids) await components.reorder(user, page.id, ids)
    return redirect(back(page.id, focus), ids ? message : 'Already there.')
  }

  return new Elysia()
    .get(
      '/user/pages/:id/components',
      screen(async ({ user, params, render }) => listPage(user, await pages.get(user, idParam(params.id)), render, { add: newForm() })),
      { params: PagePath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A status page: components') },
    )
    .post(
      '/user/pages/:id/components',
      screen(async ({ user, params, body, render, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const form = readForm(CreateComponentBody, body, { only: FORM_FIELDS })
        if (!form.ok) return listPage(user, page, render, { add: form.state }, 400)
        try {
          const component = await components.create(user, page.id, form.value)
          return redirect(back(page.id, component.id), `Component "${component.name}" added.`)
        } catch (error) {
          return listPage(user, page, render, { add: serviceErrorState(error, form.state) }, errorStatus(error))
        }
      }),
      { params: PagePath, response: formResponses, detail: detail('Add a component (form post)') },
    )
    .post(
      '/user/pages/:id/components/order',
      screen(async ({ user, params, body, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        // The API's own schema checks the list (the form carries it as one comma-separated field).
        const ids = (formFields(body).ids ?? '').split(',').filter(Boolean).map((id) => (/^\d{1,15}$/.test(id.trim()) ? Number(id) : -1))
        const error = Value.Errors(ComponentOrderBody, { ids }).First()
        if (error) throw new HttpError(400, (error.schema as { error?: string }).error ?? 'ids must contain positive integer ids')
        return applyOrder(user, page, ids, redirect, 'Order saved.')
      }),
      { params: PagePath, response: formResponses, detail: detail('Reorder the components (form post of the ids in order, from drag-and-drop)') },
    )
    .post(
      '/user/pages/:id/components/groups/move',
      screen(async ({ user, params, body, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const direction = directionOf(body)
        const member = formFields(body).member ?? ''
        if (!/^[1-9]\d{0,14}$/.test(member)) throw new HttpError(400, 'member must be a component id')
        // Another owner's component, or one of another page, names nothing here (404, as on the component routes).
        const { component } = await pageAndComponent(user, { id: String(page.id), cid: member })
        return applyOrder(user, page, moveBlock(await components.list(user, page.id), component.id, direction), redirect, `Group moved ${direction}.`, component.id)
      }),
      { params: PagePath, response: formResponses, detail: detail('Move a group of components up or down (form post)') },
    )
    .post(
      '/user/pages/:id/components/groups/rename',
      screen(async ({ user, params, body, render, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const form = readForm(RenameGroupBody, body, { only: ['from', 'to'] })
        if (!form.ok) return listPage(user, page, render, { add: newForm(), rename: form.state }, 400)
        try {
          const { moved } = await components.renameGroup(user, page.id, form.value)
          const to = form.value.to
          return redirect(back(page.id), to === null ? `${moved} component(s) taken out of "${form.value.from}".` : `Group "${form.value.from}" is now "${to}".`)
        } catch (error) {
          return listPage(user, page, render, { add: newForm(), rename: serviceErrorState(error, form.state) }, errorStatus(error))
        }
      }),
      { params: PagePath, response: formResponses, detail: detail('Rename a group of components (form post)') },
    )
    .get(
      '/user/pages/:id/components/:cid',
      screen(async ({ user, params, render }) => {
        const { page, component } = await pageAndComponent(user, params)
        const form = emptyForm({ name: component.name, type: component.type, group: component.group, description: component.description, status: component.status })
        return render({ title: `Edit ${component.name}`, crumbs: componentsCrumbs(page, component.name), ...LOOK }, editComponentView(page, component, await groupsOf(user, page), form))
      }),
      { params: ComponentPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A component: edit') },
    )
    .post(
      '/user/pages/:id/components/:cid',
      screen(async ({ user, params, body, render, redirect }) => {
        const { page, component } = await pageAndComponent(user, params)
        const form = readForm(UpdateComponentBody, body, { only: FORM_FIELDS, clearable: ['description'] })
        const again = async (state: FormState, status: number) =>
          render({ title: `Edit ${component.name}`, crumbs: componentsCrumbs(page, component.name), ...LOOK }, editComponentView(page, component, await groupsOf(user, page), state), status)
        if (!form.ok) return again(form.state, 400)
        // The form always holds the name: an emptied one is sent as "" (the API's "name must not be empty"), not omitted.
        const input = { ...form.value, name: form.value.name ?? formFields(body).name ?? '' }
        try {
          const saved = await components.update(user, component.id, input)
          return redirect(back(page.id, saved.id), `Component "${saved.name}" saved.`)
        } catch (error) {
          return again(serviceErrorState(error, form.state), errorStatus(error))
        }
      }),
      { params: ComponentPath, response: formResponses, detail: detail('Change a component (form post)') },
    )
    .post(
      '/user/pages/:id/components/:cid/status',
      screen(async ({ user, params, body, redirect }) => {
        const { page, component } = await pageAndComponent(user, params)
        const form = readForm(UpdateComponentBody, body, { only: ['status'] })
        if (!form.ok || form.value.status === undefined) throw new HttpError(400, form.ok ? 'status is required' : Object.values(form.state.errors)[0]!)
        const saved = await components.update(user, component.id, { status: form.value.status })
        return redirect(back(page.id, saved.id), `"${saved.name}" is now ${statusLabel(saved.status).toLowerCase()}.`)
      }),
      { params: ComponentPath, response: formResponses, detail: detail("Set a component's status (form post)") },
    )
    .post(
      '/user/pages/:id/components/:cid/move',
      screen(async ({ user, params, body, redirect }) => {
        const { page, component } = await pageAndComponent(user, params)
        const direction = directionOf(body)
        const ids = moveComponent(await components.list(user, page.id), component.id, direction)
        return applyOrder(user, page, ids, redirect, `"${component.name}" moved ${direction}.`, component.id)
      }),
      { params: ComponentPath, response: formResponses, detail: detail('Move a component up or down within its group (form post)') },
    )
    .get(
      '/user/pages/:id/components/:cid/delete',
      screen(async ({ user, params, render }) => {
        const { page, component } = await pageAndComponent(user, params)
        return render({ title: `Delete ${component.name}`, crumbs: componentsCrumbs(page, 'Delete'), ...LOOK }, deleteComponentView(page, component))
      }),
      { params: ComponentPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A component: confirm deletion') },
    )
    .post(
      '/user/pages/:id/components/:cid/delete',
      screen(async ({ user, params, redirect }) => {
        const { page, component } = await pageAndComponent(user, params)
        await components.delete(user, component.id)
        return redirect(back(page.id), `Component "${component.name}" deleted.`)
      }),
      { params: ComponentPath, response: formResponses, detail: detail('Delete a component (form post)') },
    )

  async function groupsOf(user: Owner, page: StatusPage): Promise<string[]> {
    return [...new Set((await components.list(user, page.id)).map((c) => c.group).filter((g): g is string => g !== null))]
  }
}
