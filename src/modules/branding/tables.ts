export type ImageType = 'png' | 'jpeg' | 'svg' | 'ico'

export interface PageAppearanceTable {
  page_id: number
  /** JSON of the owner's light palette ({primary, secondary, accent, background, text}); null = defaults. */
  palette_json: string | null
  custom_css: string | null
  favicon: Uint8Array | null
  favicon_type: ImageType | null
  logo: Uint8Array | null
  logo_type: ImageType | null
  updated_at: number
}
