/**
 * The Branding section of a page (views in views/branding.ts), on the BrandingService methods the
 * management API calls (setBranding, setImage, deleteImage) and the API's own `t` schemas:
 *
 *   GET  /user/pages/:id/branding                 colours, custom CSS, logo, favicon, preview
 *   POST /user/pages/:id/branding                 save colours (and custom CSS where the plan allows)
 *   POST /user/pages/:id/branding/reset           colours back to the defaults (palette: null)
 *   GET  /user/pages/:id/branding/preview.css     the sample's colours for a palette (the saved one, or ?primary=…)
 *   GET  /user/pages/:id/branding/{logo,favicon}  the owner's own image, from this origin
 *   POST /user/pages/:id/branding/{logo,favicon}  upload (multipart field `file`; the API's limits and checks)
 *   POST /user/pages/:id/branding/{logo,favicon}/delete   remove
 *
 * The owner sees the uploaded images from the service host, behind the session and the ownership
 * check: the status host may not be reachable yet (DNS of a new instance), and it serves images to
 * its own origin only. The page carries a CSP that lets it frame the page's status host only: the
 * real public rendering (with the owner's CSS) runs there, in a sandboxed iframe.
 */
import { Elysia, t } from 'elysia'
import { htmlPolicy } from '../../http/edge/security-headers.ts'
import { withHeader } from '../../http/response.ts'
import { HttpError } from '../../lib/errors.ts'
import { prepareResponse, servePrepared } from '../../lib/http-cache.ts'
import { IMAGE_CONTENT_TYPES } from '../../modules/branding/images.ts'
import { IMAGE_HEADERS } from '../../modules/status-site/look.ts'
import { BrandingBody, PaletteBody } from '../../modules/branding/model.ts'
import { darkTheme, lightTheme } from '../../modules/branding/palette.ts'
import { parsePalette, type Branding } from '../../modules/branding/service.ts'
import { lowestPlanWith, planHas, planLabel } from '../../modules/plans/matrix.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import type { Owner } from '../../modules/accounts/service.ts'
import { errorStatus, formFields, readForm, type FormState } from '../kit/forms.ts'
import { idParam, screens } from '../kit/guard.ts'
import { pageCrumbs } from '../views/pages.ts'
import { brandingForm, brandingView, PALETTE_FIELDS, previewCss } from '../views/branding.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const IdPath = t.Object({ id: t.String() })
const ImagePath = t.Object({ id: t.String(), kind: t.String() })
const HEAD = '<link rel="stylesheet" href="/static/user/branding.css">'
const SCRIPTS = ['/static/user/branding.js']

/** A short, stable version of what the preview shows (FNV-1a), so a save reloads the frame and images. */
function versionOf(branding: Branding): string {
  const text = JSON.stringify([branding.palette, branding.customCss, branding.logo, branding.favicon])
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0
  return hash.toString(36)
}

/** `logo` or `favicon`; any other name is no page here. */
function imageKind(raw: string | undefined): 'logo' | 'favicon' {
  if (raw === 'logo' || raw === 'favicon') return raw
  throw new HttpError(404, 'not found')
}

/**
 * Puts a branding error next to its field: `palette.text …` on the text colour, `logo …` on the
 * logo, the plan's "Custom CSS requires …" on the CSS; else form-level.
 */
function brandingErrorState(error: unknown, state: FormState): FormState {
  if (!(error instanceof HttpError) || ![400, 403, 409].includes(error.status)) throw error
  const palette = /^palette\.(\w+)/.exec(error.message)?.[1]
  const field =
    palette && (PALETTE_FIELDS as readonly string[]).includes(palette)
      ? palette
      : /^(custom_css|Custom CSS)\b/.test(error.message)
        ? 'custom_css'
        : '_form'
  return { values: state.values, errors: { ...state.errors, [field]: error.message } }
}

