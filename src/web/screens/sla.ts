/**
 * The SLA screens, on the SlaService methods the API routes call and the API's own schemas:
 *
 *   GET  /user/pages/:id/sla?from=&to=        the report (range form, downloads, figures, mails)
 *   POST /user/pages/:id/sla/settings         the monthly report mail opt-in (PUT …/sla/settings)
 *   GET  /user/pages/:id/components/:cid/sla          a component's target form   POST same  save (PUT …/sla-target)
 *   POST /user/pages/:id/components/:cid/sla/remove   remove the target (DELETE …/sla-target)
 */
import { Elysia, t } from 'elysia'
import { notFound } from '../../lib/errors.ts'
import type { Owner } from '../../modules/accounts/service.ts'
import { SlaReportQuery, SlaSettingsBody, SlaTargetBody } from '../../modules/sla/model.ts'
import type { SlaReport } from '../../modules/sla/service.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { emptyForm, errorStatus, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens } from '../kit/guard.ts'
import { SLA_STYLES, slaCrumbs, slaPageView, slaTargetView } from '../views/sla.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const IdPath = t.Object({ id: t.String() })
const ComponentPath = t.Object({ id: t.String(), cid: t.String() })
const FORM_ERRORS = { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse }

export function slaScreens(deps: ScreenDeps<'accounts' | 'mail' | 'pages' | 'components' | 'sla'>) {
  const { services, config } = deps
  const { pages, components, sla } = services
  const screen = screens({ accounts: services.accounts, config })

  async function settingsForm(user: Owner, page: StatusPage): Promise<FormState> {
    const settings = await sla.settings(user, page.id)
    return emptyForm({ monthly_report: settings.monthlyReport ? 'on' : '' })
  }

  /** The page and its component: a component of another page (or owner) is a 404. */
  async function pageComponent(user: Owner, params: Record<string, string>) {
    const page = await pages.get(user, idParam(params.id))
    const component = await components.get(user, idParam(params.cid))
    if (component.pageId !== page.id) throw notFound()
    return { page, component }
  }

  const view = (page: StatusPage, report: SlaReport | undefined, range: FormState, settings: FormState) =>
    slaPageView(page, report, { range, settings, mailEnabled: services.mail.enabled })

  return new Elysia()
    .get(
      '/user/pages/:id/sla',
      screen(async ({ user, params, query, render }) => {
        const page = await pages.get(user, idParam(params.id))
        const options = { title: `SLA: ${page.name}`, crumbs: slaCrumbs(page), head: SLA_STYLES }
        const asked = { from: query.from || undefined, to: query.to || undefined }
        const form = readForm(SlaReportQuery, asked)
        const settings = await settingsForm(user, page)
        if (!form.ok) return render(options, view(page, undefined, form.state, settings), 400)
        try {
          const report = await sla.report(user, page.id, form.value)
          return render(options, view(page, report, form.state, settings))
        } catch (error) {
          return render(options, view(page, undefined, serviceErrorState(error, form.state), settings), errorStatus(error))
        }
      }),
      { params: IdPath, response: { 200: HtmlResponse, 400: HtmlResponse, 404: HtmlResponse }, detail: detail("A page's SLA report, targets and mail settings") },
    )
    .post(
      '/user/pages/:id/sla/settings',
      screen(async ({ user, params, body, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const form = readForm(SlaSettingsBody, body, { only: ['monthly_report'] })
        if (!form.ok) return redirect(`/user/pages/${page.id}/sla`, { kind: 'error', text: Object.values(form.state.errors)[0] ?? 'Could not save.' })
        await sla.setSettings(user, page.id, form.value)
        return redirect(`/user/pages/${page.id}/sla`, form.value.monthly_report ? 'The monthly report mail is on.' : 'The monthly report mail is off.')
      }),
      { params: IdPath, response: FORM_ERRORS, detail: detail('Turn the monthly SLA report mail on or off (form post)') },
    )
    .get(
      '/user/pages/:id/components/:cid/sla',
      screen(async ({ user, params, render }) => {
        const { page, component } = await pageComponent(user, params)
        const target = (await sla.targets(user, page.id)).find((item) => item.componentId === component.id)?.target ?? null
        const form = target
          ? emptyForm({
              target_percent: String(target.targetPpm / 10_000),
              period: target.period,
              degraded_counts_as: target.policy.degradedCountsAs,
              exclude_maintenance: target.policy.excludeMaintenance ? 'on' : '',
              min_outage_seconds: String(target.policy.minOutageSeconds),
              breach_alerts: target.breachAlerts ? 'on' : '',
              public_budget: target.publicBudget ? 'on' : '',
            })
          : emptyForm({ period: 'month', degraded_counts_as: 'up', exclude_maintenance: 'on', min_outage_seconds: '0', breach_alerts: 'on' })
        return render({ title: `SLA target: ${component.name}`, crumbs: slaCrumbs(page, component.name) }, slaTargetView(page, component, target !== null, form))
      }),
      { params: ComponentPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail("A component's SLA target form") },
    )
    .post(
      '/user/pages/:id/components/:cid/sla',
      screen(async ({ user, params, body, render, redirect }) => {
        const { page, component } = await pageComponent(user, params)
        const hasTarget = (await sla.targets(user, page.id)).some((item) => item.componentId === component.id && item.target !== null)
        const again = (state: FormState, status: number) =>
          render({ title: `SLA target: ${component.name}`, crumbs: slaCrumbs(page, component.name) }, slaTargetView(page, component, hasTarget, state), status)
        const form = readForm(SlaTargetBody, body)
        if (!form.ok) return again(form.state, 400)
        try {
          await sla.setTarget(user, component.id, form.value)
        } catch (error) {
          return again(serviceErrorState(error, form.state), errorStatus(error))
        }
        return redirect(`/user/pages/${page.id}/sla`, `SLA target of ${component.name} saved.`)
      }),
      { params: ComponentPath, response: FORM_ERRORS, detail: detail("Set a component's SLA target (form post)") },
    )
    .post(
      '/user/pages/:id/components/:cid/sla/remove',
      screen(async ({ user, params, redirect }) => {
        const { page, component } = await pageComponent(user, params)
        await sla.deleteTarget(user, component.id)
        return redirect(`/user/pages/${page.id}/sla`, `SLA target of ${component.name} removed.`)
      }),
      { params: ComponentPath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail("Remove a component's SLA target (form post)") },
    )
}
