/**
 * The one cache key of each hot status-host read, from its path (and query) and the page the host
 * route named. The service fills the public cache under these keys and the fast lane
 * (site-fast-lane.ts) reads them: one function, so the two can never disagree.
 */
import { STATUS_API_DOCUMENTS, type StatusApiDocument } from './statuspage-api.ts'
import { choiceKey, visitorChoice, type PageDefaults, type VisitorChoice } from './visitor.ts'

/** The HTML pages are kept once per language and zone a visitor reads them in (visitor.ts). */
export const pageKey = (pageId: number, choice: VisitorChoice): string => `pp:html:${pageId}:${choiceKey(choice)}`
/** Only the first archive page (no cursor) is ever cached. */
export const historyKey = (pageId: number, before: number | undefined, choice: VisitorChoice): string => `pp:history:${pageId}:${before ?? ''}:${choiceKey(choice)}`
export const incidentKey = (pageId: number, id: number, choice: VisitorChoice): string => `pp:incident:${pageId}:${id}:${choiceKey(choice)}`
export const feedKey = (pageId: number, format: 'rss' | 'atom'): string => `pp:feed:${format}:${pageId}`
export const calendarKey = (pageId: number): string => `pp:ics:${pageId}`
export const statusApiKey = (pageId: number, document: StatusApiDocument): string => `pp:v2:${document}:${pageId}`

const DOCUMENTS = new Set<string>(STATUS_API_DOCUMENTS)

/**
 * The key of a read the public cache may hold for this path, or undefined (any other path, or a
 * query that changes the answer: an archive cursor). Other queries are ignored, as the routes do;
 * the HTML pages key on the visitor's language and zone (`?lang=`, `?tz=`, Accept-Language).
 */
export function readKey(path: string, query: string, page: PageDefaults & { pageId: number }, acceptLanguage: string | null): string | undefined {
  const pageId = page.pageId
  switch (path) {
    case '/':
      return pageKey(pageId, visitorChoice(query, acceptLanguage, page))
    case '/history':
      return /(^|&)before=/.test(query) ? undefined : historyKey(pageId, undefined, visitorChoice(query, acceptLanguage, page))
    case '/history.rss':
      return feedKey(pageId, 'rss')
    case '/history.atom':
      return feedKey(pageId, 'atom')
    case '/maintenance.ics':
      return calendarKey(pageId)
  }
  if (path.startsWith('/api/v2/') && path.endsWith('.json')) {
    const document = path.slice('/api/v2/'.length, -'.json'.length)
    if (DOCUMENTS.has(document)) return statusApiKey(pageId, document as StatusApiDocument)
  }
  return undefined
}
