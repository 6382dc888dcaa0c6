import type { Generated } from 'kysely'

export type TransferStatus = 'pending' | 'accepted' | 'cancelled' | 'expired' | 'declined'

export interface PageTransfersTable {
  id: Generated<number>
  page_id: number
  from_user_id: number
  to_email_lower: string
  /** Null when no account had the address at the start: such a transfer can never be accepted. */
  to_user_id: number | null
  token_hash: string
  status: TransferStatus
  created_at: number
  expires_at: number
  decided_at: number | null
}
