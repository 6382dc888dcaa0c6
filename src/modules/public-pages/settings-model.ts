/**
 * Schemas of the owner's page settings in the management API (branding, images, access): the
 * bodies, the answers registered as named models, and the types the settings service takes.
 */
import { t, type Static } from 'elysia'
import { modelRef, namedModels } from '../../http/schemas.ts'
import type { Branding } from './settings.ts'

const PaletteBody = t.Object(
  {
    primary: t.Optional(t.String({ maxLength: 200 })),
    secondary: t.Optional(t.String({ maxLength: 200 })),
    accent: t.Optional(t.String({ maxLength: 200 })),
    background: t.Optional(t.String({ maxLength: 200 })),
    text: t.Optional(t.String({ maxLength: 200 })),
  },
  { additionalProperties: true, error: 'palette must be an object of hex colours' },
)

export const BrandingBody = t.Object({
  palette: t.Optional(t.Nullable(PaletteBody)),
  custom_css: t.Optional(t.Nullable(t.String({ maxLength: 200_000, error: 'custom_css must be a string or null' }))),
})

export const AccessBody = t.Object({ password: t.Nullable(t.String({ maxLength: 2000, error: 'password must be a string or null' })) })

/** What `setBranding` takes: the JSON body. */
export type BrandingInput = Static<typeof BrandingBody>

const Theme = t.Object({
  background: t.String(),
  surface: t.String(),
  border: t.String(),
  text: t.String(),
  muted: t.String(),
  accent: t.String(),
  primary: t.String(),
  onPrimary: t.String(),
})

const ImageJson = t.Object({ type: t.String(), bytes: t.Integer() })

const BrandingJson = t.Object({
  palette: t.Object({ primary: t.String(), secondary: t.String(), accent: t.String(), background: t.String(), text: t.String() }),
  light: Theme,
  dark: Theme,
  contrast: t.Object({ text_on_background: t.Number(), dark_text_on_background: t.Number() }),
  custom_css: t.Nullable(t.String()),
  favicon: t.Nullable(ImageJson),
  logo: t.Nullable(ImageJson),
})

const AccessJson = t.Object({
  visibility: t.String(),
  password_set: t.Boolean(),
  embed_token_set: t.Boolean(),
})

/** The named models of the OpenAPI document the settings routes define. */
export const settingsModels = namedModels({ Branding: BrandingJson, PageAccess: AccessJson, Image: ImageJson })
export const BrandingRef = modelRef(settingsModels, 'Branding')
export const PageAccessRef = modelRef(settingsModels, 'PageAccess')
export const ImageRef = modelRef(settingsModels, 'Image')

export const brandingJson = (b: Branding): Static<typeof BrandingJson> => ({
  palette: b.palette,
  light: b.light,
  dark: b.dark,
  contrast: b.contrast,
  custom_css: b.customCss,
  favicon: b.favicon,
  logo: b.logo,
})

export const accessJson = (a: { visibility: string; passwordSet: boolean; embedTokenSet: boolean }): Static<typeof AccessJson> => ({
  visibility: a.visibility,
  password_set: a.passwordSet,
  embed_token_set: a.embedTokenSet,
})
