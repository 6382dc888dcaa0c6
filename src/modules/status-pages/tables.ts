import type { Generated } from 'kysely'

export type Visibility = 'public' | 'private'

export interface StatusPagesTable {
  id: Generated<number>
  owner_id: number
  slug: string
  name: string
  custom_domain: string | null
  visibility: Visibility
  blocked: Generated<number>
  created_at: number
  updated_at: number
}
