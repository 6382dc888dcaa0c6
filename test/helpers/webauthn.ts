/**
 * A software WebAuthn authenticator for tests without a browser: real ES256 keys (WebCrypto), the
 * authenticator data, CBOR and DER a hardware key produces, `fmt: none` attestation. It answers the
 * server's options the way navigator.credentials does, in WebAuthn's JSON form, and can be told to
 * lie (another origin, no user verification, a counter that goes back) to test the refusals.
 *
 *   const authenticator = new SoftAuthenticator('https://lantern.test')
 *   const answer = await authenticator.create(optionsFromServer)   // RegistrationResponseJSON
 *   const proof = await authenticator.get(requestOptionsFromServer) // AuthenticationResponseJSON
 */
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import { isoBase64URL } from '@simplewebauthn/server/helpers'

type Bytes = Uint8Array<ArrayBuffer>
type CborValue = number | string | Bytes | CborMap | { [key: string]: CborValue }
interface CborMap extends Map<number | string, CborValue> {}

function head(major: number, length: number): number[] {
  if (length < 24) return [(major << 5) | length]
  if (length < 0x100) return [(major << 5) | 24, length]
  if (length < 0x10000) return [(major << 5) | 25, length >> 8, length & 0xff]
  return [(major << 5) | 26, (length >>> 24) & 0xff, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff]
}

/** The little CBOR WebAuthn needs: integers, byte and text strings, maps. */
export function cbor(value: CborValue): Bytes {
  if (typeof value === 'number') return Uint8Array.from(value >= 0 ? head(0, value) : head(1, -1 - value))
  if (typeof value === 'string') {
    const bytes = new TextEncoder().encode(value)
    return concat(Uint8Array.from(head(3, bytes.length)), bytes)
  }
  if (value instanceof Uint8Array) return concat(Uint8Array.from(head(2, value.length)), value)
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value)
  return concat(Uint8Array.from(head(5, entries.length)), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)]))
}

export function concat(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

const sha256 = async (bytes: Bytes) => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
const uint32 = (n: number) => Uint8Array.from([(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff])
const text = (value: unknown) => isoBase64URL.fromUTF8String(JSON.stringify(value))

/** WebCrypto's ECDSA signature (r‖s) as the ASN.1 DER WebAuthn carries. */
function der(raw: Bytes): Bytes {
  const integer = (bytes: Uint8Array) => {
    let start = 0
    while (start < bytes.length - 1 && bytes[start] === 0) start++
    const trimmed = bytes.subarray(start)
    const body = trimmed[0]! & 0x80 ? concat(Uint8Array.of(0), trimmed) : trimmed
    return concat(Uint8Array.of(0x02, body.length), body)
  }
  const body = concat(integer(raw.subarray(0, 32)), integer(raw.subarray(32)))
  return concat(Uint8Array.of(0x30, body.length), body)
}

const UP = 0x01
const UV = 0x04
const AT = 0x40

export interface Credential {
  id: Bytes
  keys: CryptoKeyPair
  rpId: string
  userHandle: string
  counter: number
}

export interface Lies {
  /** The origin written into the client data (default: the authenticator's). */
  origin?: string
  /** The rp id whose hash heads the authenticator data (default: the options'). */
  rpId?: string
  /** The client data's type (default `webauthn.create` / `webauthn.get`). */
  type?: string
  /** The challenge signed (default: the options'). */
  challenge?: string
  /** Whether the user was verified (default true). */
  userVerified?: boolean
  /** The counter to sign with (default: the credential's next one). */
  counter?: number
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = []

  /** `counts`: a counter that goes up on each use (false: always 0, as synced passkeys do). */
  constructor(
    readonly origin: string,
    readonly counts = true,
  ) {}

  /** A new credential for the options (or `again`, one made before, attested once more). */
  async create(options: PublicKeyCredentialCreationOptionsJSON, lies: Lies = {}, again?: Credential): Promise<RegistrationResponseJSON> {
    const rpId = options.rp.id!
    const credential: Credential = again ?? {
      id: crypto.getRandomValues(new Uint8Array(32)),
      keys: (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair,
      rpId,
      userHandle: options.user.id,
      counter: 0,
    }
    if (!again) this.credentials.push(credential)
    const { id, keys } = credential
    const raw = new Uint8Array(await crypto.subtle.exportKey('raw', keys.publicKey))
    const coseKey = cbor(new Map<number, CborValue>([[1, 2], [3, -7], [-1, 1], [-2, raw.subarray(1, 33)], [-3, raw.subarray(33, 65)]]))
    const flags = UP | (lies.userVerified === false ? 0 : UV) | AT
    const authData = concat(await sha256(new TextEncoder().encode(lies.rpId ?? rpId)), Uint8Array.of(flags), uint32(lies.counter ?? 0), new Uint8Array(16), Uint8Array.of(id.length >> 8, id.length & 0xff), id, coseKey)
    const clientDataJSON = text({ type: lies.type ?? 'webauthn.create', challenge: lies.challenge ?? options.challenge, origin: lies.origin ?? this.origin, crossOrigin: false })
    const credentialId = isoBase64URL.fromBuffer(id)
    return {
      id: credentialId,
      rawId: credentialId,
      type: 'public-key',
      response: { clientDataJSON, attestationObject: isoBase64URL.fromBuffer(cbor({ fmt: 'none', attStmt: {}, authData })), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    }
  }

  /** Answers with the first credential of the rp (allowed by the options, if they name any). */
  async get(options: PublicKeyCredentialRequestOptionsJSON, lies: Lies = {}, credential = this.pick(options)): Promise<AuthenticationResponseJSON> {
    if (this.counts && lies.counter === undefined) credential.counter++
    const counter = lies.counter ?? credential.counter
    const flags = UP | (lies.userVerified === false ? 0 : UV)
    const authData = concat(await sha256(new TextEncoder().encode(lies.rpId ?? credential.rpId)), Uint8Array.of(flags), uint32(counter))
    const clientData = new TextEncoder().encode(JSON.stringify({ type: lies.type ?? 'webauthn.get', challenge: lies.challenge ?? options.challenge, origin: lies.origin ?? this.origin, crossOrigin: false }))
    const signature = der(new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, credential.keys.privateKey, concat(authData, await sha256(clientData)))))
    const credentialId = isoBase64URL.fromBuffer(credential.id)
    return {
      id: credentialId,
      rawId: credentialId,
      type: 'public-key',
      response: { clientDataJSON: isoBase64URL.fromBuffer(clientData), authenticatorData: isoBase64URL.fromBuffer(authData), signature: isoBase64URL.fromBuffer(signature), userHandle: credential.userHandle },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    }
  }

  private pick(options: PublicKeyCredentialRequestOptionsJSON): Credential {
    const allowed = options.allowCredentials?.map((c) => c.id)
    const found = this.credentials.find((c) => c.rpId === options.rpId && (!allowed || allowed.length === 0 || allowed.includes(isoBase64URL.fromBuffer(c.id))))
    if (!found) throw new Error('no credential for these options')
    return found
  }
}
