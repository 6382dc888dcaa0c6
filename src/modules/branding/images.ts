/**
 * Uploaded images are recognised by their bytes, never by file name or declared type (pure).
 * PNG, JPEG and ICO by their signatures (`file-type`, the well-kept library for this); SVG, which is
 * text, by parsing its start: optional BOM, XML declaration, comments and doctype, then `<svg`.
 */
import type { ImageType } from './tables.ts'

export const IMAGE_CONTENT_TYPES: Readonly<Record<ImageType, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
}

const SVG_START = /^(?:\s|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!doctype\s+svg[^>[]*(?:\[[\s\S]*?\])?\s*>)*<svg[\s>]/i

function looksLikeSvg(bytes: Uint8Array): boolean {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return false
  }
  return SVG_START.test(text) && /<\/svg\s*>/i.test(text)
}

export async function sniffImage(bytes: Uint8Array): Promise<ImageType | undefined> {
  if (bytes.length === 0) return undefined
  // file-type is loaded by the first uploaded image, not at start.
  const { fileTypeFromBuffer } = await import('file-type')
  const detected = await fileTypeFromBuffer(bytes)
  if (detected?.ext === 'png') return 'png'
  if (detected?.ext === 'jpg') return 'jpeg'
  if (detected?.ext === 'ico') return 'ico'
  // file-type reports text formats loosely (an SVG may come back as "xml"): check the text ourselves.
  if (detected && detected.ext !== 'xml' && detected.ext !== 'svg') return undefined
  return looksLikeSvg(bytes) ? 'svg' : undefined
}
