/**
 * The Embed section of a page: what /embed/preview shows (PreviewService.forPage, the same snippets
 * builder and plan check), for the page's owner.
 *
 *   GET /user/pages/:id/embed
 */
import { Elysia, t } from 'elysia'
import { idParam, screens } from '../kit/guard.ts'
import { pageCrumbs } from '../views/pages.ts'
import { embedView } from '../views/embed.ts'
import type { ScreenDeps } from './deps.ts'

const HEAD = '<link rel="stylesheet" href="/static/user/branding.css">'
const SCRIPTS = ['/static/user/branding.js']

export function embedSection(deps: ScreenDeps<'accounts' | 'pages' | 'preview'>) {
  const { services, config } = deps
  const screen = screens({ accounts: services.accounts, config })
  return new Elysia().get(
    '/user/pages/:id/embed',
    screen(async ({ user, params, render }) => {
      const page = await services.pages.get(user, idParam(params.id))
      const preview = services.preview.forPage(page)
      const previewUrl = `/embed/preview?slug=${encodeURIComponent(page.slug)}`
      return render({ title: `Embed: ${page.name}`, crumbs: pageCrumbs(page, 'Embed'), head: HEAD, scripts: SCRIPTS }, embedView(page, preview, previewUrl))
    }),
    {
      params: t.Object({ id: t.String() }),
      response: { 200: t.String({ description: 'An HTML page' }), 404: t.String({ description: 'An HTML page' }) },
      detail: { tags: ['User area'], summary: 'A status page: embed snippets and their preview' },
    },
  )
}
