/**
 * RSS 2.0 and Atom feeds of a page's incidents and maintenance windows (pure). Messages are Markdown,
 * rendered by the safe renderer to HTML that is then escaped as XML by `ghtml` (numeric character
 * references are valid XML); control characters, which XML forbids, never reach here (titles and
 * messages refuse them).
 */
import { escapeHtml, html } from '../../lib/html.ts'
import { renderSafeMarkdown } from '../../lib/safe-markdown.ts'
import { toIso } from '../../lib/time.ts'
import type { IncidentState } from '../incidents/tables.ts'
import { maintenancePhase, type MaintenancePhase } from '../status-pipeline/windows.ts'
import type { MaintenanceUpdateStatus } from '../maintenances/service.ts'
import type { PublicIncident, PublicMaintenance } from './events.ts'
import { formatDateTime } from './render/shared.ts'

export interface FeedInput {
  name: string
  url: string
  incidents: PublicIncident[]
  maintenances: PublicMaintenance[]
  now: number
  /** The feed's date when it has no entries: the page's last change, so an unchanged feed keeps its bytes and ETag. */
  pageUpdatedAt: number
}

interface Item {
  id: string
  title: string
  link: string
  published: number
  updated: number
  /** The entry's body as safe HTML. */
  body: string
}

const STATE_TITLES: Readonly<Record<IncidentState, string>> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
}

const PHASE_TITLES: Readonly<Record<MaintenancePhase, string>> = {
  scheduled: 'Scheduled maintenance',
  in_progress: 'Maintenance in progress',
  completed: 'Maintenance completed',
}

const UPDATE_TITLES: Readonly<Record<MaintenanceUpdateStatus, string>> = { ...PHASE_TITLES, verifying: 'Maintenance verifying' }

/**
 * One item per incident update, each with its own id (the incident's URL and `#update-<id>`):
 * readers show an item once, so a resolution posted as one more update must be an item of its own.
 */
function items(input: FeedInput): Item[] {
  const list: Item[] = input.incidents.flatMap((incident) =>
    [...incident.updates].reverse().map((u) => ({
      id: `${input.url}/incidents/${incident.id}#update-${u.id}`,
      title: `[${STATE_TITLES[u.state]}] ${incident.title}`,
      link: `${input.url}/incidents/${incident.id}`,
      published: u.at,
      updated: u.at,
      body: u.message.trim() ? renderSafeMarkdown(u.message) : `<p>${STATE_TITLES[u.state]}</p>`,
    })),
  )
  // A published postmortem is an item of its own (an edit after publishing keeps its id and date).
  for (const incident of input.incidents) {
    const postmortem = incident.postmortem
    if (!postmortem || postmortem.publishedAt === null) continue
    list.push({
      id: `${input.url}/incidents/${incident.id}#postmortem`,
      title: `[Postmortem] ${incident.title}`,
      link: `${input.url}/incidents/${incident.id}#postmortem`,
      published: postmortem.publishedAt,
      updated: postmortem.publishedAt,
      body: renderSafeMarkdown(postmortem.body),
    })
  }
  for (const m of input.maintenances) {
    const phase = PHASE_TITLES[maintenancePhase(m, input.now)]
    list.push({
      id: `${input.url}/maintenance/${m.id}`,
      title: `[${phase}] ${m.title}`,
      link: `${input.url}/#maintenance`,
      published: m.createdAt,
      updated: m.updatedAt,
      body: `<p>${escapeHtml(`${formatDateTime(m.startAt)} to ${formatDateTime(m.endAt)}`)}</p>\n${renderSafeMarkdown(m.message)}`,
    })
    // Each update the owner posted is an item of its own, as an incident's are.
    for (const u of m.updates) {
      list.push({
        id: `${input.url}/maintenance/${m.id}#update-${u.id}`,
        title: `[${UPDATE_TITLES[u.status]}] ${m.title}`,
        link: `${input.url}/#maintenance`,
        published: u.at,
        updated: u.at,
        body: renderSafeMarkdown(u.message),
      })
    }
  }
  return list.sort((a, b) => b.updated - a.updated).slice(0, 50)
}

const rfc822 = (ms: number) => new Date(ms).toUTCString()

export function renderRss(input: FeedInput): string {
  const entries = items(input)
  return html`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>${input.name} status</title>
<link>${input.url}</link>
<description>Incidents and maintenance of ${input.name}</description>
<atom:link href="${input.url}/history.rss" rel="self" type="application/rss+xml"/>
<lastBuildDate>${rfc822(entries[0]?.updated ?? input.pageUpdatedAt)}</lastBuildDate>
!${entries
    .map(
      (item) => html`<item>
<title>${item.title}</title>
<link>${item.link}</link>
<guid isPermaLink="false">${item.id}</guid>
<pubDate>${rfc822(item.updated)}</pubDate>
<description>${item.body}</description>
</item>
`,
    )
    .join('')}</channel>
</rss>
`
}

export function renderAtom(input: FeedInput): string {
  const entries = items(input)
  return html`<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>${input.url}/history.atom</id>
<title>${input.name} status</title>
<link href="${input.url}"/>
<link rel="self" href="${input.url}/history.atom"/>
<updated>${toIso(entries[0]?.updated ?? input.pageUpdatedAt)}</updated>
<author><name>${input.name}</name></author>
!${entries
    .map(
      (item) => html`<entry>
<id>${item.id}</id>
<title type="text">${item.title}</title>
<link href="${item.link}"/>
<published>${toIso(item.published)}</published>
<updated>${toIso(item.updated)}</updated>
<content type="html">${item.body}</content>
</entry>
`,
    )
    .join('')}</feed>
`
}
