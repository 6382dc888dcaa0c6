/** The SLA API's schemas (request and answer) and the report's JSON shape. */
import { t, type Static } from 'elysia'
import { namedModels } from '../../http/schemas.ts'
import { toIso, toIsoOrNull } from '../../lib/time.ts'
import { formatDuration, formatPpm, type SlaComponentReport, type SlaTarget } from './compute.ts'
import { dayString } from './period.ts'
import { MAX_MIN_OUTAGE_SECONDS, MAX_TARGET_PERCENT, MIN_TARGET_PERCENT, type SlaReport } from './service.ts'

const DateString = (field: string) => t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', error: `${field} must be a date YYYY-MM-DD` })

export const SlaReportQuery = t.Object({
  from: t.Optional(DateString('from')),
  to: t.Optional(DateString('to')),
})

export const SlaTargetBody = t.Object({
  // The range is checked by the service, after the ownership check: another owner's component is
  // a 404 whatever the body holds.
  target_percent: t.Number({
    description: `From ${MIN_TARGET_PERCENT} to ${MAX_TARGET_PERCENT}, at most 4 decimals`,
    // The schema checks the type only; the range error (same words) comes from the service.
    error: 'target_percent must be a number',
  }),
  period: t.Optional(t.Union([t.Literal('month'), t.Literal('quarter'), t.Literal('year')], { error: 'period must be month, quarter or year' })),
  degraded_counts_as: t.Optional(t.Union([t.Literal('up'), t.Literal('down'), t.Literal('half')], { error: 'degraded_counts_as must be up, down or half' })),
  exclude_maintenance: t.Optional(t.Boolean({ error: 'exclude_maintenance must be true or false' })),
  min_outage_seconds: t.Optional(
    t.Integer({ minimum: 0, maximum: MAX_MIN_OUTAGE_SECONDS, error: `min_outage_seconds must be a whole number from 0 to ${MAX_MIN_OUTAGE_SECONDS}` }),
  ),
  breach_alerts: t.Optional(t.Boolean({ error: 'breach_alerts must be true or false' })),
  public_budget: t.Optional(
    t.Boolean({ description: "Show the running period's error budget and what is left on the public page and in the status JSON (default false)", error: 'public_budget must be true or false' }),
  ),
})

export const SlaSettingsBody = t.Object({
  monthly_report: t.Boolean({ error: 'monthly_report must be true or false' }),
})

const Policy = t.Object({
  degraded_counts_as: t.String(),
  exclude_maintenance: t.Boolean(),
  min_outage_seconds: t.Integer(),
})

const Target = t.Object({
  target_percent: t.Number(),
  period: t.String(),
  breach_alerts: t.Boolean(),
  public_budget: t.Boolean({ description: 'The error budget is shown on the public page and in the status JSON' }),
  policy: Policy,
})

const Bucket = t.Object({
  date: t.String({ description: 'First UTC day of the bucket' }),
  days: t.Integer(),
  up_seconds: t.Number(),
  degraded_seconds: t.Number(),
  down_seconds: t.Number(),
  maintenance_seconds: t.Number(),
  percent: t.Nullable(t.Number()),
  level: t.String({ description: 'none, ok, minor, major or maintenance' }),
})

const ComponentReport = t.Object({
  id: t.Integer(),
  name: t.String(),
  target: t.Nullable(Target),
  policy: Policy,
  actual_percent: t.Nullable(t.Number({ description: 'Floored to 4 decimals: never rounded up to a target' })),
  actual: t.Nullable(t.String({ description: 'actual_percent with 4 decimals, e.g. "99.9000"' })),
  met: t.Nullable(t.Boolean()),
  downtime_seconds: t.Number(),
  downtime: t.String({ description: 'h:mm:ss' }),
  measured_seconds: t.Number(),
  degraded_seconds: t.Number(),
  maintenance_seconds: t.Number(),
  budget: t.Nullable(
    t.Object({
      allowed_seconds: t.Number(),
      used_seconds: t.Number(),
      left_seconds: t.Number({ description: 'Negative when the budget is overspent' }),
      used_percent: t.Nullable(t.Number({ description: 'null when no budget at all was allowed but time was down' })),
    }),
  ),
  outages: t.Object({ count: t.Integer(), ignored_short: t.Integer(), longest_seconds: t.Number(), longest: t.String() }),
  incidents: t.Object({ count: t.Integer(), resolved: t.Integer(), mttr_seconds: t.Nullable(t.Number()), mttr: t.Nullable(t.String()) }),
  strip: t.Array(Bucket),
})

