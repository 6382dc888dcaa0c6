/**
 * Tells the read caches that data changed. Services publish what they changed; caches subscribe.
 * `all` is for changes whose extent is unknown, such as a write by another process.
 */
export type Change = { kind: 'page'; pageId: number } | { kind: 'all' }

export class ChangeFeed {
  private readonly listeners = new Set<(change: Change) => void>()

  subscribe(listener: (change: Change) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  publish(change: Change): void {
    for (const listener of this.listeners) listener(change)
  }

  pageChanged(pageId: number): void {
    this.publish({ kind: 'page', pageId })
  }
}
