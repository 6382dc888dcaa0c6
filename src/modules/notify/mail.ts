/** What the outbox worker needs from a mail transport (smtp-transport.ts is the real one). */
import type { OutboundMail } from './contract.ts'

/** An outbound mail with the Message-ID the worker gives it (stable across retries of one row). */
export interface SendableMail extends OutboundMail {
  messageId: string
}

export interface MailSender {
  /** The MAIL_FROM address the mails carry. */
  readonly from: string
  /** Resolves once the relay accepted the mail; throws when it did not. */
  send(mail: SendableMail): Promise<void>
  close(): Promise<void>
}

/** The domain of a From address (`Name <a@b.example>` → `b.example`), for Message-IDs. */
export function fromDomain(from: string): string {
  const match = /@([^\s<>@]+?)>?\s*$/.exec(from)
  return match?.[1]?.toLowerCase() ?? 'lantern.invalid'
}
