/** The email-auth fields of the monitors API (typed `t` schemas). */
import { t } from 'elysia'
import { MAX_SELECTORS } from './dkim.ts'

export const DkimSelectorsSchema = t.Array(t.String({ minLength: 1, maxLength: 253 }), {
  maxItems: MAX_SELECTORS,
  error: `dkim_selectors must be a list of at most ${MAX_SELECTORS} selectors`,
  description: 'email_auth monitors: DKIM selectors to check (e.g. ["google", "s1"]); none: only whether any DKIM keys exist',
})