export const SlaReportJson = t.Object({
  page: t.Object({ id: t.Integer(), name: t.String(), slug: t.String() }),
  from: t.String({ description: 'First UTC day' }),
  to: t.String({ description: 'Last UTC day (inclusive)' }),
  generated_at: t.String(),
  bucket_days: t.Integer({ description: 'Days per strip bucket: 1 up to 92 days, then 7 or more' }),
  policies: t.Array(t.String(), { description: 'The accounting policy of each component, in words (each distinct one once)' }),
  components: t.Array(ComponentReport),
  incidents: t.Array(
    t.Object({
      id: t.Integer(),
      title: t.String(),
      started_at: t.String(),
      resolved_at: t.Nullable(t.String()),
      duration_seconds: t.Number(),
      components: t.Array(t.String()),
    }),
  ),
  maintenance: t.Array(
    t.Object({ id: t.Integer(), title: t.String(), start_at: t.String(), end_at: t.String(), excluded_seconds: t.Number(), components: t.Array(t.String()) }),
  ),
})

export const SlaTargetItem = t.Object({ component_id: t.Integer(), component_name: t.String(), target: t.Nullable(Target) })

export const slaModels = namedModels({ SlaReport: SlaReportJson, SlaTarget: Target, SlaTargetItem })

const seconds = (ms: number) => Math.round(ms / 1000)

export function targetJson(target: SlaTarget): Static<typeof Target> {
  return {
    target_percent: target.targetPpm / 10_000,
    period: target.period,
    breach_alerts: target.breachAlerts,
    public_budget: target.publicBudget,
    policy: policyJson(target.policy),
  }
}

const policyJson = (policy: SlaComponentReport['policy']) => ({
  degraded_counts_as: policy.degradedCountsAs,
  exclude_maintenance: policy.excludeMaintenance,
  min_outage_seconds: policy.minOutageSeconds,
})

function componentJson(c: SlaComponentReport): Static<typeof ComponentReport> {
  return {
    id: c.id,
    name: c.name,
    target: c.target ? targetJson(c.target) : null,
    policy: policyJson(c.policy),
    actual_percent: c.actualPpm === null ? null : c.actualPpm / 10_000,
    actual: c.actualPpm === null ? null : formatPpm(c.actualPpm),
    met: c.met,
    downtime_seconds: seconds(c.downtimeMs),
    downtime: formatDuration(c.downtimeMs),
    measured_seconds: seconds(c.totals.measuredMs),
    degraded_seconds: seconds(c.totals.degradedMs),
    maintenance_seconds: seconds(c.totals.maintenanceMs),
    budget: c.budget && {
      allowed_seconds: seconds(c.budget.allowedMs),
      used_seconds: seconds(c.budget.usedMs),
      left_seconds: seconds(c.budget.leftMs),
      used_percent: Number.isFinite(c.budget.usedPct) ? c.budget.usedPct : null,
    },
    outages: { count: c.outages.count, ignored_short: c.outages.ignoredShort, longest_seconds: seconds(c.outages.longestMs), longest: formatDuration(c.outages.longestMs) },
    incidents: {
      count: c.incidents.count,
      resolved: c.incidents.resolved,
      mttr_seconds: c.incidents.mttrMs === null ? null : seconds(c.incidents.mttrMs),
      mttr: c.incidents.mttrMs === null ? null : formatDuration(c.incidents.mttrMs),
    },
    strip: c.strip.map((b) => ({
      date: dayString(b.start),
      days: Math.round((b.end - b.start) / 86_400_000),
      up_seconds: seconds(b.upMs),
      degraded_seconds: seconds(b.degradedMs),
      down_seconds: seconds(b.downMs),
      maintenance_seconds: seconds(b.maintenanceMs),
      percent: b.percent,
      level: b.level,
    })),
  }
}

export function slaReportJson(report: SlaReport): Static<typeof SlaReportJson> {
  return {
    page: report.page,
    from: dayString(report.from),
    to: dayString(report.to - 86_400_000),
    generated_at: toIso(report.generatedAt),
    bucket_days: report.bucketDays,
    policies: report.policies,
    components: report.components.map(componentJson),
    incidents: report.incidents.map((i) => ({
      id: i.id,
      title: i.title,
      started_at: toIso(i.startedAt),
      resolved_at: toIsoOrNull(i.resolvedAt),
      duration_seconds: seconds(i.durationMs),
      components: i.components,
    })),
    maintenance: report.maintenance.map((m) => ({
      id: m.id,
      title: m.title,
      start_at: toIso(m.start),
      end_at: toIso(m.end),
      excluded_seconds: seconds(m.excludedMs),
      components: m.components,
    })),
  }
}
