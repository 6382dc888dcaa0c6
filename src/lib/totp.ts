/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP): HMAC-SHA-1, 6 digits, 30-second
 * steps, the secret as base32 (what authenticator apps read). A code is accepted for the current
 * step and one step either side (clocks drift; a code typed at the end of its 30 seconds), and the
 * matched step is returned so the caller can refuse a step used before (no replay).
 */
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
export const TOTP_STEP_MS = 30_000
export const TOTP_DIGITS = 6
/** Steps either side of the current one that still count. */
export const TOTP_WINDOW = 1

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31]
  return out
}

/** Decodes base32 (case, spaces and padding ignored); undefined for any other character. */
export function base32Decode(text: string): Uint8Array<ArrayBuffer> | undefined {
  const clean = text.replace(/[\s=]/g, '').toUpperCase()
  const out: number[] = []
  let bits = 0
  let value = 0
  for (const char of clean) {
    const index = BASE32.indexOf(char)
    if (index < 0) return undefined
    value = ((value << 5) | index) & 0xffff
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Uint8Array.from(out)
}

/** A new secret: 20 random bytes (160 bits, as RFC 4226 recommends), base32. */
export function newTotpSecret(): string {
  return base32Encode(crypto.getRandomValues(new Uint8Array(20)))
}

/** The HOTP code of `counter` under `key`. */
export async function hotp(key: Uint8Array<ArrayBuffer>, counter: number, digits = TOTP_DIGITS): Promise<string> {
  const message = new Uint8Array(8)
  new DataView(message.buffer).setBigUint64(0, BigInt(counter))
  const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-1' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, message))
  const offset = mac[mac.length - 1]! & 0x0f
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!
  return String(binary % 10 ** digits).padStart(digits, '0')
}

export const totpStep = (now: number): number => Math.floor(now / TOTP_STEP_MS)

/** The code of the step at `now`. */
export async function totpCode(secret: string, now: number): Promise<string> {
  const key = base32Decode(secret)
  if (!key) throw new Error('secret is not base32')
  return hotp(key, totpStep(now))
}

/**
 * The step `code` belongs to, within the window around `now` and after `usedStep` (the last step
 * accepted for this secret), or undefined. Every candidate is computed and compared in full, so the
 * time taken does not tell which step matched.
 */
export async function matchTotp(secret: string, code: string, now: number, usedStep = -1): Promise<number | undefined> {
  const key = base32Decode(secret)
  const typed = code.replace(/\s/g, '')
  if (!key || !/^\d{6}$/.test(typed)) return undefined
  const current = totpStep(now)
  let matched: number | undefined
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    const expected = await hotp(key, step)
    let diff = 0
    for (let i = 0; i < TOTP_DIGITS; i++) diff |= expected.charCodeAt(i) ^ typed.charCodeAt(i)
    if (diff === 0 && step > usedStep && matched === undefined) matched = step
  }
  return matched
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function otpauthUri(secret: string, account: string, issuer: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${TOTP_DIGITS}&period=${TOTP_STEP_MS / 1000}`
}
