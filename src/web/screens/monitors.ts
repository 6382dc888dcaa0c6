/**
 * The monitors screens (views in views/monitors.ts and monitors-detail.ts), on the methods the API
 * routes call (MonitorsService) and the API's own schemas (CreateMonitorBody, UpdateMonitorBody,
 * ResultsQuery):
 *
 *   GET  /user/monitors                 list            POST /user/monitors            create
 *   GET  /user/monitors/live            the list's table, polled with If-None-Match (304: unchanged)
 *   GET  /user/monitors/:id/live        a monitor's screen, polled the same way
 *   GET  /user/monitors/new[?type=]     type chooser, then the form of that type
 *   GET  /user/monitors/:id[?before=]   detail          POST /user/monitors/:id        update
 *   GET  /user/monitors/:id/edit        edit form
 *   POST /user/monitors/:id/pause|resume|push-token
 *   GET  /user/monitors/:id/delete      confirmation    POST /user/monitors/:id/delete delete
 *   GET  /user/pages/:id/monitors       the page's section: its monitors
 *
 * Live screens: the list and a monitor's screen poll their /live address every few seconds
 * (monitors.js) with the ETag of what they show (MonitorsService.liveTag, from the shared
 * database), so they follow results and state changes on any app server; unchanged is a 304.
 *
 * A push URL is answered once, in the page of the POST that made it (never in a redirect, a cookie
 * or a URL): only its hash is stored.
 */
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { Elysia, t } from 'elysia'
import type { Owner } from '../../modules/accounts/service.ts'
import { AVAILABILITY_PERIODS, type AvailabilityPeriod } from '../../modules/monitors/service.ts'
import { CreateMonitorBody, monitorJson, ResultsQuery, UpdateMonitorBody } from '../../modules/monitors/model.ts'
import type { Monitor } from '../../modules/monitors/service.ts'
import { HttpError } from '../../lib/errors.ts'
import type { Flash } from '../kit/flash.ts'
import { schemaErrorSentence } from '../../lib/schema-errors.ts'
import { emptyForm, errorStatus, formFields, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens, type ScreenContext } from '../kit/guard.ts'
import { monitorDetailView } from '../views/monitors-detail.ts'
import { emailAuthSection } from '../views/email-auth.ts'
import { monitorLimits } from '../../modules/plans/matrix.ts'
import { alertsSummary } from '../views/monitor-alerts.ts'
import {
  chooseTypeView,
  COMMON_FIELDS,
  deleteMonitorView,
  monitorFormView,
  cronPreviewLines,
  monitorPath,
  monitorsCrumbs,
  monitorsListView,
  liveMonitorsList,
  monitorsPath,
  pageMonitorsView,
  pushUrlNotice,
  TYPE_FIELDS,
  type ComponentChoice,
  type ParentChoice,
} from '../views/monitors.ts'
import { pageCrumbs } from '../views/pages.ts'
import type { ScreenDeps } from './deps.ts'
import { listValues } from './form-lists.ts'
import { PROBE_TYPES } from '../../modules/monitors/kinds/index.ts'
import type { StoredMonitorType } from '../../modules/monitors/tables.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const IdPath = t.Object({ id: t.String() })
const LOOK = { head: '<link rel="stylesheet" href="/static/user/monitors.css"><link rel="stylesheet" href="/static/user/components.css"><link rel="stylesheet" href="/static/user/tools.css">', scripts: ['/static/user/monitors.js'] }
const formResponses = { 200: HtmlResponse, 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse }
const pageResponses = { 200: HtmlResponse, 400: HtmlResponse, 404: HtmlResponse }
/** Fields typed one item a line (headers as `Name: value`). */
const LIST_FIELDS = new Set(['headers', 'conditions', 'expected', 'zones', 'dkim_selectors'])
const RESULTS_PER_PAGE = 20

const typeOf = (raw: string | undefined): string | undefined => (raw && raw in TYPE_FIELDS ? raw : undefined)

/** The flash after a save: the notice, or the first warning with it (an error-coloured flash, so it is read). */
const savedFlash = (notice: string, warnings: readonly string[]): string | Flash => (warnings.length === 0 ? notice : { kind: 'error', text: `${notice} Warning: ${warnings[0]}` })

