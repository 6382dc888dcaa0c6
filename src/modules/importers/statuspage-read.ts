/**
 * Reads one Atlassian Statuspage page: over its REST API v1 (`Authorization: OAuth KEY`), or from a
 * folder of saved answers named as in the fixtures (pages.json, components.json, …). Lists are
 * fetched page by page (`page`/`per_page`) until a short page; a 420 or 429 answer waits its
 * Retry-After (bounded, through the injected sleep) and asks again. Requests go only to the
 * configured base URL: redirects are refused. An answer that is not Statuspage's is a clear error.
 */
import { badRequest } from '../../lib/errors.ts'

type Obj = Record<string, unknown>

export interface StatuspageData {
  page: Obj
  /** Groups appear here too, as pseudo-components with `group: true`. */
  components: Obj[]
  groups: Obj[]
  /** Realtime incidents and scheduled maintenance, mixed, as the API lists them. */
  incidents: Obj[]
  subscribers: Obj[]
}

export const DEFAULT_STATUSPAGE_URL = 'https://api.statuspage.io'
/** The API's own largest page. */
const PER_PAGE = 100
/** Far more than any page has; a server that ignores `page` cannot keep the import looping. */
const MAX_PAGES = 1000
const MAX_RATE_LIMIT_WAITS = 5
const MAX_WAIT_MS = 60_000

