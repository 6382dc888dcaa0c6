/** Requests that are not a person looking at a page: crawlers, link previews, monitors, prefetches. */

const BOT_USER_AGENT =
  /bot\b|bot\/|crawl|spider|slurp|archiver|facebookexternalhit|embedly|preview|headless|phantomjs|puppeteer|playwright|selenium|lighthouse|pagespeed|curl\/|wget\/|httpie|python-requests|python-urllib|aiohttp|go-http-client|java\/|okhttp|axios\/|node-fetch|undici|libwww|scrapy|feedfetcher|rss|monitor|uptime|pingdom|statuscake|check_http|zgrab|masscan|nmap/i

export function isBotRequest(request: Request): boolean {
  const agent = request.headers.get('user-agent')?.trim() ?? ''
  if (agent.length === 0 || agent.length > 1024) return true
  if (BOT_USER_AGENT.test(agent)) return true
  // Speculative loads (link prefetch, prerender) are not views.
  const purpose = request.headers.get('sec-purpose') ?? request.headers.get('purpose') ?? request.headers.get('x-moz')
  return purpose !== null && /prefetch|prerender/i.test(purpose)
}
