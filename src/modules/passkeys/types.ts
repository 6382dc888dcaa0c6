/** Passkeys: what the screens show and the limits both the schemas and the service read. */

/** A name the user gives a passkey ("Work laptop"), shown in the list. */
export const PASSKEY_NAME_MAX = 60
/** Passkeys per account: enough for every device a person has, few enough to list on one screen. */
export const PASSKEYS_PER_USER = 20
/** A ceremony (add, sign in, second step) must end within this long after its options were made. */
export const CEREMONY_TTL_MS = 5 * 60_000

export interface Passkey {
  id: number
  name: string
  createdAt: number
  lastUsedAt: number | null
  /** The transports the browser reported ('internal', 'hybrid', 'usb'…). */
  transports: string[]
}
