/**
 * `lantern healthcheck`: asks the server on this machine for `/healthz`, so a container
 * HEALTHCHECK (or a monitoring script) needs no curl in the image. Exit 0 only for a 200.
 */
export interface HealthAnswer {
  ok: boolean
  /** One line: the URL asked and what came back. */
  detail: string
}

/** The address to reach a server that listens on `host`: a wildcard listener answers on loopback. */
function localUrl(host: string, port: number, path: string): string {
  const address = host === '' || host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}${path}`
}

export async function checkHealth(host: string, port: number, timeoutMs = 3000): Promise<HealthAnswer> {
  const url = localUrl(host, port, '/healthz')
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })
    const body = (await response.text()).replace(/\s+/g, ' ').slice(0, 200)
    return { ok: response.status === 200, detail: `${url}: ${response.status} ${body}` }
  } catch (error) {
    return { ok: false, detail: `${url}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` }
  }
}
