/** A binary min-heap on `at` (the scheduler's next runs). Pure. */
export interface HeapEntry {
  id: number
  at: number
}

export class MinHeap {
  private readonly items: HeapEntry[] = []

  get size(): number {
    return this.items.length
  }

  peek(): HeapEntry | undefined {
    return this.items[0]
  }

  push(entry: HeapEntry): void {
    const items = this.items
    items.push(entry)
    let i = items.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (items[parent]!.at <= entry.at) break
      items[i] = items[parent]!
      i = parent
    }
    items[i] = entry
  }

  pop(): HeapEntry | undefined {
    const items = this.items
    const top = items[0]
    const last = items.pop()
    if (top === undefined || last === undefined || items.length === 0) return top
    let i = 0
    for (;;) {
      const left = 2 * i + 1
      if (left >= items.length) break
      const right = left + 1
      const child = right < items.length && items[right]!.at < items[left]!.at ? right : left
      if (items[child]!.at >= last.at) break
      items[i] = items[child]!
      i = child
    }
    items[i] = last
    return top
  }
}
