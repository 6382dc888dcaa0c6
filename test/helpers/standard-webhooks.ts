/**
 * A receiver's check of Lantern's webhooks with the official Standard Webhooks library. The library
 * compares `webhook-timestamp` with the real clock (within 5 minutes); tests run on a fixed test
 * clock, so the check runs with the system time set to the request's own timestamp.
 */
import { setSystemTime } from 'bun:test'
import { Webhook } from 'standardwebhooks'

/** The parsed body when the request's signature is valid for `secret`; throws otherwise (as the library does). */
export function verifyStandardWebhook(secret: string, request: { body: string; headers: Headers | Record<string, string> }): unknown {
  const headers = request.headers instanceof Headers ? Object.fromEntries(request.headers) : request.headers
  const timestamp = Number(headers['webhook-timestamp'])
  setSystemTime(Number.isFinite(timestamp) ? new Date(timestamp * 1000) : undefined)
  try {
    return new Webhook(secret).verify(request.body, headers)
  } finally {
    setSystemTime()
  }
}
