/**
 * Vendor components: a component that follows a third party's public Statuspage-v2 summary. The
 * owner names the URL (and optionally one of the vendor's components); a leader-only job reads each
 * feed every VENDOR_POLL_MS through the address guard. A good read sets the component's status
 * through the components service (history, subscribers and channels as for any change); a dead or
 * malformed feed makes the feed "unknown" and leaves the status alone, and the status pipeline
 * does not count an unknown component in the page's overall status.
 */
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { Clock } from '../../lib/clock.ts'
import { badRequest, notFound } from '../../lib/errors.ts'
import type { AddressGuard } from '../../lib/address-guard.ts'
import type { Owner } from '../accounts/service.ts'
import type { ComponentsService } from '../components/service.ts'
import type { VendorFeedRow, VendorFeedsRepo } from './repo.ts'
import { statusFromSummary, type SummaryRead, type VendorIncident } from './summary.ts'
import type { VendorFeedState } from './tables.ts'

/** How often a feed is read. */
export const VENDOR_POLL_MS = 3 * 60_000
/** How often the job looks for due feeds. */
export const VENDOR_SWEEP_MS = 30_000
/** Feeds read per sweep at most (the rest on the next one), and at once. */
const SWEEP_BATCH = 50
const AT_ONCE = 4
export const MAX_VENDOR_URL = 2048
export const MAX_VENDOR_COMPONENT = 200
/** Where Statuspage pages publish their summary, added to a bare page address. */
export const SUMMARY_PATH = '/api/v2/summary.json'

export interface VendorFeed {
  componentId: number
  url: string
  vendorComponent: string | null
  state: VendorFeedState
  reason: string | null
  vendorName: string | null
  incidents: VendorIncident[]
  checkedAt: number | null
  nextCheckAt: number
}

export interface VendorFeedInput {
  url: string
  vendor_component?: string | null
}

export interface VendorFeedsDeps {
  repo: VendorFeedsRepo
  components: Pick<ComponentsService, 'get' | 'applyFeedStatus'>
  guard: Pick<AddressGuard, 'refusesLiteral'>
  read: (url: string) => Promise<SummaryRead>
  clock: Clock
  changes: Pick<ChangeFeed, 'pageChanged'>
}

export function toFeed(row: VendorFeedRow): VendorFeed {
  let incidents: VendorIncident[] = []
  try {
    incidents = JSON.parse(row.incidents_json) as VendorIncident[]
  } catch {}
  return {
    componentId: row.component_id,
    url: row.url,
    vendorComponent: row.vendor_component,
    state: row.state,
    reason: row.reason,
    vendorName: row.vendor_name,
    incidents,
    checkedAt: row.checked_at,
    nextCheckAt: row.next_check_at,
  }
}

/** The summary's URL from what the owner typed: http(s), no credentials, a bare page address gets the summary path. */
export function parseFeedUrl(input: string, guard: Pick<AddressGuard, 'refusesLiteral'>): string {
  const trimmed = input.trim()
  if (trimmed.length === 0 || trimmed.length > MAX_VENDOR_URL) throw badRequest(`url must be 1 to ${MAX_VENDOR_URL} characters`)
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    throw badRequest('url must be a full http:// or https:// address')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('url must be a full http:// or https:// address')
  if (url.username || url.password) throw badRequest('url must not carry a user name or password')
  const refusal = guard.refusesLiteral(url.hostname)
  if (refusal) throw badRequest(`url: ${refusal}`)
  if (url.pathname === '/' || url.pathname === '') url.pathname = SUMMARY_PATH
  url.hash = ''
  return url.toString()
}

export class VendorFeedsService {
  constructor(private readonly deps: VendorFeedsDeps) {}

  async get(owner: Owner, componentId: number): Promise<VendorFeed> {
    await this.deps.components.get(owner, componentId)
    const row = await this.deps.repo.find(componentId)
    if (!row) throw notFound('this component follows no vendor feed')
    return toFeed(row)
  }

  /** Follows a feed (or another one) and reads it at once, so the answer says what it found. */
  async set(owner: Owner, componentId: number, input: VendorFeedInput): Promise<VendorFeed> {
    const component = await this.deps.components.get(owner, componentId)
    const url = parseFeedUrl(input.url, this.deps.guard)
    let vendorComponent: string | null = null
    if (input.vendor_component !== undefined && input.vendor_component !== null) {
      vendorComponent = input.vendor_component.trim()
      if (vendorComponent.length > MAX_VENDOR_COMPONENT) throw badRequest(`vendor_component must be at most ${MAX_VENDOR_COMPONENT} characters`)
      if (vendorComponent.length === 0) vendorComponent = null
    }
    const now = this.deps.clock.now()
    await this.deps.repo.save({ component_id: component.id, page_id: component.pageId, url, vendor_component: vendorComponent }, now)
    if (await this.deps.repo.claim(component.id, now, now + VENDOR_POLL_MS)) await this.readOne((await this.deps.repo.find(component.id))!)
    this.deps.changes.pageChanged(component.pageId)
    return toFeed((await this.deps.repo.find(component.id))!)
  }

  /** Stops following; the component keeps its last status, for the owner to set. */
  async remove(owner: Owner, componentId: number): Promise<void> {
    const component = await this.deps.components.get(owner, componentId)
    if (!(await this.deps.repo.delete(componentId))) throw notFound('this component follows no vendor feed')
    this.deps.changes.pageChanged(component.pageId)
  }

  /** The feeds of a page, for its public page (no ownership check: what visitors see). */
  async ofPage(pageId: number): Promise<Map<number, VendorFeed>> {
    return new Map((await this.deps.repo.ofPage(pageId)).map((row) => [row.component_id, toFeed(row)]))
  }

  /** Reads the feeds that are due (the job); answers how many were read here. */
  async pollDue(): Promise<number> {
    const now = this.deps.clock.now()
    const due = await this.deps.repo.due(now, SWEEP_BATCH)
    const mine: VendorFeedRow[] = []
    for (const row of due) if (await this.deps.repo.claim(row.component_id, row.next_check_at, now + VENDOR_POLL_MS)) mine.push(row)
    for (let i = 0; i < mine.length; i += AT_ONCE) await Promise.all(mine.slice(i, i + AT_ONCE).map((row) => this.readOne(row)))
    return mine.length
  }

  private async readOne(row: VendorFeedRow): Promise<void> {
    const read = await this.deps.read(row.url)
    const now = this.deps.clock.now()
    const found = read.ok ? statusFromSummary(read.summary, row.vendor_component) : { reason: read.reason }
    if (read.ok && 'status' in found) {
      const incidentsJson = JSON.stringify(read.summary.incidents)
      await this.deps.repo.record(row.component_id, { state: 'ok', reason: null, vendorName: read.summary.pageName, incidentsJson }, now)
      const moved = await this.deps.components.applyFeedStatus(row.component_id, found.status)
      if (!moved && (row.state !== 'ok' || row.incidents_json !== incidentsJson || row.vendor_name !== read.summary.pageName)) this.deps.changes.pageChanged(row.page_id)
      return
    }
    await this.deps.repo.record(row.component_id, { state: 'unknown', reason: 'reason' in found ? found.reason : 'unreadable' }, now)
    if (row.state !== 'unknown') this.deps.changes.pageChanged(row.page_id)
  }
}