export interface StatuspageFetchOptions {
  pageId: string
  apiKey: string
  baseUrl?: string
  perPage?: number
  fetch?: typeof fetch
  /** Waits between rate-limited attempts (tests pass one that returns at once). */
  sleep?: (ms: number) => Promise<void>
  /** For a Retry-After given as a date. */
  now?: () => number
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Seconds (or an HTTP date) of a Retry-After header as a bounded wait; 1 s when absent. */
export function retryAfterMs(header: string | null, now: number): number {
  if (!header) return 1000
  const seconds = Number(header)
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now
  return Math.min(MAX_WAIT_MS, Math.max(0, Number.isFinite(ms) ? ms : 1000))
}

export async function fetchStatuspage(options: StatuspageFetchOptions): Promise<StatuspageData> {
  const pageId = options.pageId.trim()
  if (!/^[a-z0-9]{1,64}$/i.test(pageId)) throw badRequest('page id must be the letters and digits of a Statuspage page id')
  if (!options.apiKey.trim()) throw badRequest('api key is required')
  let base: URL
  try {
    base = new URL(options.baseUrl ?? DEFAULT_STATUSPAGE_URL)
  } catch {
    throw badRequest(`base url ${options.baseUrl} is not a URL`)
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw badRequest('base url must be http(s)')
  const doFetch = options.fetch ?? fetch
  const sleep = options.sleep ?? realSleep
  const now = options.now ?? (() => Date.now())
  const perPage = options.perPage ?? PER_PAGE
  const root = `${base.origin}${base.pathname.replace(/\/+$/, '')}/v1/pages/${pageId}`

  const get = async (path: string): Promise<unknown> => {
    const url = `${root}${path}`
    for (let waits = 0; ; waits++) {
      let response: Response
      try {
        response = await doFetch(url, { headers: { Authorization: `OAuth ${options.apiKey}`, Accept: 'application/json' }, redirect: 'error' })
      } catch (error) {
        throw badRequest(`cannot reach Statuspage at ${base.origin}: ${error instanceof Error ? error.message : String(error)}`)
      }
      if (response.status === 420 || response.status === 429) {
        await response.body?.cancel()
        if (waits >= MAX_RATE_LIMIT_WAITS) throw badRequest(`Statuspage kept answering ${response.status} (rate limited) for ${path || '/'}; try again later`)
        await sleep(retryAfterMs(response.headers.get('retry-after'), now()))
        continue
      }
      const text = await response.text()
      if (response.status === 401 || response.status === 403) throw badRequest(`Statuspage refused the API key (${response.status}) for page ${pageId}`)
      if (response.status === 404) throw badRequest(`Statuspage has no page ${pageId} (404 for ${path || '/'})`)
      if (!response.ok) throw badRequest(`Statuspage answered ${response.status} for ${path || '/'}`)
      try {
        return JSON.parse(text)
      } catch {
        throw badRequest(`the answer for ${path || '/'} is not JSON: is ${base.origin} the Statuspage API?`)
      }
    }
  }

  const all = async (path: string): Promise<unknown[]> => {
    const items: unknown[] = []
    const seen = new Set<string>()
    for (let page = 1; page <= MAX_PAGES; page++) {
      const batch = await get(`${path}?page=${page}&per_page=${perPage}`)
      if (!Array.isArray(batch)) throw foreign(path, 'a list')
      const fresh = batch.filter((item) => {
        const id = (item as Obj | null)?.id
        if (typeof id !== 'string' || seen.has(id)) return false
        seen.add(id)
        return true
      })
      items.push(...fresh)
      // A short page is the last; so is one that brought nothing new (paging not honoured).
      if (batch.length < perPage || fresh.length === 0) break
    }
    return items
  }

  const page = await get('')
  const components = await all('/components')
  const groups = await all('/component-groups')
  const incidents = await all('/incidents')
  const scheduled = await all('/incidents/scheduled')
  const subscribers = await all('/subscribers')
  return checked({ page, components, groups, incidents: mergeById(incidents, scheduled), subscribers })
}

/** A folder of saved answers, one file per route (the fixture names). */
export async function readStatuspageFolder(folder: string): Promise<StatuspageData> {
  const read = async (name: string, required: boolean): Promise<unknown> => {
    const file = Bun.file(`${folder.replace(/\/+$/, '')}/${name}`)
    if (!(await file.exists())) {
      if (required) throw badRequest(`${folder} has no ${name}: is it a folder of saved Statuspage answers?`)
      return []
    }
    try {
      return JSON.parse(await file.text())
    } catch {
      throw badRequest(`${folder}/${name} is not JSON (damaged?)`)
    }
  }
  const page = await read('pages.json', true)
  const components = await read('components.json', true)
  const groups = await read('component-groups.json', false)
  const incidents = await read('incidents.json', true)
  const scheduled = await read('incidents-scheduled.json', false)
  const subscribers = await read('subscribers.json', false)
  if (!Array.isArray(incidents) || !Array.isArray(scheduled)) throw foreign('incidents', 'a list')
  return checked({ page, components, groups, incidents: mergeById(incidents, scheduled), subscribers })
}

const foreign = (what: string, expected: string) => badRequest(`not a Statuspage answer: ${what} should be ${expected}`)

function mergeById(a: unknown[], b: unknown[]): unknown[] {
  const ids = new Set(a.map((item) => (item as Obj | null)?.id))
  return [...a, ...b.filter((item) => !ids.has((item as Obj | null)?.id))]
}

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v)
const hasIdName = (v: unknown): v is Obj => isObj(v) && typeof v.id === 'string' && typeof v.name === 'string'

/** The shapes the mapper relies on; anything else is someone else's JSON. */
function checked(raw: { page: unknown; components: unknown; groups: unknown; incidents: unknown[]; subscribers: unknown }): StatuspageData {
  if (!hasIdName(raw.page)) throw foreign('the page', 'an object with an id and a name')
  const list = (value: unknown, what: string, ok: (v: unknown) => boolean, expected: string): Obj[] => {
    if (!Array.isArray(value)) throw foreign(what, 'a list')
    const bad = value.findIndex((item) => !ok(item))
    if (bad >= 0) throw foreign(`${what} #${bad + 1}`, expected)
    return value as Obj[]
  }
  return {
    page: raw.page,
    components: list(raw.components, 'components', (c) => hasIdName(c) && typeof (c as Obj).status === 'string', 'a component with an id, a name and a status'),
    groups: list(raw.groups, 'component groups', hasIdName, 'a group with an id and a name'),
    incidents: list(raw.incidents, 'incidents', (i) => hasIdName(i) && typeof (i as Obj).status === 'string' && Array.isArray((i as Obj).incident_updates), 'an incident with an id, a name, a status and incident_updates'),
    subscribers: list(raw.subscribers, 'subscribers', (s) => isObj(s) && typeof s.id === 'string' && typeof s.mode === 'string', 'a subscriber with an id and a mode'),
  }
}
