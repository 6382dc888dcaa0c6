/**
 * The order a page shows its components in (pure), and moves within it. The public page groups by
 * position: a named group stands where its first member does, neighbouring ungrouped components
 * share one block (status-site/render/page.ts groupInPageOrder). Moves work on those blocks, so
 * every "Move up" changes what visitors see, and the result is the flat id list
 * `ComponentsService.reorder` takes.
 */

export interface OrderBlock<T> {
  /** null for a run of ungrouped components. */
  group: string | null
  items: T[]
}

/** Blocks in page order; `items` must come sorted by position. */
export function pageBlocks<T extends { group: string | null }>(items: readonly T[]): OrderBlock<T>[] {
  const blocks: OrderBlock<T>[] = []
  const named = new Map<string, OrderBlock<T>>()
  for (const item of items) {
    if (item.group === null) {
      const last = blocks.at(-1)
      if (last && last.group === null) last.items.push(item)
      else blocks.push({ group: null, items: [item] })
      continue
    }
    let block = named.get(item.group)
    if (!block) {
      block = { group: item.group, items: [] }
      named.set(item.group, block)
      blocks.push(block)
    }
    block.items.push(item)
  }
  return blocks
}

export type Direction = 'up' | 'down'

const flatIds = <T extends { id: number }>(blocks: ReadonlyArray<OrderBlock<T>>): number[] => blocks.flatMap((block) => block.items.map((item) => item.id))

function swap<T>(list: T[], index: number, direction: Direction): boolean {
  const other = direction === 'up' ? index - 1 : index + 1
  if (index < 0 || other < 0 || other >= list.length) return false
  ;[list[index], list[other]] = [list[other]!, list[index]!]
  return true
}

/**
 * The ids in page order after moving component `id` one place within its block; undefined when it
 * is not there or already first (last) of its block.
 */
export function moveComponent<T extends { id: number; group: string | null }>(items: readonly T[], id: number, direction: Direction): number[] | undefined {
  const blocks = pageBlocks(items)
  const block = blocks.find((b) => b.items.some((item) => item.id === id))
  if (!block || !swap(block.items, block.items.findIndex((item) => item.id === id), direction)) return undefined
  return flatIds(blocks)
}

/**
 * The ids in page order after moving the block that holds component `id` past its neighbour;
 * undefined at the ends or when no block holds it. Naming the block by a member (not by its index)
 * keeps a form posted from an older copy of the list from moving another group. Two runs of
 * ungrouped components that meet become one block, as on the public page.
 */
export function moveBlock<T extends { id: number; group: string | null }>(items: readonly T[], id: number, direction: Direction): number[] | undefined {
  const blocks = pageBlocks(items)
  if (!swap(blocks, blocks.findIndex((block) => block.items.some((item) => item.id === id)), direction)) return undefined
  return flatIds(blocks)
}
