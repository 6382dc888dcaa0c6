/** `/user/api/v1/monitors` (the hosted service's shape) and the push endpoint `/api/push/<token>`. */
import { Elysia, t } from 'elysia'
import { errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import {
  availabilityJson,
  AvailabilityQuery,
  CreateMonitorBody,
  MonitorAvailabilityRef,
  monitorJson,
  monitorRegionJson,
  MonitorRegionRef,
  monitorModels,
  MonitorRef,
  monitorResultJson,
  MonitorResultRef,
  ResultsQuery,
  UpdateMonitorBody,
} from './model.ts'
import type { MonitorsService } from './service.ts'
import { toolReportJson, toolReportModels, ToolReportRef } from './tool-model.ts'
import { toIso } from '../../lib/time.ts'

const detail = (summary: string, description?: string) => ({ tags: ['Monitors'], summary, description, security: apiKeySecurity })
const one = t.Object({ data: MonitorRef })
/** Create and change: `meta.warnings` when something was saved but needs the owner's eye. */
const saved = t.Object({
  data: MonitorRef,
  meta: t.Optional(t.Object({ warnings: t.Array(t.String(), { description: 'e.g. a target name that does not resolve yet: saved, and its runs count as down until it resolves' }) })),
})
const withWarnings = (warnings: string[]) => (warnings.length > 0 ? { meta: { warnings } } : {})

export function monitorsRoutes(deps: { accounts: AccountsService; monitors: MonitorsService; baseUrl: string }) {
  const { monitors, baseUrl } = deps
  return new Elysia({ prefix: '/user/api/v1/monitors' })
    .model(sharedModels)
    .model(monitorModels)
    .model(toolReportModels)
    .use(ownerAuth(deps.accounts))
    .get(
      '/',
      async ({ owner }) => {
        const list = (await monitors.list(owner)).map((m) => monitorJson(m, baseUrl))
        return { data: list, meta: { count: list.length } }
      },
      {
        response: { 200: t.Object({ data: t.Array(MonitorRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail('List your monitors', 'Paused monitors are listed too, with `enabled: false` and `state: "paused"`.'),
      },
    )
    .post(
      '/',
      async ({ owner, body, status }) => {
        const created = await monitors.create(owner, body)
        return status(201, { data: monitorJson(created.monitor, baseUrl, created.pushToken), ...withWarnings(created.warnings) })
      },
      {
        body: CreateMonitorBody,
        response: { 201: saved, ...errorResponses },
        detail: detail(
          'Create a monitor',
          'Types: `http`, `keyword` (needs `keyword`), `json` (needs `conditions`), `tcp`, `dns`, `tls`, `push`, `ssl` (certificate health of host[:port]; SMTP STARTTLS on ports 25 and 587; default every 6 h), `dnsbl` (an IP, or a domain whose MX and A addresses are looked up in `zones`; hourly at most), `email_auth` (target: a domain; optional `dkim_selectors`; default every 6 h), `domain_expiry` (target: a registered domain; its expiry over RDAP from the TLD\'s registry, degraded under 30, 14 and 7 days, down once expired, misconfigured when the TLD has no RDAP service; default every 12 h), `ping` (target: a host, no port; ICMP echo `ping_count` times, default 3; refused with 400 and the reason where this server cannot send ICMP), `redis` (PING; optional `redis_key` and `expected_value`), `postgres` (a login; optional read-only `query` and `expected_value`), `websocket` (the upgrade; optional `ws_message` and `expected_value`, text the first reply contains), `smtp` (banner and EHLO; `starttls`: a trusted STARTTLS handshake too). A push monitor answers its secret `push_url` once, here. Plan limits (count and shortest interval) answer 403. The target\'s host name is resolved now with the resolver and address rules its runs use: a name that resolves to an address the instance does not reach (loopback or private without MONITOR_PRIVATE_TARGETS, metadata, reserved) is refused with 400 as the literal address is; a name that does not resolve yet is saved with a warning in `meta.warnings`.',
        ),
      },
    )
    .get('/:id', async ({ owner, params }) => ({ data: monitorJson(await monitors.get(owner, params.id), baseUrl) }), {
      params: IdParams,
      response: { 200: one, ...errorResponses },
      detail: detail('Get a monitor'),
    })
    .patch(
      '/:id',
      async ({ owner, params, body }) => {
        const updated = await monitors.update(owner, params.id, body)
        return { data: monitorJson(updated.monitor, baseUrl), ...withWarnings(updated.warnings) }
      },
      {
        params: IdParams,
        body: UpdateMonitorBody,
        response: { 200: saved, ...errorResponses },
        detail: detail('Change a monitor', 'A new type or target starts the state over (pending) and is resolved and checked as on creation (400, or a warning in `meta.warnings`).'),
      },
    )
    .delete(
      '/:id',
      async ({ owner, params }) => {
        await monitors.delete(owner, params.id)
        return { data: { deleted: true } }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Object({ deleted: t.Boolean() }) }), ...errorResponses },
        detail: detail('Delete a monitor and its results'),
      },
    )
    .post('/:id/pause', async ({ owner, params }) => ({ data: monitorJson(await monitors.setEnabled(owner, params.id, false), baseUrl) }), {
      params: IdParams,
      response: { 200: one, ...errorResponses },
      detail: detail('Pause a monitor', 'No runs while paused; paused time does not count in availability.'),
    })
    .post('/:id/resume', async ({ owner, params }) => ({ data: monitorJson(await monitors.setEnabled(owner, params.id, true), baseUrl) }), {
      params: IdParams,
      response: { 200: one, ...errorResponses },
      detail: detail('Resume a monitor', 'It starts over as pending; its first run comes within one interval.'),
    })
    .post(
      '/:id/push-token',
      async ({ owner, params }) => {
        const token = await monitors.rotatePushToken(owner, params.id)
        return { data: monitorJson(await monitors.get(owner, params.id), baseUrl, token) }
      },
      {
        params: IdParams,
        response: { 200: one, ...errorResponses },
        detail: detail('Replace the push URL of a push monitor', 'The old URL stops working; the new one is answered once, here.'),
      },
    )
    .get(
      '/:id/results',
      async ({ owner, params, query }) => {
        const limit = query.limit ?? 100
        const rows = await monitors.results(owner, params.id, limit, query.before)
        const last = rows[rows.length - 1]
        return { data: rows.map(monitorResultJson), meta: { count: rows.length, next_before: rows.length === limit && last ? last.id : null } }
      },
      {
        params: IdParams,
        query: ResultsQuery,
        response: {
          200: t.Object({ data: t.Array(MonitorResultRef), meta: t.Object({ count: t.Integer(), next_before: t.Nullable(t.Integer({ description: 'pass as `before` for the next page' })) }) }),
          ...errorResponses,
        },
        detail: detail('Recent results of a monitor, newest first', 'Raw results are kept 24 hours; older figures live on in the component’s minute and day roll-ups.'),
      },
    )
    .get(
      '/:id/report',
      async ({ owner, params }) => {
        const stored = await monitors.toolReport(owner, params.id)
        return { data: stored ? toolReportJson(stored) : null }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Nullable(ToolReportRef) }), ...errorResponses },
        detail: detail(
          'The last full report of an SSL or DNSBL monitor',
          'SSL: validity, days left, names and whether they cover the host, trust, key, signature algorithm, protocol; chain and OCSP stapling on paid plans (null on the free plan). DNSBL: each address and zone with listed, clear or error. Null before the first run and for other types.',
        ),
      },
    )
    .get(
      '/:id/regions',
      async ({ owner, params }) => {
        const monitor = await monitors.get(owner, params.id)
        return {
          data: (await monitors.regionStates(owner, params.id)).map(monitorRegionJson),
          meta: { regions_required_down: monitor.definition.regionsRequiredDown, state: monitor.state },
        }
      },
      {
        params: IdParams,
        response: {
          200: t.Object({ data: t.Array(MonitorRegionRef), meta: t.Object({ regions_required_down: t.Integer(), state: t.String({ description: "the monitor's confirmed (aggregate) state" }) }) }),
          ...errorResponses,
        },
        detail: detail(
          'Per-region state of a monitor',
          "Each of its regions: the region's own state, its last result, and whether it is stale (no result for 3 intervals: no data). The monitor's state is down when at least regions_required_down reporting regions are down.",
        ),
      },
    )
    .get(
      '/:id/state-changes',
      async ({ owner, params }) => ({ data: (await monitors.stateChanges(owner, params.id)).map((c) => ({ state: c.state, at: toIso(c.at) })) }),
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Array(t.Object({ state: t.String(), at: t.String({ description: 'RFC 3339' }) })) }), ...errorResponses },
        detail: detail('State changes of a monitor (the downtime log)', 'Confirmed changes (pending, up, degraded, down, misconfigured, paused) of the last 90 days, oldest first, with the one the span began in.'),
      },
    )
    .get(
      '/:id/availability',
      async ({ owner, params, query }) => ({ data: availabilityJson(await monitors.availability(owner, params.id, query.period ?? '30d')) }),
      {
        params: IdParams,
        query: AvailabilityQuery,
        response: { 200: t.Object({ data: MonitorAvailabilityRef }), ...errorResponses },
        detail: detail('Availability of a monitor', 'Uptime %, downtime, MTTR and MTBF over 7d, 30d (default), 90d or 365d, from its confirmed state changes; paused time is not counted.'),
      },
    )
}

