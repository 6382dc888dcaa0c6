/**
 * `/api/v1/probe/…`: the API of probe processes, with a probe token (`Authorization: Bearer lpt_…`).
 * An owner's API key or session is not a probe token (401 here), and a probe token is not an
 * owner's key (401 on the management API): the two never stand in for each other.
 */
import { Elysia, t } from 'elysia'
import { namedModels, modelRef, sharedModels } from '../../http/schemas.ts'
import { sha256Hex } from '../../lib/crypto.ts'
import { unauthorized } from '../../lib/errors.ts'
import { MAX_RESULTS_PER_BATCH, type ProbesService } from './service.ts'

const security = [{ probeToken: [] }]
const detail = (summary: string, description: string) => ({ tags: ['Probes'], summary, description, security })

const ProbeMonitorJson = t.Object({
  id: t.Integer(),
  spec: t.Record(t.String(), t.Unknown(), { description: "the check engine's definition (type http, tcp, dns or tls, with its target, timeouts and options)" }),
  interval_seconds: t.Integer(),
  retries: t.Integer(),
  retry_interval_ms: t.Integer(),
  phase_ms: t.Integer({ description: 'runs fall on the Unix epoch + phase_ms + k × interval' }),
})

const ProbeResultJson = t.Object({
  monitor_id: t.Integer({ minimum: 1, error: 'monitor_id must be a monitor id' }),
  scheduled_at: t.String({ format: 'date-time', error: 'scheduled_at must be an RFC 3339 time', description: 'when the run was due (RFC 3339): a run is recorded once' }),
  result: t.Object({
    outcome: t.Union([t.Literal('ok'), t.Literal('degraded'), t.Literal('fail'), t.Literal('misconfigured')], { error: 'outcome must be ok, degraded, fail or misconfigured' }),
    response_ms: t.Nullable(t.Integer({ minimum: 0, maximum: 3_600_000 }), { error: 'response_ms must be a whole number of ms or null' }),
    status_code: t.Optional(t.Nullable(t.Integer({ minimum: 100, maximum: 599 }), { error: 'status_code must be an HTTP status or null' })),
    attempts: t.Optional(t.Integer({ minimum: 1, maximum: 10, error: 'attempts must be from 1 to 10' })),
    message: t.String({ maxLength: 512, error: 'message must be a string of at most 512 characters' }),
  }),
})

export const probeModels = namedModels({ ProbeMonitor: ProbeMonitorJson, ProbeResult: ProbeResultJson })
const ProbeMonitorRef = modelRef(probeModels, 'ProbeMonitor')
const ProbeResultRef = modelRef(probeModels, 'ProbeResult')

const ResultsBody = t.Object({
  results: t.Array(ProbeResultRef, { maxItems: MAX_RESULTS_PER_BATCH, error: `results must be a list of at most ${MAX_RESULTS_PER_BATCH} results` }),
})

const probeErrors = { 400: 'Error', 401: 'Error' } as const

function presentedToken(headers: Record<string, string | undefined>): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')
  return match?.[1]
}

export function probeAuth(probes: ProbesService) {
  return new Elysia({ name: 'probe-auth', seed: probes }).resolve({ as: 'scoped' }, async ({ headers }) => {
    const token = presentedToken(headers)
    const probe = token ? await probes.authenticate(token) : undefined
    if (!probe) throw unauthorized('a probe token is required: Authorization: Bearer lpt_…')
    return { probe }
  })
}

export function probeRoutes(probes: ProbesService) {
  return new Elysia({ prefix: '/api/v1/probe' })
    .model(sharedModels)
    .model(probeModels)
    .use(probeAuth(probes))
    .get(
      '/monitors',
      async ({ probe, request }) => {
        const monitors = await probes.monitorsFor(probe.region)
        const body = JSON.stringify({
          data: monitors.map((m) => ({ id: m.id, spec: m.spec, interval_seconds: m.intervalSeconds, retries: m.retries, retry_interval_ms: m.retryIntervalMs, phase_ms: m.phaseMs })),
          meta: { region: probe.region, count: monitors.length },
        })
        // An idle probe asks every 30 s: unchanged definitions cost a 304 and no body.
        const etag = `"${(await sha256Hex(body)).slice(0, 32)}"`
        const headers = { etag, 'cache-control': 'private, no-cache' }
        const presented = request.headers.get('if-none-match')
        if (presented !== null && presented.split(',').some((tag) => tag.trim() === etag)) return new Response(null, { status: 304, headers })
        return new Response(body, { headers: { ...headers, 'content-type': 'application/json; charset=utf-8' } })
      },
      {
        response: {
          200: t.Object({ data: t.Array(ProbeMonitorRef), meta: t.Object({ region: t.String(), count: t.Integer() }) }),
          304: t.Void(),
          ...probeErrors,
        },
        detail: detail(
          "The monitors of the probe's region",
          'Enabled monitors that list the region of the presented probe token, with what the check engine needs and nothing about their owners. ETag / If-None-Match: unchanged definitions answer 304.',
        ),
      },
    )
    .post(
      '/results',
      async ({ probe, body }) => {
        const answer = await probes.ingest(
          probe.region,
          body.results.map((r) => ({ ...r, scheduled_at: Date.parse(r.scheduled_at) })),
        )
        return { data: { region: probe.region, accepted: answer.accepted, rejected: answer.rejected } }
      },
      {
        body: ResultsBody,
        response: {
          200: t.Object({
            data: t.Object({
              region: t.String(),
              accepted: t.Integer({ description: 'recorded, or already recorded (a batch pushed twice counts once)' }),
              rejected: t.Array(t.Object({ index: t.Integer(), monitor_id: t.Integer(), error: t.String() }), { description: 'items not recorded, with why (e.g. a monitor not assigned to the region)' }),
            }),
          }),
          ...probeErrors,
        },
        detail: detail(
          'Push a batch of results',
          `At most ${MAX_RESULTS_PER_BATCH} results. Each is recorded for the token's region through the same state machine as the server's own runs; the monitor's state is the k-of-n aggregate of its regions. An item for a monitor that does not list the region is rejected on its own.`,
        ),
      },
    )
}
