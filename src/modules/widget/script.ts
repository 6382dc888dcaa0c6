/**
 * The HTTP shape of the built widget, beside its route (there is no logic beyond it, so no
 * service): the bytes are prepared once per process (plain and gzip, each with its ETag) and
 * answered with a long cache lifetime. The URL carries the major version (`v1`), so a
 * day of freshness plus a week of stale-while-revalidate keeps embeds fast and fixes arrive soon.
 */
import { forEncoding, prepareEncoded, type EncodedResponses, type PreparedResponse } from '../../lib/http-cache.ts'

export const WIDGET_PATH = '/static/embed/v1/status.js'
export const WIDGET_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800'

export class WidgetScript {
  private prepared: Promise<EncodedResponses> | undefined

  constructor(private readonly source: string) {}

  /** The prepared script; gzip-encoded when the client accepts it. */
  async script(acceptEncoding: string | null): Promise<PreparedResponse> {
    this.prepared ??= prepareEncoded(this.source, {
      contentType: 'text/javascript; charset=utf-8',
      cacheControl: WIDGET_CACHE_CONTROL,
      extraHeaders: { 'access-control-allow-origin': '*' },
    })
    return forEncoding(await this.prepared, acceptEncoding)
  }
}
