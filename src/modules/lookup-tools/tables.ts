import type { Generated } from 'kysely'

export interface ToolChecksTable {
  id: Generated<number>
  user_id: number
  /** dns | ssl | dnsbl | spf | dkim | dmarc | mx */
  tool: string
  target: string
  status: string
  summary: string
  result_json: string
  created_at: number
}
