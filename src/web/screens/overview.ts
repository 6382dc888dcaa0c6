/**
 * The panels a page's overview shows under its summary, in order (Incidents with the "Report an
 * incident" form, Maintenance at a glance, …). A screen module adds its panel here in one line.
 */
import type { Owner } from '../../modules/accounts/service.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import type { OverviewServices, ScreenDeps } from './deps.ts'
import { overviewIncidentsPanel } from './incidents.ts'
import { overviewMaintenancePanel } from './maintenances.ts'

export interface OverviewPanel {
  render(deps: ScreenDeps<OverviewServices>, user: Owner, page: StatusPage, request: Request): Promise<string>
  /** Stylesheets the panel needs (safe head tags). */
  head?: string
  /** Scripts the panel needs (paths on our origin). */
  scripts?: string[]
}

const INCIDENT_STYLES = '<link rel="stylesheet" href="/static/user/incidents.css">'

export const OVERVIEW_PANELS: OverviewPanel[] = [
  { render: overviewIncidentsPanel, head: INCIDENT_STYLES, scripts: ['/static/user/when.js'] },
  { render: overviewMaintenancePanel, head: INCIDENT_STYLES },
]

/** Every panel of the page's overview, with the head tags and scripts they need (each once). */
export async function overviewPanels(deps: ScreenDeps<OverviewServices>, user: Owner, page: StatusPage, request: Request): Promise<{ body: string; head: string; scripts: string[] }> {
  const bodies = await Promise.all(OVERVIEW_PANELS.map((panel) => panel.render(deps, user, page, request)))
  const head = [...new Set(OVERVIEW_PANELS.map((panel) => panel.head ?? ''))].join('')
  const scripts = [...new Set(OVERVIEW_PANELS.flatMap((panel) => panel.scripts ?? []))]
  return { body: bodies.join('\n'), head, scripts }
}
