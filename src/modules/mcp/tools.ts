/**
 * The MCP tools as a table: each one's name, what an agent reads about it, its input (a zod shape,
 * the SDK's schema language) and what it does as the key's owner, through the same services (and
 * so the same checks, limits and events) as the management API. Answers are the API's JSON.
 */
import { z } from 'zod'
import type { Config } from '../../config.ts'
import { HttpError } from '../../lib/errors.ts'
import type { Owner } from '../accounts/service.ts'
import { incidentJson } from '../incidents/model.ts'
import type { IncidentsService } from '../incidents/service.ts'
import { maintenanceJson } from '../maintenances/model.ts'
import type { MaintenancesService } from '../maintenances/service.ts'
import { monitorJson, monitorResultJson } from '../monitors/model.ts'
import type { MonitorsService } from '../monitors/service.ts'
import type { PageStatusService } from '../status-pipeline/service.ts'
import { statusPageJson } from '../status-pages/model.ts'
import type { StatusPagesService } from '../status-pages/service.ts'

export interface ToolServices {
  pages: Pick<StatusPagesService, 'list' | 'get'>
  pageStatus: Pick<PageStatusService, 'snapshot'>
  incidents: Pick<IncidentsService, 'create' | 'addUpdate' | 'get'>
  maintenances: Pick<MaintenancesService, 'create'>
  monitors: Pick<MonitorsService, 'list' | 'get' | 'setEnabled' | 'results'>
  config: Pick<Config, 'scheme' | 'statusDomain' | 'baseUrl'>
  now: () => number
}

export interface Tool {
  name: string
  title: string
  description: string
  input: z.ZodRawShape
  /** Changes nothing (an agent may call it freely). */
  readOnly: boolean
  run(owner: Owner, args: Record<string, unknown>, s: ToolServices): Promise<unknown>
}

const id = (what: string) => z.number().int().positive().describe(what)
const state = z.enum(['investigating', 'identified', 'monitoring', 'resolved'])
const notify = z.boolean().optional().describe("Also tell the page's subscribers (default false)")
const componentIds = z.array(z.number().int().positive()).max(100).optional().describe('Affected components; absent means the whole page')

