/**
 * The manage/unsubscribe token every subscriber mail carries: `<id>.<HMAC-SHA256(instance key,
 * id:manage_key)>`. It is derived, never stored, so the fan-out can put it in every mail; a
 * subscriber's `manage_key` is new for each subscription, so a token dies with it. The instance key
 * lives in the database (one row, made on first use), read through the repo of the caller, so a
 * caller inside a transaction never waits for a second connection.
 */
import { base64url, constantTimeEqual } from '../../lib/crypto.ts'

const encoder = new TextEncoder()

export interface SecretSource {
  signingSecret(now: number): Promise<string>
}

/** Tokens remembered (a fan-out to 10,000 subscribers signs each once per process, not per event). */
const REMEMBERED = 100_000

export class ManageTokens {
  private key: Promise<CryptoKey> | undefined
  private readonly known = new Map<string, string>()

  constructor(private readonly now: () => number) {}

  private cryptoKey(source: SecretSource): Promise<CryptoKey> {
    this.key ??= source.signingSecret(this.now()).then((secret) =>
      crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
    )
    // A failed first read (a rolled-back transaction) is tried again next time.
    this.key.catch(() => (this.key = undefined))
    return this.key
  }

  async token(source: SecretSource, subscriberId: number, manageKey: string): Promise<string> {
    const message = `${subscriberId}:${manageKey}`
    const known = this.known.get(message)
    if (known !== undefined) return known
    const signature = await crypto.subtle.sign('HMAC', await this.cryptoKey(source), encoder.encode(message))
    const token = `${subscriberId}.${base64url(new Uint8Array(signature))}`
    if (this.known.size >= REMEMBERED) this.known.delete(this.known.keys().next().value!)
    this.known.set(message, token)
    return token
  }

  /** The subscriber id a token names (to be checked with `matches` against that row), or undefined. */
  static idOf(token: string): number | undefined {
    const match = /^([1-9]\d{0,14})\.[A-Za-z0-9_-]{43}$/.exec(token)
    return match ? Number(match[1]) : undefined
  }

  async matches(source: SecretSource, token: string, subscriberId: number, manageKey: string): Promise<boolean> {
    return constantTimeEqual(token, await this.token(source, subscriberId, manageKey))
  }
}
