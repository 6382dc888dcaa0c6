/**
 * The SLA API (owner by API key or session): the report of a page as JSON, CSV and PDF, the
 * targets per component, and the page's monthly report mail setting.
 *
 *   GET    /user/api/v1/status-pages/:id/sla[.csv|.pdf]?from=YYYY-MM-DD&to=YYYY-MM-DD
 *   GET    /user/api/v1/status-pages/:id/sla/targets
 *   PUT    /user/api/v1/components/:id/sla-target        DELETE same
 *   GET    /user/api/v1/status-pages/:id/sla/settings     PUT same
 */
import { Elysia, t } from 'elysia'
import { errorResponses, IdParams, sharedModels, textAnswer } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { slaReportCsv } from './csv.ts'
import { slaModels, SlaReportJson, slaReportJson, SlaReportQuery, SlaSettingsBody, SlaTargetBody, SlaTargetItem, targetJson } from './model.ts'
import { dayString } from './period.ts'
import type { SlaReport, SlaService } from './service.ts'

const detail = (summary: string, description?: string) => ({ tags: ['SLA'], summary, description, security: apiKeySecurity })
const NO_STORE = { 'cache-control': 'no-store' }
const RANGE_TEXT =
  '`from` and `to` are whole UTC days (YYYY-MM-DD, inclusive, at most 366 days); without them, the current calendar month. Every report states its accounting policy.'

/** `sla-<slug>-<from>-<to>.<ext>`: the slug is a DNS label, so the name needs no quoting rules. */
const fileName = (report: SlaReport, ext: string) => `sla-${report.page.slug}-${dayString(report.from)}-${dayString(report.to - 86_400_000)}.${ext}`

export function slaRoutes(deps: { accounts: AccountsService; sla: SlaService }) {
  const { sla } = deps
  return new Elysia({ prefix: '/user/api/v1' })
    .model(sharedModels)
    .model(slaModels)
    .use(ownerAuth(deps.accounts))
    .get(
      '/status-pages/:id/sla',
      async ({ owner, params, query, set }) => {
        Object.assign(set.headers, NO_STORE)
        return { data: slaReportJson(await sla.report(owner, params.id, query)) }
      },
      {
        params: IdParams,
        query: SlaReportQuery,
        response: { 200: t.Object({ data: SlaReportJson }), ...errorResponses },
        detail: detail(
          'SLA report of a status page',
          `Per component: target versus actual (floored to 4 decimals), downtime, error budget used and left, outages and the longest, incidents and MTTR, excluded maintenance and a strip (daily up to 92 days, then 7 days or more per bar). ${RANGE_TEXT}`,
        ),
      },
    )
    .get(
      '/status-pages/:id/sla.csv',
      async ({ owner, params, query }) => {
        const report = await sla.report(owner, params.id, query, 'day')
        return new Response(slaReportCsv(report), {
          headers: { ...NO_STORE, 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${fileName(report, 'csv')}"` },
        })
      },
      {
        params: IdParams,
        query: SlaReportQuery,
        response: { 200: textAnswer('text/csv', 'One row per component per UTC day, with its target and policy'), ...errorResponses },
        detail: detail('SLA report as CSV', `Cells a spreadsheet would run as formulas are escaped with a leading apostrophe. ${RANGE_TEXT}`),
      },
    )
    .get(
      '/status-pages/:id/sla.pdf',
      async ({ owner, params, query }) => {
        const report = await sla.report(owner, params.id, query)
        return new Response(await (await import('./pdf.ts')).renderSlaPdf(report), {
          headers: { ...NO_STORE, 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${fileName(report, 'pdf')}"` },
        })
      },
      {
        params: IdParams,
        query: SlaReportQuery,
        response: { 200: textAnswer('application/pdf', 'An A4 PDF, ten components per page'), ...errorResponses },
        detail: detail('SLA report as PDF', RANGE_TEXT),
      },
    )
    .get(
      '/status-pages/:id/sla/targets',
      async ({ owner, params }) => {
        const list = await sla.targets(owner, params.id)
        return {
          data: list.map((item) => ({ component_id: item.componentId, component_name: item.componentName, target: item.target && targetJson(item.target) })),
        }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Array(SlaTargetItem) }), ...errorResponses },
        detail: detail("The SLA target of each of a page's components (null: none)"),
      },
    )
    .put('/components/:id/sla-target', async ({ owner, params, body }) => ({ data: targetJson(await sla.setTarget(owner, params.id, body)) }), {
      params: IdParams,
      body: SlaTargetBody,
      response: { 200: t.Object({ data: slaModels.SlaTarget }), ...errorResponses },
      detail: detail(
        "Set a component's SLA target",
        '`target_percent` from 50 to 99.9999 (at most 4 decimals); `period` month (default), quarter or year: the error budget the breach alerts measure (50, 80 and 100 % of it, once each per period). Policy: `degraded_counts_as` up (default), down or half; `exclude_maintenance` (default true); `min_outage_seconds` (default 0: every recorded outage counts). `public_budget` (default false) shows the running period budget and what is left on the public page and in the status JSON.',
      ),
    })
    .delete(
      '/components/:id/sla-target',
      async ({ owner, params }) => {
        await sla.deleteTarget(owner, params.id)
        return { data: { deleted: true } }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Object({ deleted: t.Boolean() }) }), ...errorResponses },
        detail: detail("Remove a component's SLA target"),
      },
    )
    .get('/status-pages/:id/sla/settings', async ({ owner, params }) => ({ data: { monthly_report: (await sla.settings(owner, params.id)).monthlyReport } }), {
      params: IdParams,
      response: { 200: t.Object({ data: SlaSettingsBody }), ...errorResponses },
      detail: detail("A page's SLA settings"),
    })
    .put(
      '/status-pages/:id/sla/settings',
      async ({ owner, params, body }) => ({ data: { monthly_report: (await sla.setSettings(owner, params.id, body)).monthlyReport } }),
      {
        params: IdParams,
        body: SlaSettingsBody,
        response: { 200: t.Object({ data: SlaSettingsBody }), ...errorResponses },
        detail: detail(
          "Change a page's SLA settings",
          "`monthly_report`: on the 1st (from 06:00 UTC), the previous month's report as a PDF mailed to the owner's account address. Needs mail (SMTP) configured.",
        ),
      },
    )
}
