/**
 * The one error type that carries an HTTP meaning. Services throw it; the app's error handler turns
 * it into `{"error": message}` with its status. Anything else becomes a generic 500.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, message)
export const unauthorized = (message = 'unauthorized'): HttpError => new HttpError(401, message)
export const forbidden = (message: string): HttpError => new HttpError(403, message)
export const notFound = (message = 'not found'): HttpError => new HttpError(404, message)
export const conflict = (message: string): HttpError => new HttpError(409, message)

/** A JSON error response in the shape every API of Lantern uses. */
export function errorResponse(status: number, message: string, headers?: HeadersInit): Response {
  const response = new Response(JSON.stringify({ error: message }), { status, headers })
  response.headers.set('content-type', 'application/json; charset=utf-8')
  return response
}

/**
 * An error answer may never be stored by a browser or a shared cache: a page created, a key fixed
 * or a limit lifted a moment later must not hide behind it. Applied to every answer of the app.
 */
export function noStoreOnError(response: Response): Response {
  if (response.status < 400 || /\bno-store\b/.test(response.headers.get('cache-control') ?? '')) return response
  try {
    response.headers.set('cache-control', 'no-store')
    return response
  } catch {
    // Immutable headers (e.g. Response.redirect): copy once.
    const copy = new Response(response.body, response)
    copy.headers.set('cache-control', 'no-store')
    return copy
  }
}
