/**
 * A component's vendor status page (view in views/vendor-feed.ts), on the methods the API routes
 * call (VendorFeedsService) and the API's own body schema (VendorFeedBody).
 *
 *   GET  /user/pages/:id/components/:cid/vendor-feed          the feed and the form
 *   POST /user/pages/:id/components/:cid/vendor-feed          follow and read now (PUT …/vendor-feed)
 *   POST /user/pages/:id/components/:cid/vendor-feed/remove   stop following (DELETE …/vendor-feed)
 */
import { Elysia, t } from 'elysia'
import { HttpError } from '../../lib/errors.ts'
import type { Owner } from '../../modules/accounts/service.ts'
import type { Component } from '../../modules/components/service.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { VendorFeedBody } from '../../modules/vendor-feeds/model.ts'
import type { VendorFeed } from '../../modules/vendor-feeds/service.ts'
import { emptyForm, errorStatus, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { screens, type ScreenContext } from '../kit/guard.ts'
import { componentsCrumbs } from '../views/components.ts'
import { vendorFeedPath, vendorFeedView } from '../views/vendor-feed.ts'
import { loadPageAndComponent } from './components.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const ComponentPath = t.Object({ id: t.String(), cid: t.String() })

export function vendorFeedScreens(deps: ScreenDeps<'accounts' | 'pages' | 'components' | 'vendorFeeds'>) {
  const { services, config } = deps
  const { vendorFeeds } = services
  const screen = screens({ accounts: services.accounts, config })

  async function currentFeed(user: Owner, component: Component): Promise<VendorFeed | undefined> {
    try {
      return await vendorFeeds.get(user, component.id)
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) return undefined
      throw error
    }
  }

  async function show(user: Owner, page: StatusPage, component: Component, render: ScreenContext['render'], form?: FormState, status = 200) {
    const feed = await currentFeed(user, component)
    const state = form ?? emptyForm({ url: feed?.url ?? '', vendor_component: feed?.vendorComponent ?? '' })
    return render({ title: `Vendor status: ${component.name}`, crumbs: componentsCrumbs(page, `Vendor status: ${component.name}`) }, vendorFeedView(page, component, feed, state), status)
  }

  return new Elysia()
    .get(
      '/user/pages/:id/components/:cid/vendor-feed',
      screen(async ({ user, params, render }) => {
        const { page, component } = await loadPageAndComponent(services, user, params)
        return show(user, page, component, render)
      }),
      { params: ComponentPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail("A component's vendor status page") },
    )
    .post(
      '/user/pages/:id/components/:cid/vendor-feed',
      screen(async ({ user, params, body, render, redirect }) => {
        const { page, component } = await loadPageAndComponent(services, user, params)
        const form = readForm(VendorFeedBody, body)
        if (!form.ok) return show(user, page, component, render, form.state, 400)
        try {
          const feed = await vendorFeeds.set(user, component.id, form.value)
          const said = feed.state === 'ok' ? `${component.name} follows ${feed.vendorName ?? 'the provider'}.` : `${component.name} follows the address, but it cannot be read yet: ${feed.reason ?? 'no answer'}.`
          return redirect(vendorFeedPath(component), said)
        } catch (error) {
          return show(user, page, component, render, serviceErrorState(error, form.state), errorStatus(error))
        }
      }),
      { params: ComponentPath, response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Follow a vendor status page (form post)') },
    )
    .post(
      '/user/pages/:id/components/:cid/vendor-feed/remove',
      screen(async ({ user, params, redirect }) => {
        const { page, component } = await loadPageAndComponent(services, user, params)
        await vendorFeeds.remove(user, component.id)
        return redirect(`/user/pages/${page.id}/components/${component.id}`, `${component.name} no longer follows a vendor status page.`)
      }),
      { params: ComponentPath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Stop following a vendor status page (form post)') },
    )
}
