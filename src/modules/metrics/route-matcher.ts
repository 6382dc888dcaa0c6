/**
 * Maps a request path to the route pattern that serves it (`/badge/acme.svg` → `/badge/:slug`), so
 * metrics carry one label per route instead of one per URL: slugs and ids never become labels.
 * Built once from the app's own route table; static segments win over parameters, as in the router,
 * and a trailing slash does not count (the router serves `/x/` and `/x` alike), so neither does it here.
 */

const withoutTrailingSlash = (path: string): string => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path)

interface Node {
  readonly statics: Map<string, Node>
  param: Node | undefined
  /** A pattern ending in `*` matches everything below this node. */
  wildcard: string | undefined
  /** The pattern that ends exactly here. */
  pattern: string | undefined
}

const node = (): Node => ({ statics: new Map(), param: undefined, wildcard: undefined, pattern: undefined })

export class RouteMatcher {
  private readonly root = node()

  constructor(patterns: Iterable<string>) {
    for (const pattern of patterns) this.add(pattern)
  }

  private add(rawPattern: string): void {
    const pattern = withoutTrailingSlash(rawPattern)
    let at = this.root
    for (const segment of pattern.slice(1).split('/')) {
      if (segment === '*') {
        at.wildcard ??= pattern
        return
      }
      if (segment.startsWith(':')) at = at.param ??= node()
      else {
        let next = at.statics.get(segment)
        if (!next) at.statics.set(segment, (next = node()))
        at = next
      }
    }
    at.pattern ??= pattern
  }

  /** The pattern for a path (no query string), or undefined when no route has its shape. */
  match(path: string): string | undefined {
    if (path.charCodeAt(0) !== 47 /* / */) return undefined
    const end = path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length
    return find(this.root, path, 1, end)
  }
}

/** Walks the segment starting at `start` (no arrays: this runs on every counted cache hit). */
function find(at: Node, path: string, start: number, end: number): string | undefined {
  if (start > end) return at.pattern ?? at.wildcard
  let stop = path.indexOf('/', start)
  if (stop === -1 || stop > end) stop = end
  const segment = path.slice(start, stop)
  const byStatic = at.statics.get(segment)
  const found =
    (byStatic && find(byStatic, path, stop + 1, end)) ?? (at.param && stop > start ? find(at.param, path, stop + 1, end) : undefined)
  return found ?? at.wildcard
}