export function brandingSection(deps: ScreenDeps<'accounts' | 'pages' | 'branding'>) {
  const { services, config } = deps
  const { pages, branding } = services
  const screen = screens({ accounts: services.accounts, config })
  const statusOrigin = (page: StatusPage) => `${config.scheme}://${page.slug}.${config.statusDomain}`
  const cssRefusal = (user: Owner) =>
    planHas(user.plan, 'custom_css') ? null : `Custom CSS and a custom favicon require ${planLabel(lowestPlanWith('custom_css'))} plan or higher.`

  /** The Branding page, with a policy that allows framing this page's status host only. */
  async function brandingPage(
    user: Owner,
    page: StatusPage,
    render: (options: { title: string; crumbs: ReturnType<typeof pageCrumbs>; head: string; scripts: string[] }, body: string, status?: number) => Response,
    options: { form?: FormState; uploadErrors?: Partial<Record<'logo' | 'favicon', string>>; status?: number } = {},
  ): Promise<Response> {
    const current = await branding.branding(user, page.id)
    const origin = statusOrigin(page)
    const body = brandingView({
      page,
      branding: current,
      form: options.form ?? brandingForm(current),
      uploadErrors: options.uploadErrors,
      statusOrigin: origin,
      customCssRefusal: cssRefusal(user),
      version: versionOf(current),
    })
    const head = `${HEAD}<link rel="stylesheet" id="preview-css" href="/user/pages/${page.id}/branding/preview.css?v=${versionOf(current)}">`
    const response = render({ title: `Branding: ${page.name}`, crumbs: pageCrumbs(page, 'Branding'), head, scripts: SCRIPTS }, body, options.status)
    return withHeader(response, 'content-security-policy', htmlPolicy(true, new URL(config.baseUrl).origin, { frameSrc: origin }))
  }

  return new Elysia()
    .get(
      '/user/pages/:id/branding',
      screen(async ({ user, params, render }) => brandingPage(user, await pages.get(user, idParam(params.id)), render)),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A status page: branding with a live preview') },
    )
    .post(
      '/user/pages/:id/branding',
      screen(async ({ user, params, body, render, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const palette = readForm(PaletteBody, body, { only: PALETTE_FIELDS })
        // The CSS goes along only when the form had it (a plan without custom CSS shows it disabled).
        const withCss = 'custom_css' in formFields(body)
        const css = readForm(BrandingBody, body, { only: withCss ? ['custom_css'] : [] })
        const state: FormState = { values: formFields(body), errors: { ...palette.state.errors, ...css.state.errors } }
        if (!palette.ok || !css.ok) return brandingPage(user, page, render, { form: state, status: 400 })
        try {
          await branding.setBranding(user, page.id, { palette: palette.value, ...(withCss ? { custom_css: css.value.custom_css } : {}) })
        } catch (error) {
          return brandingPage(user, page, render, { form: brandingErrorState(error, state), status: errorStatus(error) })
        }
        return redirect(`/user/pages/${page.id}/branding`, 'Branding saved.')
      }),
      {
        params: IdPath,
        response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse },
        detail: detail('Change the colours and custom CSS of a page (form post)'),
      },
    )
    .post(
      '/user/pages/:id/branding/reset',
      screen(async ({ user, params, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        await branding.setBranding(user, page.id, { palette: null })
        return redirect(`/user/pages/${page.id}/branding`, 'Colours reset to the defaults.')
      }),
      { params: IdPath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Reset the colours of a page (form post)') },
    )
    .get(
      '/user/pages/:id/branding/preview.css',
      screen(async ({ user, params, query }) => {
        const page = await pages.get(user, idParam(params.id))
        const typed = Object.fromEntries(PALETTE_FIELDS.flatMap((key) => (query[key] ? [[key, query[key]!]] : [])))
        let palette
        try {
          palette = Object.keys(typed).length > 0 ? parsePalette(typed) : (await branding.branding(user, page.id)).palette
        } catch (error) {
          if (error instanceof HttpError && error.status === 400) {
            return new Response(error.message, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } })
          }
          throw error
        }
        return new Response(previewCss(lightTheme(palette), darkTheme(palette)), {
          headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'private, max-age=60' },
        })
      }),
      {
        params: IdPath,
        query: t.Object(Object.fromEntries([...PALETTE_FIELDS, 'v'].map((key) => [key, t.Optional(t.String({ maxLength: 200 }))]))),
        response: { 200: t.String({ description: 'CSS' }), 400: t.String(), 404: HtmlResponse },
        detail: detail('The preview colours of a palette (the saved one, or the colours in the query)'),
      },
    )
    .get(
      '/user/pages/:id/branding/:kind',
      screen(async ({ user, params, request }) => {
        const page = await pages.get(user, idParam(params.id))
        const image = await branding.ownImage(user, page.id, imageKind(params.kind))
        if (!image) throw new HttpError(404, 'not found')
        // Revalidated on each view (an ETag makes that cheap): the URL's version names the branding, not the bytes.
        const prepared = await prepareResponse(200, image.bytes, { contentType: IMAGE_CONTENT_TYPES[image.type], cacheControl: 'private, no-cache', extraHeaders: IMAGE_HEADERS })
        return servePrepared(prepared, request.headers.get('if-none-match'))
      }),
      {
        params: ImagePath,
        query: t.Object({ v: t.Optional(t.String({ maxLength: 40 })) }),
        response: { 200: t.String({ description: 'The image (PNG, JPEG, SVG or ICO)' }), 404: HtmlResponse },
        detail: detail('The logo or favicon of a page as uploaded, for its owner'),
      },
    )
    .post(
      '/user/pages/:id/branding/:kind',
      screen(async ({ user, params, body, render, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const kind = imageKind(params.kind)
        const file = body && typeof body === 'object' ? (body as Record<string, unknown>).file : undefined
        const chosen = Array.isArray(file) ? file[0] : file
        try {
          if (!(chosen instanceof Blob) || chosen.size === 0) throw new HttpError(400, `${kind}: choose a file to upload`)
          // The API's own checks: size, type by content, plan (BrandingService.setImage).
          await branding.setImage(user, page.id, kind, new Uint8Array(await chosen.arrayBuffer()))
        } catch (error) {
          if (!(error instanceof HttpError) || ![400, 403].includes(error.status)) throw error
          return brandingPage(user, page, render, { uploadErrors: { [kind]: error.message }, status: error.status })
        }
        return redirect(`/user/pages/${page.id}/branding`, kind === 'logo' ? 'Logo uploaded.' : 'Favicon uploaded.')
      }),
      {
        params: ImagePath,
        response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse },
        detail: detail('Upload the logo or favicon of a page (multipart form post, field `file`)'),
      },
    )
    .post(
      '/user/pages/:id/branding/:kind/delete',
      screen(async ({ user, params, redirect }) => {
        const page = await pages.get(user, idParam(params.id))
        const kind = imageKind(params.kind)
        await branding.deleteImage(user, page.id, kind)
        return redirect(`/user/pages/${page.id}/branding`, kind === 'logo' ? 'Logo removed.' : 'Favicon removed.')
      }),
      { params: ImagePath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Remove the logo or favicon of a page (form post)') },
    )
}
