/**
 * Webhook signatures, the Standard Webhooks way (standardwebhooks.com), added by the outbox worker
 * to each attempt of a request marked `signed`:
 *
 *   webhook-id: <the delivery's message id: the same on every retry and on "send again">
 *   webhook-timestamp: <unix seconds of this attempt>
 *   webhook-signature: v1,<base64 HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<raw body>")>
 *
 * The key is the secret `whsec_<base64>` decoded from base64. Receivers verify with any Standard
 * Webhooks library (or the three lines the guide shows) and reject old timestamps.
 *
 * Deprecated, for webhook channels that have a secret of their own from before: also
 *   X-Lantern-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 */
import { constantTimeEqual } from '../../lib/crypto.ts'
import type { OutboundRequest } from './contract.ts'

export const SIGNING_SECRET_PREFIX = 'whsec_'
/** Random bytes of a generated secret (as Svix makes them). */
const SECRET_BYTES = 24
const MIN_KEY_BYTES = 16
const MAX_KEY_BYTES = 64
export const LEGACY_SIGNATURE_HEADER = 'x-lantern-signature'

const encoder = new TextEncoder()

/** The secrets a receiver's requests are signed with. */
export interface SigningKeys {
  /** `whsec_…`: the Standard Webhooks signature. */
  secret: string
  /** A webhook channel's own secret from before Standard Webhooks: the deprecated X-Lantern-Signature too. */
  legacySecret?: string
}

/** Where the worker finds the keys of a target (`channel:<id>`, `subscriber:<id>`); undefined: it is gone. */
export type SigningKeySource = (target: string) => Promise<SigningKeys | undefined>

const toBase64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''))

/** A new secret: `whsec_` and 24 random bytes in base64. */
export function generateSigningSecret(): string {
  return SIGNING_SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)))
}

/** The key bytes of a `whsec_` secret, or undefined when it is not one (bad base64, under 16 or over 64 bytes). */
export function signingKeyBytes(secret: string): Uint8Array | undefined {
  if (!secret.startsWith(SIGNING_SECRET_PREFIX)) return undefined
  const encoded = secret.slice(SIGNING_SECRET_PREFIX.length)
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(encoded)) return undefined
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0))
  return bytes.length >= MIN_KEY_BYTES && bytes.length <= MAX_KEY_BYTES ? bytes : undefined
}

async function hmac(key: Uint8Array, text: string): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey('raw', key as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(text)))
}

/** `v1,<base64 signature>` of one message. */
export async function standardSignature(secret: string, messageId: string, timestampSeconds: number, body: string): Promise<string> {
  const key = signingKeyBytes(secret)
  if (!key) throw new Error('the signing secret is not a whsec_ secret')
  return `v1,${toBase64(await hmac(key, `${messageId}.${timestampSeconds}.${body}`))}`
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

/** The deprecated `X-Lantern-Signature` value: `t=<seconds>,v1=<hex>`. */
export async function legacySignatureHeader(secret: string, body: string, atMs: number): Promise<string> {
  const t = Math.floor(atMs / 1000)
  return `t=${t},v1=${hex(await hmac(encoder.encode(secret), `${t}.${body}`))}`
}

/** True when `header` is a valid `X-Lantern-Signature` of `body` with `secret` (what a receiver does). */
export async function verifyLegacySignature(secret: string, body: string, header: string | null): Promise<boolean> {
  const match = header?.match(/^t=(\d{1,12}),v1=([0-9a-f]{64})$/)
  if (!match) return false
  return constantTimeEqual(hex(await hmac(encoder.encode(secret), `${match[1]}.${body}`)), match[2]!)
}

/** The request of one attempt at `now`: the Standard Webhooks headers (and the deprecated one). */
export async function signRequest(request: OutboundRequest, keys: SigningKeys, messageId: string, now: number): Promise<OutboundRequest> {
  const timestamp = Math.floor(now / 1000)
  const headers: Record<string, string> = {
    ...request.headers,
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': await standardSignature(keys.secret, messageId, timestamp, request.body),
  }
  if (keys.legacySecret) headers[LEGACY_SIGNATURE_HEADER] = await legacySignatureHeader(keys.legacySecret, request.body, now)
  return { ...request, headers }
}
