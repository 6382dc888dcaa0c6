/** The password-reset mail, as plain text. */
import type { OutboundMail } from '../notify/contract.ts'
import { formatDateTime } from '../../lib/human-time.ts'

export function resetMail(to: string, link: string, expiresAt: number): OutboundMail {
  return {
    to,
    subject: 'Reset your Lantern password',
    text: `Someone asked to reset the password of the Lantern account ${to}.

Choose a new password here:
${link}

The link works once and expires on ${formatDateTime(expiresAt)} (30 minutes after it was sent).
Setting a new password logs the account out everywhere.

If you did not ask for this, ignore this mail: your password stays as it is.

-- 
Lantern`,
  }
}
