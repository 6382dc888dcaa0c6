/**
 * Static files of the user area and the analytics dashboard, served from our own origin (no CDN):
 * the stylesheet, the dashboard script and uPlot. Loaded once, pre-encoded with an ETag.
 */
import { prepareResponse, type PreparedResponse } from '../../lib/http-cache.ts'

interface Asset {
  /** Where the file is: a URL relative to this module or a package path. */
  source: () => string
  contentType: string
}

const ASSETS: Record<string, Asset> = {
  '/static/user/user.css': {
    source: () => new URL('../../assets/user/user.css', import.meta.url).pathname,
    contentType: 'text/css; charset=utf-8',
  },
  '/static/analytics/dashboard.js': {
    source: () => new URL('../../assets/analytics/dashboard.js', import.meta.url).pathname,
    contentType: 'text/javascript; charset=utf-8',
  },
  '/static/analytics/uplot.js': {
    source: () => new URL(import.meta.resolve('uplot/dist/uPlot.iife.min.js')).pathname,
    contentType: 'text/javascript; charset=utf-8',
  },
  '/static/analytics/uplot.css': {
    source: () => new URL(import.meta.resolve('uplot/dist/uPlot.min.css')).pathname,
    contentType: 'text/css; charset=utf-8',
  },
}

export const ASSET_PATHS = Object.keys(ASSETS)

const loaded = new Map<string, Promise<PreparedResponse>>()

/** The prepared response of a static asset, read from disk once per process. */
export function loadAsset(path: string): Promise<PreparedResponse> | undefined {
  const asset = ASSETS[path]
  if (!asset) return undefined
  let prepared = loaded.get(path)
  if (!prepared) {
    prepared = Bun.file(asset.source())
      .bytes()
      .then((bytes) =>
        prepareResponse(200, bytes, {
          contentType: asset.contentType,
          cacheControl: 'public, max-age=3600',
          extraHeaders: { 'x-content-type-options': 'nosniff' },
        }),
      )
    loaded.set(path, prepared)
  }
  return prepared
}
