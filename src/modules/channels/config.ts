/**
 * Base URLs of the chat services, configurable so tests and self-hosted ntfy work:
 * TELEGRAM_API_URL (default https://api.telegram.org), NTFY_URL (https://ntfy.sh),
 * PAGERDUTY_EVENTS_URL (https://events.pagerduty.com/v2/enqueue). Slack, Discord and Teams take the
 * full webhook URL the owner pastes.
 */
export interface ChannelsConfig {
  readonly telegramApiUrl: string
  readonly ntfyUrl: string
  readonly pagerDutyEventsUrl: string
}

type Env = Record<string, string | undefined>

function baseUrl(env: Env, name: string, fallback: string, fail: (message: string) => Error): string {
  const raw = env[name]?.trim() || fallback
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw fail(`${name} must be an absolute http(s) URL, got "${raw}"`)
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash) {
    throw fail(`${name} must be an http(s) URL without credentials, query or fragment, got "${raw}"`)
  }
  return url.href.replace(/\/+$/, '')
}

export function readChannelsConfig(env: Env, fail: (message: string) => Error): ChannelsConfig {
  return Object.freeze({
    telegramApiUrl: baseUrl(env, 'TELEGRAM_API_URL', 'https://api.telegram.org', fail),
    ntfyUrl: baseUrl(env, 'NTFY_URL', 'https://ntfy.sh', fail),
    pagerDutyEventsUrl: baseUrl(env, 'PAGERDUTY_EVENTS_URL', 'https://events.pagerduty.com/v2/enqueue', fail),
  })
}
