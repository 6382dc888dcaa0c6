/**
 * The JSON the web app's passkey script exchanges with the server: the browser's answers to
 * `navigator.credentials.create` and `.get` (base64url fields, as WebAuthn's JSON form has them)
 * and the options the server makes. Screen-internal (cookie session, the web app's own script):
 * they stay out of the API reference, like the screens.
 */
import { t } from 'elysia'
import { PASSKEY_NAME_MAX } from './types.ts'

/** base64url text of at most `max` characters. */
const B64 = (max: number, description: string) => t.String({ pattern: '^[A-Za-z0-9_-]*$', maxLength: max, description })

const Common = {
  id: B64(1400, 'The credential id'),
  rawId: B64(1400, 'The credential id again'),
  type: t.Literal('public-key'),
  authenticatorAttachment: t.Optional(t.Union([t.Literal('platform'), t.Literal('cross-platform')])),
  clientExtensionResults: t.Object({}, { additionalProperties: true, maxProperties: 20 }),
}

export const RegistrationResponse = t.Object({
  ...Common,
  response: t.Object({
    clientDataJSON: B64(4000, 'The client data (JSON)'),
    attestationObject: B64(40_000, 'The attestation object (CBOR)'),
    authenticatorData: t.Optional(B64(40_000, 'The authenticator data')),
    transports: t.Optional(t.Array(t.String({ maxLength: 20 }), { maxItems: 10 })),
    publicKeyAlgorithm: t.Optional(t.Integer()),
    publicKey: t.Optional(B64(4000, 'The public key (SPKI)')),
  }),
})

export const AuthenticationResponse = t.Object({
  ...Common,
  response: t.Object({
    clientDataJSON: B64(4000, 'The client data (JSON)'),
    authenticatorData: B64(4000, 'The authenticator data'),
    signature: B64(2000, 'The signature'),
    userHandle: t.Optional(B64(200, 'The user handle of a discoverable credential')),
  }),
})

export const AddPasskeyBody = t.Object({
  name: t.String({ maxLength: PASSKEY_NAME_MAX * 4, description: 'The name the user gives the passkey' }),
  response: RegistrationResponse,
})

/** Adding a passkey starts with the password: a passkey signs in alone, so a stolen session must not be enough to add one. */
export const RegistrationOptionsBody = t.Object({
  password: t.String({ maxLength: 1024, description: 'The account password' }),
})

export const PasskeySignInBody = t.Object({
  response: AuthenticationResponse,
  next: t.Optional(t.String({ maxLength: 4000, description: 'Where to go once signed in (a path of this site)' })),
})

/** Options for `navigator.credentials.create` / `.get`, in WebAuthn's JSON form. */
export const CeremonyOptions = t.Object({ challenge: t.String() }, { additionalProperties: true, description: 'WebAuthn options in their JSON form' })

/** Where the script goes next. */
export const NextLocation = t.Object({ location: t.String({ description: 'The page to open next' }) })

/** The shared error body. */
export const ErrorBody = t.Object({ error: t.String() })