/** Reads the monitor form of `type` with the API's schema: scalar fields by the kit, line lists here. */
export function readMonitorForm<S extends TSchema>(schema: S, body: unknown, type: string) {
  const fields = formFields(body)
  const own = TYPE_FIELDS[type] ?? []
  const common = type === 'push' ? COMMON_FIELDS.filter((f) => f !== 'target') : COMMON_FIELDS
  const probed = PROBE_TYPES.includes(type as StoredMonitorType)
  const form = readForm(schema, body, { only: ['type', ...common, ...own.filter((f) => !LIST_FIELDS.has(f)), ...(probed ? ['regions_required_down'] : [])] })
  const lists: Record<string, unknown> = {}
  const errors: Record<string, string> = {}
  // The parents' checkboxes: shown (a hidden field) and none ticked is no parent; not shown keeps them.
  if (fields.parents_shown === '1') lists.parents = listValues(body, 'parents').map((value) => (/^\d{1,15}$/.test(value) ? Number(value) : value))
  // Regions are typed as one line of names ("local, eu-west"); empty keeps what the monitor has.
  const regionNames = probed ? (fields.regions ?? '').split(/[\s,]+/).filter(Boolean) : []
  if (regionNames.length > 0) lists.regions = regionNames
  for (const name of own.filter((f) => LIST_FIELDS.has(f))) {
    const lines = (fields[name] ?? '').split(/\r?\n/).map((line) => line.trim()).filter(Boolean)
    if (name !== 'headers') {
      lists[name] = lines
      continue
    }
    const headers: Record<string, string> = {}
    lines.forEach((line, i) => {
      const colon = line.indexOf(':')
      if (colon <= 0) errors.headers ??= `headers must be one "Name: value" a line (line ${i + 1} is not)`
      else headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim()
    })
    lists.headers = headers
  }
  // The lists are checked by the same schema (sizes, counts), their errors next to their field.
  const properties = (schema.properties ?? {}) as Record<string, { error?: string }>
  for (const error of Value.Errors(schema, { ...(form.ok ? (form.value as Record<string, unknown>) : {}), ...lists })) {
    const field = error.path.split('/').filter(Boolean)[0] ?? ''
    if (field in lists && !errors[field]) errors[field] = schemaErrorSentence(field, { ...error, schema: { ...error.schema, error: properties[field]?.error ?? error.schema.error } })
  }
  const state: FormState = { values: { ...fields, ...(lists.parents ? { parents: (lists.parents as unknown[]).join(',') } : {}) }, errors: { ...form.state.errors, ...errors } }
  if (!form.ok || Object.keys(errors).length > 0) return { ok: false as const, state }
  // An emptied schedule is no schedule (null), not "left as it was".
  if (own.includes('cron') && !(fields.cron ?? '').trim()) lists.cron = null
  return { ok: true as const, value: { ...(form.value as Record<string, unknown>), ...lists } as typeof form.value, state }
}

const on = (value: boolean | undefined, fallback: boolean) => ((value ?? fallback) ? 'on' : '')
const text = (value: number | string | null | undefined) => (value === null || value === undefined ? '' : String(value))

/** The edit form filled from a monitor (the API's names). */
function formOf(m: Monitor): FormState {
  const d = m.definition
  const o = d.options
  return emptyForm({
    type: d.type, name: d.name, target: d.target, interval_seconds: text(d.intervalSeconds), timeout_ms: text(d.timeoutMs), retries: text(d.retries),
    retry_interval_seconds: text(d.retryIntervalMs / 1000), confirm_failures: text(d.confirmFailures), confirm_successes: text(d.confirmSuccesses),
    degraded_after_ms: text(d.degradedAfterMs), component_id: text(m.componentId), method: o.method ?? 'GET',
    headers: Object.entries(o.headers ?? {}).map(([k, v]) => `${k}: ${v}`).join('\n'), body: o.body, accepted_status: o.accepted_status,
    follow_redirects: on(o.follow_redirects, true), keyword: o.keyword, keyword_present: on(o.keyword_present, true),
    keyword_case_sensitive: on(o.keyword_case_sensitive, true), conditions: (o.conditions ?? []).join('\n'), port: text(o.port),
    record_type: o.record_type ?? 'A', expected: (o.expected ?? []).join('\n'), resolver: o.resolver, tls_degraded_below_days: text(o.tls_degraded_below_days),
    tls_fail_below_days: text(o.tls_fail_below_days), push_grace_seconds: text(o.push_grace_seconds), ping_count: text(o.ping_count), cron: o.cron ?? '', cron_timezone: o.cron_timezone ?? '',
    dkim_selectors: (o.dkim_selectors ?? []).join('\n'),
    starttls: on(o.starttls, false), redis_key: o.redis_key, query: o.query, ws_message: o.ws_message, expected_value: o.expected_value,
    regions: d.regions.join(', '), regions_required_down: text(d.regionsRequiredDown),
    parents: m.parents.map((p) => p.id).join(','),
  })
}

