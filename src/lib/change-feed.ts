/**
 * Tells the read caches that data changed. Services publish what they changed; caches subscribe.
 * `all` is for changes whose extent is unknown, such as a write by another process.
 */
export type Change =
  | {
      kind: 'page'
      pageId: number
      /**
       * What a lookup by slug or domain finds may have changed: the page was created, renamed,
       * shown, hidden, blocked, unblocked or moved to another plan. Caches then also drop their
       * negative answers ("no such page"), which are not tagged with any page.
       */
      lookups?: boolean
      /** Only new check results (response times, uptime) changed: nothing configured. Not sent to other servers. */
      resultsOnly?: boolean
      /** Received from another server (PostgreSQL): not sent back out. */
      remote?: boolean
    }
  | { kind: 'all'; remote?: boolean }

export class ChangeFeed {
  private readonly listeners = new Set<(change: Change) => void>()

  subscribe(listener: (change: Change) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  publish(change: Change): void {
    for (const listener of this.listeners) listener(change)
  }

  pageChanged(pageId: number, options: { lookups?: boolean; resultsOnly?: boolean } = {}): void {
    const change: Change = { kind: 'page', pageId }
    if (options.lookups) change.lookups = true
    if (options.resultsOnly) change.resultsOnly = true
    this.publish(change)
  }
}
