import type { Generated } from 'kysely'

/** Instance-level probe tokens: one region each; only the secret's SHA-256 is stored. */
export interface ProbeTokensTable {
  id: Generated<number>
  region: string
  /** The token's public part (`lpt_<public_id>_<secret>`): the lookup key. */
  public_id: string
  secret_hash: string
  created_at: number
  last_used_at: number | null
  revoked_at: number | null
}
