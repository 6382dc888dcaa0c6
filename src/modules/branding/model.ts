/**
 * Schemas of a page's branding in the management API (palette, custom CSS, images): the bodies,
 * the answers registered as named models, and the types the branding service takes.
 */
import { t, type Static } from 'elysia'
import { modelRef, namedModels } from '../../http/schemas.ts'
import type { Branding } from './types.ts'

export const PaletteBody = t.Object(
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

/** The named models of the OpenAPI document the branding routes define. */
export const brandingModels = namedModels({ Branding: BrandingJson, Image: ImageJson })
export const BrandingRef = modelRef(brandingModels, 'Branding')
export const ImageRef = modelRef(brandingModels, 'Image')

export const brandingJson = (b: Branding): Static<typeof BrandingJson> => ({
  palette: b.palette,
  light: b.light,
  dark: b.dark,
  contrast: b.contrast,
  custom_css: b.customCss,
  favicon: b.favicon,
  logo: b.logo,
})
