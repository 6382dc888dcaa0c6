/**
 * A component's status history and its corrections (view in views/component-history.ts), on the
 * methods the API routes call (ComponentsService history, corrections, correctHistory) and the
 * API's own body schema (CorrectionBody). Times are typed as `datetime-local` in the zone the form
 * names (remembered in a cookie) and sent as RFC 3339 UTC, as the API takes them.
 *
 *   GET  /user/pages/:id/components/:cid/history    changes, corrections, the correction form
 *   POST /user/pages/:id/components/:cid/history    correct a past span
 */
import { Elysia, t } from 'elysia'
import type { Owner } from '../../modules/accounts/service.ts'
import { CorrectionBody } from '../../modules/components/model.ts'
import type { Component } from '../../modules/components/service.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { emptyForm, errorStatus, formFields, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { screens, type ScreenContext } from '../kit/guard.ts'
import { chosenZone, formatInZone, zoneCookie, zoneOf } from '../kit/zones.ts'
import { componentHistoryView } from '../views/component-history.ts'
import { componentsCrumbs, componentsPath, statusLabel } from '../views/components.ts'
import type { ScreenDeps } from './deps.ts'
import { readLocalTimes } from './form-lists.ts'
import { loadPageAndComponent } from './components.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const ComponentPath = t.Object({ id: t.String(), cid: t.String() })
const LOOK = { head: '<link rel="stylesheet" href="/static/user/components.css">', scripts: ['/static/user/when.js'] }
const SHOWN = 50

export const componentHistoryPath = (c: Component) => `${componentsPath(c.pageId)}/${c.id}/history`

export function componentHistoryScreens(deps: ScreenDeps<'accounts' | 'pages' | 'components'>) {
  const { services, config } = deps
  const { components } = services
  const screen = screens({ accounts: services.accounts, config })

  const pageAndComponent = (user: Owner, params: Record<string, string>) => loadPageAndComponent(services, user, params)

  async function show(user: Owner, page: StatusPage, component: Component, request: Request, render: ScreenContext['render'], form: FormState, status = 200) {
    const [changes, corrections] = await Promise.all([components.history(user, component.id, SHOWN), components.corrections(user, component.id, SHOWN)])
    const body = componentHistoryView(page, component, {
      changes,
      corrections,
      action: componentHistoryPath(component),
      form,
      zone: zoneOf(request),
      zoneGuessed: chosenZone(request) === undefined,
    })
    return render({ title: `History of ${component.name}`, crumbs: componentsCrumbs(page, `History of ${component.name}`), ...LOOK }, body, status)
  }

  return new Elysia()
    .get(
      '/user/pages/:id/components/:cid/history',
      screen(async ({ user, params, request, render }) => {
        const { page, component } = await pageAndComponent(user, params)
        return show(user, page, component, request, render, emptyForm({ status: 'up' }))
      }),
      { params: ComponentPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail("A component's status history and its corrections") },
    )
    .post(
      '/user/pages/:id/components/:cid/history',
      screen(async ({ user, params, body, request, render, redirect }) => {
        const { page, component } = await pageAndComponent(user, params)
        const typed: FormState = { values: formFields(body), errors: {} }
        const times = readLocalTimes(body, ['from', 'to'], typed, zoneOf(request))
        const form = readForm(CorrectionBody, times.body, { only: ['from', 'to', 'status', 'reason'] })
        const state: FormState = { values: typed.values, errors: { ...typed.errors, ...form.state.errors } }
        if (!form.ok || Object.keys(state.errors).length > 0) return show(user, page, component, request, render, state, 400)
        try {
          const correction = await components.correctHistory(user, component.id, form.value)
          const response = redirect(
            `${componentHistoryPath(component)}#corrections-heading`,
            `History corrected: ${statusLabel(correction.status).toLowerCase()} from ${formatInZone(correction.from, times.zone)} to ${formatInZone(correction.to, times.zone)} (${times.zone}).`,
          )
          if (typed.values.tz === times.zone) response.headers.append('set-cookie', zoneCookie(config, times.zone))
          return response
        } catch (error) {
          return show(user, page, component, request, render, serviceErrorState(error, state), errorStatus(error))
        }
      }),
      { params: ComponentPath, response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse }, detail: detail("Correct a component's status history over a past span (form post; times in the zone named by tz)") },
    )
}
