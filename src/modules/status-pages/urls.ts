import type { Config } from '../../config.ts'

/** Where a status page is visited: its custom domain when it has one, else `<slug>.<STATUS_DOMAIN>`. */
export function statusPageUrl(
  page: { slug: string; customDomain: string | null },
  config: Pick<Config, 'scheme' | 'statusDomain'>,
): string {
  const host = page.customDomain ?? `${page.slug}.${config.statusDomain}`
  return `${config.scheme}://${host}`
}
