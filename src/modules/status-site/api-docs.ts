/**
 * How the machine-read routes of the status hosts (Statuspage JSON, feeds) appear in the OpenAPI
 * document (src/http/openapi.ts): their answers, and the `auth_token` a private page takes.
 */
import type { DocumentDecoration } from 'elysia'

/** Elysia types `detail` as OpenAPI 3.0; these objects are 3.1 (`const`, `examples`). */
const asDetail = (detail: Record<string, unknown>) => detail as unknown as DocumentDecoration

const ERROR = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } }

/** The `page` object every Statuspage v2 document starts with. */
const STATUSPAGE_PAGE = {
  type: 'object',
  required: ['id', 'name', 'url', 'time_zone', 'updated_at'],
  properties: {
    id: { type: 'string', description: "The page's slug", examples: ['acme'] },
    name: { type: 'string', examples: ['Acme'] },
    url: { type: 'string', examples: ['https://acme.status.example.com'] },
    time_zone: { type: 'string', const: 'Etc/UTC' },
    updated_at: { type: 'string', description: 'RFC 3339' },
  },
}

/** The answers of a machine-read route: the document (or feed), a private page without access, no page there, a blocked page. */
function answers(ok: Record<string, unknown>) {
  return {
    200: ok,
    401: { description: 'The page is private: sign in on the page (its session cookie) or pass `auth_token`', content: ERROR },
    404: { description: 'No status page at this host: the HTML not-found page of the status site', content: { 'text/html': { schema: { type: 'string' } } } },
    503: { description: 'The page is blocked by the instance admin', content: ERROR },
  }
}

const AUTH_TOKEN = {
  name: 'auth_token',
  in: 'query',
  required: false,
  description: "A private page's read-only embed token (public pages need none)",
  schema: { type: 'string' },
}

const WHO = 'Public pages: no credentials. Private pages: the session of the page (after its password) or `auth_token`.'

/** `detail` of `/api/v2/<document>.json`. */
export const statuspageDocumentDetail = (document: string) =>
  asDetail({
    tags: ['Status host'],
    summary: `Statuspage-compatible ${document}.json`,
    description: `The page in the shape of Atlassian Statuspage's public API v2, so tools and widgets written for it read it unchanged (ids are strings there). ${WHO}`,
    parameters: [AUTH_TOKEN],
    responses: answers({
      description: `The ${document}.json document`,
      content: { 'application/json': { schema: { type: 'object', required: ['page'], properties: { page: STATUSPAGE_PAGE } } } },
    }),
  })

/** `detail` of `/history.rss` and `/history.atom`. */
export const feedDetail = (kind: 'rss' | 'atom') =>
  asDetail({
    tags: ['Status host'],
    summary: `Incidents and maintenance as an ${kind === 'rss' ? 'RSS 2.0' : 'Atom 1.0'} feed`,
    description: `Newest first. ${WHO}`,
    parameters: [AUTH_TOKEN],
    responses: answers({
      description: kind === 'rss' ? 'RSS 2.0 feed' : 'Atom 1.0 feed',
      content: { [kind === 'rss' ? 'application/rss+xml' : 'application/atom+xml']: { schema: { type: 'string' } } },
    }),
  })

/** `detail` of `/maintenance.ics`. */
export const calendarDetail = asDetail({
  tags: ['Status host'],
  summary: 'Maintenance as an iCalendar feed to subscribe to',
  description: `One event per recurring maintenance (RRULE, EXDATE, times in its IANA zone by TZID) and per one-off window (UTC). UIDs are stable; SEQUENCE rises with every change; a cancelled recurring maintenance, and a deleted one-off window, are STATUS:CANCELLED with a higher SEQUENCE for 30 days past the later of their end and their cancellation (a recurring maintenance without an end stays). ${WHO}`,
  parameters: [AUTH_TOKEN],
  responses: answers({ description: 'iCalendar (RFC 5545)', content: { 'text/calendar': { schema: { type: 'string' } } } }),
})
