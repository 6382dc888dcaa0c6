/** The one place that picks an adapter for a channel type. */
import type { Delivery } from '../../notify/contract.ts'
import type { EventView } from '../event-view.ts'
import type { ChannelType } from '../types.ts'
import { discordRequest } from './discord.ts'
import { eventMail, outageThreadId } from './email.ts'
import { ntfyRequest } from './ntfy.ts'
import { pagerDutyRequest, pagerDutyTestRequests } from './pagerduty.ts'
import { slackRequest } from './slack.ts'
import { teamsRequest } from './teams.ts'
import { telegramRequest } from './telegram.ts'
import { webhookRequest } from './webhook.ts'

export { webhookDocsUrl } from './webhook.ts'

/** Base URLs of the services (config: TELEGRAM_API_URL, SLACK_API_URL, NTFY_URL, PAGERDUTY_EVENTS_URL), the settings link of mails, the webhook guide. */
export interface AdapterUrls {
  telegramApiUrl: string
  slackApiUrl: string
  ntfyUrl: string
  pagerDutyEventsUrl: string
  manageUrl: string
  webhookDocsUrl: string
  /** The From address's domain: outage threads' Message-IDs (absent: mails are not threaded). */
  mailDomain?: string
}


export async function deliveryFor(
  channel: { id: number; type: ChannelType; settings: Record<string, string> },
  view: EventView,
  urls: AdapterUrls,
): Promise<Delivery> {
  const target = `channel:${channel.id}`
  const s = channel.settings
  switch (channel.type) {
    case 'email':
      return { target, mail: eventMail(view, s.address!, urls.manageUrl, view.outage && urls.mailDomain ? await outageThreadId(channel.id, view.outage.key, urls.mailDomain) : undefined) }
    case 'webhook':
      return { target, request: webhookRequest(view, { url: s.url! }, urls.webhookDocsUrl) }
    case 'slack':
      return { target, request: slackRequest(view, s, urls.slackApiUrl) }
    case 'discord':
      return { target, request: discordRequest(view, { url: s.url! }) }
    case 'teams':
      return { target, request: teamsRequest(view, { url: s.url! }) }
    case 'telegram':
      return { target, request: telegramRequest(view, { bot_token: s.bot_token!, chat_id: s.chat_id! }, urls.telegramApiUrl) }
    case 'ntfy':
      return { target, request: ntfyRequest(view, { topic: s.topic!, access_token: s.access_token }, urls.ntfyUrl) }
    case 'pagerduty':
      return { target, request: pagerDutyRequest(view, { routing_key: s.routing_key! }, urls.pagerDutyEventsUrl) }
  }
}

/** The deliveries of "Send test": one, but for PagerDuty the alert and its resolve (no alert stays open). */
export async function testDeliveriesFor(
  channel: { id: number; type: ChannelType; settings: Record<string, string> },
  view: EventView,
  urls: AdapterUrls,
): Promise<Delivery[]> {
  if (channel.type !== 'pagerduty') return [await deliveryFor(channel, view, urls)]
  const target = `channel:${channel.id}`
  return pagerDutyTestRequests(view, { routing_key: channel.settings.routing_key! }, urls.pagerDutyEventsUrl).map((request) => ({ target, request }))
}
