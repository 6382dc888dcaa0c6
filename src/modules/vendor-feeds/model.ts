/** The vendor feed API's schemas. */
import { t, type Static } from 'elysia'
import { namedModels } from '../../http/schemas.ts'
import { toIsoOrNull } from '../../lib/time.ts'
import { MAX_VENDOR_COMPONENT, MAX_VENDOR_URL, type VendorFeed } from './service.ts'

export const VendorFeedBody = t.Object({
  url: t.String({
    description: "The vendor's Statuspage-v2 summary (https://www.githubstatus.com/api/v2/summary.json); a bare page address gets /api/v2/summary.json added",
    maxLength: MAX_VENDOR_URL,
    error: `url must be a full http:// or https:// address of at most ${MAX_VENDOR_URL} characters`,
  }),
  vendor_component: t.Optional(
    t.Nullable(
      t.String({
        description: "One of the vendor's components, by id or name; absent or null follows the vendor's whole page",
        maxLength: MAX_VENDOR_COMPONENT,
        error: `vendor_component must be text of at most ${MAX_VENDOR_COMPONENT} characters`,
      }),
    ),
  ),
})

const VendorFeedJson = t.Object({
  component_id: t.Integer(),
  url: t.String(),
  vendor_component: t.Union([t.String(), t.Null()]),
  state: t.Union([t.Literal('pending'), t.Literal('ok'), t.Literal('unknown')], {
    description: 'pending until the first read; ok when the last read was a summary; unknown when it was not (the status is left alone)',
  }),
  reason: t.Union([t.String(), t.Null()], { description: 'Why the last read failed' }),
  vendor_name: t.Union([t.String(), t.Null()], { description: "The vendor page's name, from the last good read" }),
  incidents: t.Array(t.Object({ name: t.String(), status: t.String(), impact: t.String(), url: t.Union([t.String(), t.Null()]) }), {
    description: "The vendor's unresolved incidents at the last good read",
  }),
  checked_at: t.Union([t.String(), t.Null()], { description: 'The last read (RFC 3339)' }),
  next_check_at: t.String({ description: 'The next read (RFC 3339)' }),
})

export const vendorFeedModels = namedModels({ VendorFeed: VendorFeedJson })

export function vendorFeedJson(feed: VendorFeed): Static<typeof VendorFeedJson> {
  return {
    component_id: feed.componentId,
    url: feed.url,
    vendor_component: feed.vendorComponent,
    state: feed.state,
    reason: feed.reason,
    vendor_name: feed.vendorName,
    incidents: feed.incidents,
    checked_at: toIsoOrNull(feed.checkedAt),
    next_check_at: new Date(feed.nextCheckAt).toISOString(),
  }
}