const newForm = (type: string) => emptyForm({ type, method: 'GET', record_type: 'A', follow_redirects: 'on', keyword_present: 'on', keyword_case_sensitive: 'on', regions: 'local', regions_required_down: '1' })

export function monitorScreens(deps: ScreenDeps<'accounts' | 'clock' | 'emailAuth' | 'monitors' | 'pages' | 'components' | 'channels' | 'monitorAlerts'>) {
  const { services, config } = deps
  const { monitors, pages, components } = services
  const screen = screens({ accounts: services.accounts, config })

  async function componentChoices(user: Owner): Promise<ComponentChoice[]> {
    const choices: ComponentChoice[] = []
    for (const page of await pages.list(user)) {
      for (const c of await components.list(user, page.id)) choices.push({ value: String(c.id), label: `${page.name}: ${c.name}` })
    }
    return choices
  }

  /** The owner's other monitors, which this one may depend on. */
  const parentChoices = async (user: Owner, monitor?: Monitor): Promise<ParentChoice[]> =>
    (await monitors.list(user)).filter((m) => m.id !== monitor?.id).map((m) => ({ id: m.id, name: m.definition.name, type: m.definition.type }))

  const formPage = async (user: Owner, render: ScreenContext['render'], type: string, state: FormState, monitor?: Monitor, status = 200) =>
    render(
      { title: monitor ? `Edit ${monitor.definition.name}` : 'Add a monitor', crumbs: monitorsCrumbs(...(monitor ? [{ label: monitor.definition.name, href: monitorPath(monitor.id) }, { label: 'Edit' }] : [{ label: 'Add' }])), ...LOOK },
      monitorFormView(type, state, await componentChoices(user), monitor, await monitors.availableRegions(), type === 'ping' ? await monitors.pingUnavailable() : null, services.clock.now(), monitorLimits(user.plan).minIntervalSeconds, await parentChoices(user, monitor)),
      status,
    )

  /** Where the monitor's alerts go, and its snooze (views/monitor-alerts.ts). */
  async function alertsSection(user: Owner, monitorId: number): Promise<string> {
    const channels = (await services.channels.list(user)).map((c) => ({ id: c.id, name: c.name, type: c.type, allMonitors: c.allMonitors }))
    return alertsSummary(monitorId, await services.monitorAlerts.get(user, monitorId), channels)
  }

  async function detailBody(user: Owner, monitor: Monitor, before?: number, pushToken?: string) {
    const results = await monitors.results(user, monitor.id, RESULTS_PER_PAGE, before)
    const periods = []
    for (const period of Object.keys(AVAILABILITY_PERIODS) as AvailabilityPeriod[]) periods.push(await monitors.availability(user, monitor.id, period))
    const choices = await componentChoices(user)
    const last = results[results.length - 1]
    const body = monitorDetailView(
      {
        monitor,
        componentLabel: choices.find((c) => c.value === String(monitor.componentId))?.label ?? null,
        changes: await monitors.stateChanges(user, monitor.id),
        periods,
        results,
        olderBefore: results.length === RESULTS_PER_PAGE && last ? last.id : null,
        now: services.clock.now(),
        toolReport: await monitors.toolReport(user, monitor.id),
        regions: monitor.definition.regions.length === 1 && monitor.definition.regions[0] === 'local' ? [] : await monitors.regionStates(user, monitor.id),
      },
      pushToken ? pushUrlNotice(monitorJson(monitor, config.baseUrl, pushToken).push_url!) : '',
      (await alertsSection(user, monitor.id)) + (monitor.definition.type === 'email_auth' ? emailAuthSection(await services.emailAuth.lastReport(user, monitor.id)) : ''),
      // The first page of results follows changes; an older page, or the push URL shown once, stays still.
      before === undefined && pushToken === undefined ? { url: `${monitorPath(monitor.id)}/live`, etag: await monitors.liveTag(user, monitor.id) } : undefined,
    )
    return body
  }

  async function detailPage(user: Owner, render: ScreenContext['render'], monitor: Monitor, before?: number, pushToken?: string) {
    return render({ title: monitor.definition.name, crumbs: monitorsCrumbs({ label: monitor.definition.name }), ...LOOK }, await detailBody(user, monitor, before, pushToken))
  }

  /** A live screen's poll: 304 while its tag is the one the browser has, else the fresh HTML with the new tag. */
  const liveAnswer = async (request: Request, tag: string, body: () => Promise<string>) => {
    const headers = { etag: tag, 'cache-control': 'no-store', vary: 'cookie' }
    if (request.headers.get('if-none-match') === tag) return new Response(null, { status: 304, headers })
    return new Response(await body(), { headers: { ...headers, 'content-type': 'text/html; charset=utf-8' } })
  }

  const setEnabled = (enabled: boolean) =>
    screen(async ({ user, params, request, redirect }) => {
      const saved = await monitors.setEnabled(user, idParam(params.id), enabled)
      // Back where the button was: the list (its row) or the detail.
      const referer = request.headers.get('referer') ?? ''
      const from = URL.canParse(referer) ? new URL(referer).pathname : ''
      const back = from === monitorPath(saved.id) ? from : `${monitorsPath}#m-${saved.id}`
      return redirect(back, `"${saved.definition.name}" ${enabled ? 'resumed: it starts over as pending' : 'paused'}.`)
    })

  return new Elysia()
    .get(
      '/user/monitors',
      screen(async ({ user, render }) => {
        const etag = await monitors.liveTag(user)
        return render({ title: 'Monitors', crumbs: monitorsCrumbs(), ...LOOK }, monitorsListView(await monitors.list(user), { url: `${monitorsPath}/live`, etag }))
      }),
      { response: { 200: HtmlResponse }, detail: detail('Monitors: list') },
    )
    .get(
      '/user/monitors/live',
      screen(async ({ user, request }) => liveAnswer(request, await monitors.liveTag(user), async () => liveMonitorsList(await monitors.list(user)))),
      { response: { 200: HtmlResponse, 304: t.Void() }, detail: detail("Monitors: the list's table for the live list (If-None-Match: 304 while unchanged)") },
    )
    .get(
      '/user/monitors/:id/live',
      screen(async ({ user, params, request }) => {
        const id = idParam(params.id)
        return liveAnswer(request, await monitors.liveTag(user, id), async () => detailBody(user, await monitors.get(user, id)))
      }),
      { params: IdPath, response: { 200: HtmlResponse, 304: t.Void(), 404: HtmlResponse }, detail: detail("A monitor: its screen for the live screen (If-None-Match: 304 while unchanged)") },
    )
    .get(
      '/user/monitors/cron-preview',
      screen(async ({ query }) => Response.json(cronPreviewLines(query.cron ?? '', query.cron_timezone ?? '', services.clock.now()), { headers: { 'cache-control': 'no-store' } })),
      {
        query: t.Object({ cron: t.Optional(t.String({ maxLength: 100 })), cron_timezone: t.Optional(t.String({ maxLength: 64 })) }),
        response: { 200: t.Object({ ok: t.Boolean({ description: 'false: the schedule or zone would be refused' }), lines: t.Array(t.String(), { description: 'the next 5 runs, or why not' }) }) },
        detail: detail("A push monitor's next scheduled runs as the owner types a cron expression (JSON for the form)"),
      },
    )
    .get(
      '/user/monitors/new',
      screen(async ({ user, query, render }) => {
        const type = typeOf(query.type)
        if (!type) return render({ title: 'Add a monitor', crumbs: monitorsCrumbs({ label: 'Add' }), ...LOOK }, chooseTypeView())
        return formPage(user, render, type, newForm(type))
      }),
      { query: t.Object({ type: t.Optional(t.String({ maxLength: 20 })) }), response: { 200: HtmlResponse }, detail: detail('Monitors: choose a type, then its form') },
    )
    .post(
      '/user/monitors',
      screen(async ({ user, body, render, redirect }) => {
        const type = typeOf(formFields(body).type)
        if (!type) throw new HttpError(400, 'type must be one of http, keyword, json, tcp, dns, tls, push')
        const form = readMonitorForm(CreateMonitorBody, body, type)
        if (!form.ok) return formPage(user, render, type, form.state, undefined, 400)
        try {
          const created = await monitors.create(user, form.value)
          if (created.pushToken) return detailPage(user, render, created.monitor, undefined, created.pushToken)
          return redirect(monitorPath(created.monitor.id), savedFlash(`Monitor "${created.monitor.definition.name}" created; its first run comes within one interval.`, created.warnings))
        } catch (error) {
          return formPage(user, render, type, serviceErrorState(error, form.state), undefined, errorStatus(error))
        }
      }),
      { response: formResponses, detail: detail('Create a monitor (form post)') },
    )
    .get(
      '/user/monitors/:id',
      screen(async ({ user, params, query, render }) => {
        const monitor = await monitors.get(user, idParam(params.id))
        const paging = readForm(ResultsQuery, query, { only: ['before'] })
        if (!paging.ok) throw new HttpError(400, Object.values(paging.state.errors)[0]!)
        const before = paging.value.before
        if (before !== undefined && typeof before !== 'number') throw new HttpError(400, 'before must be a result id')
        return detailPage(user, render, monitor, before)
      }),
      { params: IdPath, query: t.Object({ before: t.Optional(t.String({ maxLength: 20 })) }), response: pageResponses, detail: detail('A monitor: detail') },
    )
    .get(
      '/user/monitors/:id/edit',
      screen(async ({ user, params, render }) => {
        const monitor = await monitors.get(user, idParam(params.id))
        return formPage(user, render, monitor.definition.type, formOf(monitor), monitor)
      }),
      { params: IdPath, response: pageResponses, detail: detail('A monitor: edit') },
    )
    .post(
      '/user/monitors/:id',
      screen(async ({ user, params, body, render, redirect }) => {
        const monitor = await monitors.get(user, idParam(params.id))
        const type = typeOf(formFields(body).type) ?? monitor.definition.type
        const form = readMonitorForm(UpdateMonitorBody, body, type)
        if (!form.ok) return formPage(user, render, type, form.state, monitor, 400)
        try {
          // An emptied name is sent as "" (the API's "name is required"), not left out.
          const { monitor: saved, warnings } = await monitors.update(user, monitor.id, { ...form.value, name: form.value.name ?? '' })
          return redirect(monitorPath(saved.id), savedFlash(`Monitor "${saved.definition.name}" saved.`, warnings))
        } catch (error) {
          return formPage(user, render, type, serviceErrorState(error, form.state), monitor, errorStatus(error))
        }
      }),
      { params: IdPath, response: formResponses, detail: detail('Change a monitor (form post)') },
    )
    .post('/user/monitors/:id/pause', setEnabled(false), { params: IdPath, response: formResponses, detail: detail('Pause a monitor (form post)') })
    .post('/user/monitors/:id/resume', setEnabled(true), { params: IdPath, response: formResponses, detail: detail('Resume a monitor (form post)') })
    .post(
      '/user/monitors/:id/push-token',
      screen(async ({ user, params, render }) => {
        const id = idParam(params.id)
        const token = await monitors.rotatePushToken(user, id)
        return detailPage(user, render, await monitors.get(user, id), undefined, token)
      }),
      { params: IdPath, response: formResponses, detail: detail('A new push URL for a push monitor (form post; shown once)') },
    )
    .get(
      '/user/monitors/:id/delete',
      screen(async ({ user, params, render }) => {
        const monitor = await monitors.get(user, idParam(params.id))
        return render({ title: `Delete ${monitor.definition.name}`, crumbs: monitorsCrumbs({ label: monitor.definition.name, href: monitorPath(monitor.id) }, { label: 'Delete' }), ...LOOK }, deleteMonitorView(monitor))
      }),
      { params: IdPath, response: pageResponses, detail: detail('A monitor: confirm deletion') },
    )
    .post(
      '/user/monitors/:id/delete',
      screen(async ({ user, params, redirect }) => {
        const monitor = await monitors.get(user, idParam(params.id))
        await monitors.delete(user, monitor.id)
        return redirect(monitorsPath, `Monitor "${monitor.definition.name}" deleted.`)
      }),
      { params: IdPath, response: formResponses, detail: detail('Delete a monitor (form post)') },
    )
    .get(
      '/user/pages/:id/monitors',
      screen(async ({ user, params, render }) => {
        const page = await pages.get(user, idParam(params.id))
        const own = (await monitors.list(user)).filter((m) => m.pageId === page.id)
        return render({ title: `Monitors: ${page.name}`, crumbs: pageCrumbs(page, 'Monitors'), ...LOOK }, pageMonitorsView(page, own))
      }),
      { params: IdPath, response: pageResponses, detail: detail('A status page: its monitors') },
    )
}
