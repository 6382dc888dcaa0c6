/**
 * The vendor feed API (owner by API key or session): a component that follows a third party's
 * public Statuspage-v2 summary.
 *
 *   GET | PUT | DELETE  /user/api/v1/components/:id/vendor-feed
 */
import { Elysia, t } from 'elysia'
import { errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { VendorFeedBody, vendorFeedJson, vendorFeedModels } from './model.ts'
import type { VendorFeedsService } from './service.ts'

const detail = (summary: string, description: string) => ({ tags: ['Components'], summary, description, security: apiKeySecurity })

export function vendorFeedRoutes(deps: { accounts: AccountsService; vendorFeeds: VendorFeedsService }) {
  const { vendorFeeds } = deps
  return new Elysia({ prefix: '/user/api/v1' })
    .model(sharedModels)
    .model(vendorFeedModels)
    .use(ownerAuth(deps.accounts))
    .get('/components/:id/vendor-feed', async ({ owner, params }) => ({ data: vendorFeedJson(await vendorFeeds.get(owner, params.id)) }), {
      params: IdParams,
      response: { 200: t.Object({ data: vendorFeedModels.VendorFeed }), ...errorResponses },
      detail: detail("A component's vendor feed", 'The feed the component follows, its state, the last and next read, and the vendor incidents it found. 404 when it follows none.'),
    })
    .put('/components/:id/vendor-feed', async ({ owner, params, body }) => ({ data: vendorFeedJson(await vendorFeeds.set(owner, params.id, body)) }), {
      params: IdParams,
      body: VendorFeedBody,
      response: { 200: t.Object({ data: vendorFeedModels.VendorFeed }), ...errorResponses },
      detail: detail(
        'Follow a vendor status page',
        "The component takes its status from a third party's public Statuspage-v2 summary, read at once and then every 3 minutes through the address guard: the named vendor component's status (operational → operational, degraded performance → degraded, partial outage → partial outage, major outage → down, under maintenance → operational), or without one the vendor page's indicator. A feed that cannot be read is `unknown`: the status is left alone and the public page says so, never an outage of yours. A status set by hand stays until cleared, as with monitors.",
      ),
    })
    .delete(
      '/components/:id/vendor-feed',
      async ({ owner, params }) => {
        await vendorFeeds.remove(owner, params.id)
        return { data: { deleted: true } }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Object({ deleted: t.Boolean() }) }), ...errorResponses },
        detail: detail('Stop following a vendor status page', 'The component keeps its last status, for you to set.'),
      },
    )
}
