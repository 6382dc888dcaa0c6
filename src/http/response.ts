/** Small helpers on Response objects shared by the front door, the edge and the sites. */

/**
 * The response with one header set. Most responses are ours and mutable; a few have immutable
 * headers (Response.redirect, a fetched Response): those are copied once.
 */
export function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value)
    return response
  } catch {
    const copy = new Response(response.body, response)
    copy.headers.set(name, value)
    return copy
  }
}