const PushParams = t.Object({ token: t.String({ minLength: 16, maxLength: 100, error: 'not a push token' }) })
const PushQuery = t.Object({
  status: t.Optional(t.String({ maxLength: 10, description: 'up (default) or down' })),
  msg: t.Optional(t.String({ maxLength: 2000, description: 'a message; cut to 512 characters' })),
  ping: t.Optional(t.String({ maxLength: 20, description: 'a response time in ms' })),
})

/** The push endpoint: public (the token is the secret), rate-limited by the edge like every `/api/` path. */
export function pushRoutes(monitors: MonitorsService) {
  const pushDetail = {
    tags: ['Monitors'],
    summary: 'Push to a push (heartbeat) monitor',
    description: '`?status=up|down&msg=&ping=` (GET or POST). Silence longer than the interval plus the grace time makes the monitor down; with a `cron` schedule, no push by the next scheduled time plus the grace time. It also ends a run begun with `/start`.',
  }
  const startDetail = {
    tags: ['Monitors'],
    summary: 'A run of a push monitor’s job began',
    description: 'The job calls `<push_url>/start` when it begins; its next push (or `/fail`) ends the run, whose duration becomes the response time. A run that has not ended within the grace time makes the monitor down. Records no result.',
  }
  const failDetail = {
    tags: ['Monitors'],
    summary: 'A run of a push monitor’s job failed',
    description: 'The job calls `<push_url>/fail` (`?msg=` optional) when it fails: a failing result, and the end of a run begun with `/start`.',
  }
  const response = { 200: t.Object({ ok: t.Boolean(), state: t.String() }), 400: 'Error', 404: 'Error' } as const
  return new Elysia()
    .model(sharedModels)
    .get('/api/push/:token', async ({ params, request }) => ({ ok: true, ...(await monitors.push(params.token, new URL(request.url).searchParams)) }), {
      params: PushParams,
      query: PushQuery,
      response,
      detail: pushDetail,
    })
    .post('/api/push/:token', async ({ params, request }) => ({ ok: true, ...(await monitors.push(params.token, new URL(request.url).searchParams)) }), {
      params: PushParams,
      query: PushQuery,
      response,
      detail: pushDetail,
    })
    .get('/api/push/:token/start', async ({ params, request }) => ({ ok: true, ...(await monitors.push(params.token, new URL(request.url).searchParams, 'start')) }), { params: PushParams, query: PushQuery, response, detail: startDetail })
    .post('/api/push/:token/start', async ({ params, request }) => ({ ok: true, ...(await monitors.push(params.token, new URL(request.url).searchParams, 'start')) }), { params: PushParams, query: PushQuery, response, detail: startDetail })
    .get('/api/push/:token/fail', async ({ params, request }) => ({ ok: true, ...(await monitors.push(params.token, new URL(request.url).searchParams, 'fail')) }), { params: PushParams, query: PushQuery, response, detail: failDetail })
    .post('/api/push/:token/fail', async ({ params, request }) => ({ ok: true, ...(await monitors.push(params.token, new URL(request.url).searchParams, 'fail')) }), { params: PushParams, query: PushQuery, response, detail: failDetail })
}
