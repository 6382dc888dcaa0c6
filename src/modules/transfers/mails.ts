/**
 * The transfer mails, as plain text (the outbox stores them; nothing here runs templates).
 * Page names are the owner's text: they contain no control characters (status-pages/service.ts),
 * so they are safe in a subject line.
 */
import type { OutboundMail } from '../notify/contract.ts'
import { formatDateTime } from '../../lib/human-time.ts'

export interface TransferMailFacts {
  pageName: string
  fromEmail: string
  toEmail: string
  expiresAt: number
}

/** What moves with the page and what stays behind: the mail, the accept screen and the guide say the same. */
export const WHAT_MOVES = [
  'components and their status history',
  'monitors (they count against your plan from now on)',
  'incidents and maintenance history',
  'subscribers',
  'settings, branding, the custom domain and the private-page password',
  'analytics history',
] as const

export const WHAT_STAYS = [
  "the previous owner's notification channels: attach your own after accepting",
  "the previous owner's API keys",
  'analytics share links: they are revoked',
] as const

const list = (items: readonly string[]) => items.map((item) => `  - ${item}`).join('\n')
const footer = '\n\n-- \nLantern'

export function offerMail(facts: TransferMailFacts, link: string): OutboundMail {
  return {
    to: facts.toEmail,
    subject: `${facts.fromEmail} wants to hand you the status page "${facts.pageName}"`,
    text: `${facts.fromEmail} wants to transfer the status page "${facts.pageName}" to your Lantern account.

Review and accept or decline it here (log in as ${facts.toEmail}):
${link}

The link expires on ${formatDateTime(facts.expiresAt)}.

What moves with the page:
${list(WHAT_MOVES)}

What does not move:
${list(WHAT_STAYS)}

If you do not expect this, ignore this mail or decline.${footer}`,
  }
}

export function offerSentMail(facts: TransferMailFacts): OutboundMail {
  return {
    to: facts.fromEmail,
    subject: `Transfer of "${facts.pageName}" started`,
    text: `You started the transfer of the status page "${facts.pageName}" to ${facts.toEmail}.

When ${facts.toEmail} has an account on this Lantern, they received a link to accept it. The offer
expires on ${formatDateTime(facts.expiresAt)}; until then you can cancel it on the page's settings screen.${footer}`,
  }
}

export function acceptedMails(facts: TransferMailFacts): { toOwner: OutboundMail; toRecipient: OutboundMail } {
  return {
    toOwner: {
      to: facts.fromEmail,
      subject: `"${facts.pageName}" now belongs to ${facts.toEmail}`,
      text: `${facts.toEmail} accepted the transfer of the status page "${facts.pageName}". It is no longer in your account.${footer}`,
    },
    toRecipient: {
      to: facts.toEmail,
      subject: `"${facts.pageName}" is now yours`,
      text: `You accepted the status page "${facts.pageName}" from ${facts.fromEmail}. It is in your list of pages now.

Attach your own notification channels to it: the previous owner's channels did not move.${footer}`,
    },
  }
}

export function declinedMails(facts: TransferMailFacts): { toOwner: OutboundMail; toRecipient: OutboundMail } {
  return {
    toOwner: {
      to: facts.fromEmail,
      subject: `Transfer of "${facts.pageName}" declined`,
      text: `${facts.toEmail} declined the transfer of the status page "${facts.pageName}". The page stays yours.${footer}`,
    },
    toRecipient: {
      to: facts.toEmail,
      subject: `You declined "${facts.pageName}"`,
      text: `You declined the transfer of the status page "${facts.pageName}" from ${facts.fromEmail}. Nothing changed in your account.${footer}`,
    },
  }
}

export function expiredMails(facts: TransferMailFacts): { toOwner: OutboundMail; toRecipient: OutboundMail } {
  return {
    toOwner: {
      to: facts.fromEmail,
      subject: `Transfer of "${facts.pageName}" expired`,
      text: `The transfer of the status page "${facts.pageName}" to ${facts.toEmail} was not accepted in time and expired. The page stays yours; you can start a new transfer.${footer}`,
    },
    toRecipient: {
      to: facts.toEmail,
      subject: `The offer of "${facts.pageName}" expired`,
      text: `The transfer of the status page "${facts.pageName}" from ${facts.fromEmail} expired before it was accepted. Its link no longer works.${footer}`,
    },
  }
}

export function cancelledMail(facts: TransferMailFacts): OutboundMail {
  return {
    to: facts.toEmail,
    subject: `The offer of "${facts.pageName}" was withdrawn`,
    text: `${facts.fromEmail} cancelled the transfer of the status page "${facts.pageName}". Its link no longer works.${footer}`,
  }
}
