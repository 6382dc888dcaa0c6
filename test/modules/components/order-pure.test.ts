import { describe, expect, test } from 'bun:test'
import { moveBlock, moveComponent, pageBlocks } from '../../../src/modules/components/order.ts'

const items = [
  { id: 1, group: null },
  { id: 2, group: 'Backend' },
  { id: 3, group: null },
  { id: 4, group: 'Backend' },
  { id: 5, group: 'Edge' },
]

describe('page order blocks', () => {
  test('a group stands where its first member does; ungrouped runs are blocks of their own', () => {
    expect(pageBlocks(items).map((b) => [b.group, b.items.map((i) => i.id)])).toEqual([
      [null, [1]],
      ['Backend', [2, 4]],
      [null, [3]],
      ['Edge', [5]],
    ])
  })

  test('moving a component stays inside its block and always changes what is shown', () => {
    expect(moveComponent(items, 4, 'up')).toEqual([1, 4, 2, 3, 5])
    expect(moveComponent(items, 2, 'down')).toEqual([1, 4, 2, 3, 5])
    expect(moveComponent(items, 2, 'up')).toBeUndefined()
    expect(moveComponent(items, 5, 'down')).toBeUndefined()
    expect(moveComponent(items, 99, 'up')).toBeUndefined()
  })

  test('moving a block (named by any member) swaps it with its neighbour; none past the ends', () => {
    expect(moveBlock(items, 4, 'up')).toEqual([2, 4, 1, 3, 5])
    expect(moveBlock(items, 5, 'up')).toEqual([1, 2, 4, 5, 3])
    expect(moveBlock(items, 1, 'up')).toBeUndefined()
    expect(moveBlock(items, 5, 'down')).toBeUndefined()
    expect(moveBlock(items, 99, 'down')).toBeUndefined()
  })
})
