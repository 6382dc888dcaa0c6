/** The owner's side of a page's branding (management API): palette, custom CSS, favicon, logo. */
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { Clock } from '../../lib/clock.ts'
import { badRequest, forbidden } from '../../lib/errors.ts'
import type { Owner } from '../accounts/service.ts'
import { lowestPlanWith, planHas, planLabel } from '../plans/matrix.ts'
import type { StatusPagesService } from '../status-pages/service.ts'
import { parseCustomCss } from './custom-css.ts'
import { sniffImage } from './images.ts'
import {
  contrastRatio,
  darkTheme,
  DEFAULT_PALETTE,
  lightTheme,
  MIN_TEXT_CONTRAST,
  PALETTE_KEYS,
  parseHexColor,
  storedPalette,
  type Palette,
  type Theme,
} from './palette.ts'
import type { BrandingRepo } from './repo.ts'
import type { ImageType } from './tables.ts'
import type { BrandingInput } from './model.ts'
import { type Branding } from './types.ts'

// The domain types and limits are defined in types.ts; importers of the service find them here too.
export { type Branding } from './types.ts'

const MAX_FAVICON_BYTES = 100 * 1024
const MAX_LOGO_BYTES = 256 * 1024

/** What visitors see of a page's branding (no ownership or plan checks: the status site applies the plan). */
export interface PublicAppearance {
  palette: Palette
  customCss: string | null
  favicon: { bytes: Uint8Array; type: ImageType } | undefined
  logo: { bytes: Uint8Array; type: ImageType } | undefined
}

const round2 = (n: number) => Math.round(n * 100) / 100

export class BrandingService {
  constructor(
    private readonly repo: BrandingRepo,
    private readonly pages: StatusPagesService,
    private readonly clock: Clock,
    private readonly changes: ChangeFeed,
  ) {}

  /** A page's palette, custom CSS and images as the status site shows them. */
  async publicAppearance(pageId: number): Promise<PublicAppearance> {
    const row = await this.repo.findAppearance(pageId)
    const image = (bytes: Uint8Array | null | undefined, type: ImageType | null | undefined) => (bytes && type ? { bytes, type } : undefined)
    return {
      palette: storedPalette(row?.palette_json ?? null),
      customCss: row?.custom_css ?? null,
      favicon: image(row?.favicon, row?.favicon_type),
      logo: image(row?.logo, row?.logo_type),
    }
  }

  async branding(owner: Owner, pageId: number): Promise<Branding> {
    await this.pages.get(owner, pageId)
    const row = await this.repo.findAppearanceMeta(pageId)
    const palette = storedPalette(row?.palette_json ?? null)
    const light = lightTheme(palette)
    const dark = darkTheme(palette)
    return {
      palette,
      light,
      dark,
      contrast: {
        text_on_background: round2(contrastRatio(light.text, light.background)),
        dark_text_on_background: round2(contrastRatio(dark.text, dark.background)),
      },
      customCss: row?.custom_css ?? null,
      favicon: row?.favicon_type ? { type: row.favicon_type, bytes: row.favicon_size ?? 0 } : null,
      logo: row?.logo_type ? { type: row.logo_type, bytes: row.logo_size ?? 0 } : null,
    }
  }

  /** The owner's own uploaded image (whatever the plan shows in public), or undefined when there is none. */
  async ownImage(owner: Owner, pageId: number, kind: 'favicon' | 'logo'): Promise<{ bytes: Uint8Array; type: ImageType } | undefined> {
    await this.pages.get(owner, pageId)
    return (await this.publicAppearance(pageId))[kind]
  }

  async setBranding(owner: Owner, pageId: number, input: BrandingInput): Promise<Branding> {
    await this.pages.get(owner, pageId)
    const changes: { palette_json?: string | null; custom_css?: string | null } = {}
    if (input.palette !== undefined) changes.palette_json = input.palette === null ? null : JSON.stringify(parsePalette(input.palette))
    if (input.custom_css !== undefined) {
      if (input.custom_css !== null) this.requireCustomCss(owner, 'Custom CSS')
      changes.custom_css = input.custom_css === null ? null : parseCustomCss(input.custom_css)
    }
    await this.repo.upsertAppearance(pageId, changes, this.clock.now())
    this.changes.pageChanged(pageId)
    return this.branding(owner, pageId)
  }

  async setImage(owner: Owner, pageId: number, kind: 'favicon' | 'logo', bytes: Uint8Array): Promise<{ type: string; bytes: number }> {
    await this.pages.get(owner, pageId)
    if (kind === 'favicon') this.requireCustomCss(owner, 'A custom favicon')
    const max = kind === 'favicon' ? MAX_FAVICON_BYTES : MAX_LOGO_BYTES
    if (bytes.length === 0) throw badRequest(`${kind} file is empty`)
    if (bytes.length > max) throw badRequest(`${kind} must be at most ${max / 1024} KB (got ${bytes.length} bytes)`)
    const type = await sniffImage(bytes)
    if (!type) throw badRequest(`${kind} must be a PNG, JPEG, SVG or ICO image (recognised by its content)`)
    const copy = new Uint8Array(bytes)
    await this.repo.upsertAppearance(
      pageId,
      kind === 'favicon' ? { favicon: copy, favicon_type: type } : { logo: copy, logo_type: type },
      this.clock.now(),
    )
    this.changes.pageChanged(pageId)
    return { type, bytes: bytes.length }
  }

  async deleteImage(owner: Owner, pageId: number, kind: 'favicon' | 'logo'): Promise<void> {
    await this.pages.get(owner, pageId)
    await this.repo.upsertAppearance(
      pageId,
      kind === 'favicon' ? { favicon: null, favicon_type: null } : { logo: null, logo_type: null },
      this.clock.now(),
    )
    this.changes.pageChanged(pageId)
  }

  private requireCustomCss(owner: Owner, what: string): void {
    if (!planHas(owner.plan, 'custom_css')) {
      throw forbidden(`${what} requires ${planLabel(lowestPlanWith('custom_css'))} plan or higher`)
    }
  }
}

/** The owner's palette: hex colours, unknown keys refused, text readable on the background. */
export function parsePalette(input: Partial<Record<string, string>>): Palette {
  const palette: Palette = { ...DEFAULT_PALETTE }
  for (const [key, value] of Object.entries(input)) {
    if (!(PALETTE_KEYS as readonly string[]).includes(key)) {
      throw badRequest(`palette.${key} is not a palette colour (use ${PALETTE_KEYS.join(', ')})`)
    }
    const color = typeof value === 'string' ? parseHexColor(value) : undefined
    if (!color) throw badRequest(`palette.${key} must be a hex colour like #1f6feb`)
    palette[key as keyof Palette] = color
  }
  const ratio = contrastRatio(palette.text, palette.background)
  if (ratio < MIN_TEXT_CONTRAST) {
    throw badRequest(
      `palette.text on palette.background has a contrast of ${ratio.toFixed(2)}:1; at least ${MIN_TEXT_CONTRAST}:1 is needed to be readable`,
    )
  }
  return palette
}
