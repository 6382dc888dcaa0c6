/** The owner's branding of a page in the management API: palette and custom CSS, favicon, logo. */
import { Elysia, t } from 'elysia'
import { errorResponses, IdParams, sharedModels, uploadBody } from '../../http/schemas.ts'
import { HttpError } from '../../lib/errors.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { BrandingBody, brandingJson, BrandingRef, brandingModels, ImageRef } from './model.ts'
import type { BrandingService } from './service.ts'

const detail = (summary: string, description?: string) => ({ tags: ['Status pages'], summary, description, security: apiKeySecurity })

/** What an image upload may be: recognised by content, whatever the media type says. */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml', 'image/x-icon']

async function uploadedBytes(request: Request): Promise<Uint8Array> {
  const type = request.headers.get('content-type') ?? ''
  if (type.toLowerCase().startsWith('multipart/form-data')) {
    let form: FormData
    try {
      form = await request.formData()
    } catch {
      throw new HttpError(400, 'file: the multipart body could not be read')
    }
    const file = form.get('file')
    if (!(file instanceof Blob)) throw new HttpError(400, 'file is required (multipart field "file")')
    return new Uint8Array(await file.arrayBuffer())
  }
  return new Uint8Array(await request.arrayBuffer())
}

export function brandingRoutes(deps: { accounts: AccountsService; branding: BrandingService }) {
  const { branding } = deps
  const imageRoutes = (kind: 'favicon' | 'logo') =>
    new Elysia({ prefix: '/user/api/v1/status-pages' })
      .model(sharedModels)
      .model(brandingModels)
      .use(ownerAuth(deps.accounts))
      .put(
        `/:id/${kind}`,
        async ({ owner, params, request }) => ({ data: await branding.setImage(owner, params.id, kind, await uploadedBytes(request)) }),
        {
          params: IdParams,
          parse: 'none',
          response: { 200: t.Object({ data: ImageRef }), ...errorResponses },
          detail: {
            ...detail(
              kind === 'favicon' ? 'Upload the favicon of a page' : 'Upload the logo of a page',
              kind === 'favicon'
                ? 'Multipart field `file` (or the raw bytes as the body). At most 100 KB; PNG, JPEG, SVG or ICO, recognised by content. Needs a plan with custom CSS. SVG is served with a CSP that forbids scripts.'
                : 'Multipart field `file` (or the raw bytes as the body). At most 256 KB; PNG, JPEG, SVG or ICO, recognised by content.',
            ),
            requestBody: uploadBody(kind === 'favicon' ? 'The favicon: PNG, JPEG, SVG or ICO, at most 100 KB' : 'The logo: PNG, JPEG, SVG or ICO, at most 256 KB', IMAGE_TYPES),
          },
        },
      )
      .delete(
        `/:id/${kind}`,
        async ({ owner, params }) => {
          await branding.deleteImage(owner, params.id, kind)
          return { data: { deleted: true } }
        },
        {
          params: IdParams,
          response: { 200: t.Object({ data: t.Object({ deleted: t.Boolean() }) }), ...errorResponses },
          detail: detail(kind === 'favicon' ? 'Remove the custom favicon' : 'Remove the logo'),
        },
      )

  return new Elysia({ name: 'branding' })
    .use(imageRoutes('favicon'))
    .use(imageRoutes('logo'))
    .use(
      new Elysia({ prefix: '/user/api/v1/status-pages' })
        .model(sharedModels)
        .model(brandingModels)
        .use(ownerAuth(deps.accounts))
        .get('/:id/branding', async ({ owner, params }) => ({ data: brandingJson(await branding.branding(owner, params.id)) }), {
          params: IdParams,
          response: { 200: t.Object({ data: BrandingRef }), ...errorResponses },
          detail: detail('Branding of a page: palette, derived dark colours, custom CSS, favicon, logo'),
        })
        .patch(
          '/:id/branding',
          async ({ owner, params, body }) => ({ data: brandingJson(await branding.setBranding(owner, params.id, body)) }),
          {
            params: IdParams,
            body: BrandingBody,
            response: { 200: t.Object({ data: BrandingRef }), ...errorResponses },
            detail: detail(
              'Change the palette or the custom CSS',
              '`palette`: hex colours for `primary`, `secondary`, `accent`, `background`, `text` (light mode; text must reach 4.5:1 on background). Dark-mode colours are derived. `custom_css` (plans with custom CSS): at most 50 KB, no `<`, no `@import`. `null` resets either.',
            ),
          },
        ),
    )
}