export const TOOLS: readonly Tool[] = [
  {
    name: 'list_pages',
    title: 'List status pages',
    description: 'Every status page of the account, with its public address, overall status and open incidents.',
    input: {},
    readOnly: true,
    async run(owner, _args, s) {
      const pages = await s.pages.list(owner)
      return Promise.all(
        pages.map(async (page) => {
          const snapshot = await s.pageStatus.snapshot(page.id)
          return { ...statusPageJson(page, s.config), overall: snapshot.overall, open_incidents: snapshot.incidents.map((i) => ({ id: i.id, title: i.title, state: i.state })) }
        }),
      )
    },
  },
  {
    name: 'page_status',
    title: "A page's status",
    description: 'One page now: its overall status, each component with its status, open incidents and maintenance windows not yet over.',
    input: { page_id: id('The status page') },
    readOnly: true,
    async run(owner, args, s) {
      const page = await s.pages.get(owner, args.page_id as number)
      const snapshot = await s.pageStatus.snapshot(page.id)
      return {
        page: statusPageJson(page, s.config),
        overall: snapshot.overall,
        components: snapshot.components.map((c) => ({ id: c.id, name: c.name, group: c.group, status: c.display })),
        open_incidents: snapshot.incidents.map((i) => ({ id: i.id, title: i.title, state: i.state, started_at: new Date(i.startedAt).toISOString() })),
        maintenances: snapshot.maintenances.map((m) => ({ id: m.id, title: m.title, start_at: new Date(m.startAt).toISOString(), end_at: new Date(m.endAt).toISOString() })),
      }
    },
  },
  {
    name: 'report_incident',
    title: 'Report an incident',
    description: 'Opens an incident on a page with a first message (shown on the public page at once).',
    input: {
      page_id: id('The status page'),
      title: z.string().min(1).max(200),
      message: z.string().max(10_000).optional(),
      state: state.optional().describe('Default investigating'),
      component_ids: componentIds,
      notify_subscribers: notify,
    },
    readOnly: false,
    async run(owner, args, s) {
      const { page_id, ...rest } = args
      return incidentJson(await s.incidents.create(owner, { ...rest, status_page_id: page_id as number } as Parameters<IncidentsService['create']>[1]))
    },
  },
  {
    name: 'post_incident_update',
    title: 'Post an incident update',
    description: "Adds a message to an incident's timeline, optionally moving its state.",
    input: { incident_id: id('The incident'), message: z.string().min(1).max(10_000), state: state.optional(), notify_subscribers: notify },
    readOnly: false,
    async run(owner, args, s) {
      const { incident_id, ...rest } = args
      return incidentJson(await s.incidents.addUpdate(owner, incident_id as number, rest as Parameters<IncidentsService['addUpdate']>[2]))
    },
  },
  {
    name: 'resolve_incident',
    title: 'Resolve an incident',
    description: 'Resolves an incident with a closing message.',
    input: { incident_id: id('The incident'), message: z.string().min(1).max(10_000).optional(), notify_subscribers: notify },
    readOnly: false,
    async run(owner, args, s) {
      const { incident_id, message, notify_subscribers } = args as { incident_id: number; message?: string; notify_subscribers?: boolean }
      const closing = message ?? 'This incident has been resolved.'
      return incidentJson(await s.incidents.addUpdate(owner, incident_id, { state: 'resolved', message: closing, notify_subscribers }))
    },
  },
  {
    name: 'schedule_maintenance',
    title: 'Schedule maintenance',
    description: 'Schedules a maintenance window on a page (times in RFC 3339 with an offset).',
    input: {
      page_id: id('The status page'),
      title: z.string().min(1).max(200),
      start_at: z.string().describe('RFC 3339, e.g. 2026-12-01T22:00:00Z'),
      end_at: z.string().describe('RFC 3339, after start_at'),
      message: z.string().max(10_000).optional(),
      component_ids: componentIds,
      notify_subscribers: notify,
    },
    readOnly: false,
    async run(owner, args, s) {
      const { page_id, ...rest } = args
      return maintenanceJson(await s.maintenances.create(owner, { ...rest, status_page_id: page_id as number } as Parameters<MaintenancesService['create']>[1]), s.now())
    },
  },
  {
    name: 'list_monitors',
    title: 'List monitors',
    description: 'Every monitor of the account (or of one page): type, target, state, whether it runs, the last result.',
    input: { page_id: id('Only the monitors of this page').optional() },
    readOnly: true,
    async run(owner, args, s) {
      const monitors = await s.monitors.list(owner)
      const pageId = args.page_id as number | undefined
      return monitors.filter((m) => pageId === undefined || m.pageId === pageId).map((m) => monitorJson(m, s.config.baseUrl))
    },
  },
  {
    name: 'pause_monitor',
    title: 'Pause a monitor',
    description: 'Stops a monitor running until it is resumed (its component keeps its status).',
    input: { monitor_id: id('The monitor') },
    readOnly: false,
    run: async (owner, args, s) => monitorJson(await s.monitors.setEnabled(owner, args.monitor_id as number, false), s.config.baseUrl),
  },
  {
    name: 'resume_monitor',
    title: 'Resume a monitor',
    description: 'Runs a paused monitor again.',
    input: { monitor_id: id('The monitor') },
    readOnly: false,
    run: async (owner, args, s) => monitorJson(await s.monitors.setEnabled(owner, args.monitor_id as number, true), s.config.baseUrl),
  },
  {
    name: 'monitor_results',
    title: "A monitor's recent results",
    description: "A monitor's latest check results, newest first: outcome, response time, status code, message.",
    input: { monitor_id: id('The monitor'), limit: z.number().int().min(1).max(100).optional().describe('Default 20') },
    readOnly: true,
    async run(owner, args, s) {
      const rows = await s.monitors.results(owner, args.monitor_id as number, (args.limit as number | undefined) ?? 20, undefined)
      return rows.map(monitorResultJson)
    },
  },
]

/** A tool's answer as MCP content: the JSON, or the refusal in words (someone else's id, a bad value). */
export async function callTool(tool: Tool, owner: Owner, args: Record<string, unknown>, s: ToolServices): Promise<{ content: Array<{ type: 'text'; text: string }>; isError?: boolean }> {
  try {
    return { content: [{ type: 'text', text: JSON.stringify(await tool.run(owner, args, s)) }] }
  } catch (error) {
    if (error instanceof HttpError) return { content: [{ type: 'text', text: `${error.status === 404 ? 'Not found' : 'Refused'}: ${error.message}` }], isError: true }
    throw error
  }
}
