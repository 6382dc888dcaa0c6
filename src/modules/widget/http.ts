/**
 * The HTTP shape of the built widget, beside its route (there is no logic beyond it, so no
 * service): the bytes are prepared once per process (plain and gzip, each with its ETag) and
 * answered with a long cache lifetime. The URL carries the major version (`v1`), so a
 * day of freshness plus a week of stale-while-revalidate keeps embeds fast and fixes arrive soon.
 */
import { prepareResponse, type PreparedResponse } from '../../lib/http-cache.ts'

export const WIDGET_PATH = '/static/embed/v1/status.js'
export const WIDGET_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800'

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

export class WidgetScript {
  private prepared: Promise<{ plain: PreparedResponse; gzip: PreparedResponse }> | undefined

  constructor(private readonly source: string) {}

  /** The prepared script; gzip-encoded when the client accepts it. */
  async script(acceptEncoding: string | null): Promise<PreparedResponse> {
    this.prepared ??= this.prepare()
    const { plain, gzip } = await this.prepared
    return acceptEncoding && /\bgzip\b/i.test(acceptEncoding) ? gzip : plain
  }

  private async prepare() {
    const bytes = new TextEncoder().encode(this.source)
    const options = (encoding?: string) => ({
      contentType: 'text/javascript; charset=utf-8',
      cacheControl: WIDGET_CACHE_CONTROL,
      extraHeaders: {
        'access-control-allow-origin': '*',
        vary: 'Accept-Encoding',
        ...(encoding ? { 'content-encoding': encoding } : {}),
      },
    })
    const [plain, gzipped] = await Promise.all([prepareResponse(200, bytes, options()), gzip(bytes).then((g) => prepareResponse(200, g, options('gzip')))])
    return { plain, gzip: gzipped }
  }
}
