/**
 * The group-commit writer on its own: rows queued in one turn go in one write, in order; rows
 * queued during a write go in the next; a failed batch is written again row by row so only the bad
 * row's caller hears the error; flush writes what is queued without waiting for the next turn.
 * The store is an array; its write is held open by a promise the test releases, never a sleep.
 */
import { expect, test } from 'bun:test'
import { BatchedWriter, powerOfTwoChunks } from '../../src/lib/batched-writes.ts'

/** A store whose writes are recorded; `hold()` keeps the next write open until released. */
function store(options: { fails?: (rows: readonly number[]) => boolean } = {}) {
  const written: number[][] = []
  const attempts: number[][] = []
  let held: PromiseWithResolvers<void> | undefined
  return {
    written,
    attempts,
    hold() {
      held = Promise.withResolvers<void>()
      return held
    },
    async write(rows: readonly number[]) {
      attempts.push([...rows])
      const gate = held
      held = undefined
      if (gate) await gate.promise
      if (options.fails?.(rows)) throw new Error(`refused ${rows.join(',')}`)
      written.push([...rows])
    },
  }
}

test('chunks are powers of two, largest first, none above the largest', () => {
  const sizes = (n: number, largest?: number) => powerOfTwoChunks(Array.from({ length: n }, (_, i) => i), largest).map((chunk) => chunk.length)
  expect(sizes(0)).toEqual([])
  expect(sizes(1)).toEqual([1])
  expect(sizes(37)).toEqual([32, 4, 1])
  expect(sizes(64)).toEqual([64])
  expect(sizes(200)).toEqual([64, 64, 64, 8])
  expect(sizes(7, 4)).toEqual([4, 2, 1])
  // The rows keep their order across chunks.
  expect(powerOfTwoChunks([1, 2, 3, 4, 5, 6, 7]).flat()).toEqual([1, 2, 3, 4, 5, 6, 7])
})

test('rows queued in one turn go in one write, in order; each add answers once its row is written', async () => {
  const s = store()
  const writer = new BatchedWriter<number>({ write: s.write })
  const adds = Array.from({ length: 20 }, (_, i) => writer.add(i))
  expect(writer.pending).toBe(20)
  expect(s.attempts).toEqual([])
  await Promise.all(adds)
  expect(s.written).toEqual([Array.from({ length: 20 }, (_, i) => i)])
  expect(writer.pending).toBe(0)
})

test('rows queued while a write runs go in the next one, after it', async () => {
  const s = store()
  const writer = new BatchedWriter<number>({ write: s.write })
  const gate = s.hold()
  const first = [writer.add(1), writer.add(2)]
  // The first write has started and waits on the gate: these queue behind it.
  while (s.attempts.length === 0) await new Promise((resolve) => setImmediate(resolve))
  let laterDone = false
  const later = Promise.all([writer.add(3), writer.add(4), writer.add(5)]).then(() => (laterDone = true))
  await new Promise((resolve) => setImmediate(resolve))
  expect(s.attempts).toEqual([[1, 2]])
  expect(laterDone).toBe(false)
  gate.resolve()
  await Promise.all([...first, later])
  expect(s.written).toEqual([[1, 2], [3, 4, 5]])
})

test('maxRows splits a long queue into writes of at most that many, in order', async () => {
  const s = store()
  const writer = new BatchedWriter<number>({ write: s.write, maxRows: 4 })
  await Promise.all(Array.from({ length: 10 }, (_, i) => writer.add(i)))
  expect(s.written).toEqual([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]])
})

test('a failed batch is written again row by row: only the bad row is refused, the rest land in order', async () => {
  const s = store({ fails: (rows) => rows.includes(13) })
  const writer = new BatchedWriter<number>({ write: s.write })
  const outcomes = await Promise.allSettled([11, 12, 13, 14].map((row) => writer.add(row)))
  expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled'])
  expect((outcomes[2] as PromiseRejectedResult).reason).toEqual(new Error('refused 13'))
  expect(s.written).toEqual([[11], [12], [14]])
  // The writer goes on after a failure.
  await writer.add(15)
  expect(s.written.at(-1)).toEqual([15])
})

test('when the store fails every write, every caller hears it: nothing is lost silently', async () => {
  const s = store({ fails: () => true })
  const writer = new BatchedWriter<number>({ write: s.write })
  const outcomes = await Promise.allSettled([1, 2, 3].map((row) => writer.add(row)))
  expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected'])
  expect(s.written).toEqual([])
  expect(writer.pending).toBe(0)
})

test('flush writes what is queued without waiting for the next turn, and waits for a write in progress', async () => {
  const s = store()
  // A turn that never comes: only flush writes.
  const writer = new BatchedWriter<number>({ write: s.write, schedule: () => {} })
  const adds = [writer.add(1), writer.add(2)]
  const gate = s.hold()
  let flushed = false
  const flushing = writer.flush().then(() => (flushed = true))
  expect(s.attempts).toEqual([[1, 2]])
  // Queued during the write: the same flush takes it too.
  const third = writer.add(3)
  await Promise.resolve()
  expect(flushed).toBe(false)
  gate.resolve()
  await flushing
  await Promise.all([...adds, third])
  expect(s.written).toEqual([[1, 2], [3]])
  expect(writer.pending).toBe(0)
  // Nothing queued: flush answers at once.
  await writer.flush()
})

test('flush does not throw when rows fail: their callers hear it', async () => {
  const s = store({ fails: () => true })
  const writer = new BatchedWriter<number>({ write: s.write, schedule: () => {} })
  const add = writer.add(1)
  await writer.flush()
  await expect(add).rejects.toThrow('refused 1')
})
