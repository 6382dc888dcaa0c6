/**
 * A raw Kysely statement built and compiled once, then bound per call. Kysely rebuilds a `sql`
 * template's node tree (frozen objects) and walks it to text on every execution; for the snapshot
 * statement, a dozen nested sub-selects, that was ~10 % of a cold status read's CPU (profiled).
 * The text never changes for a given shape, only the values do, so it is compiled with a marker in
 * each named slot and each call puts its values where the markers were, in compile order.
 */
import type { CompiledQuery, Kysely, RawBuilder } from 'kysely'

/** Stands in for a value while the text is compiled (a plain object: Kysely binds it as a parameter). */
class SlotMarker {
  constructor(readonly name: string) {}
}

/**
 * `build` receives one marker per slot name and returns the statement; the result compiles it on
 * first use and answers each call with the same text and that call's values. Values that are not
 * slots (constants in the template) keep what they were when compiled.
 */
export function compiledOnce<K extends string, R = unknown>(
  build: (slot: Readonly<Record<K, unknown>>) => RawBuilder<R>,
): (db: Kysely<any>, values: Readonly<Record<K, unknown>>) => CompiledQuery<R> {
  let compiled: CompiledQuery<R> | undefined
  let slots: Array<SlotMarker | unknown> = []
  return (db, values) => {
    if (compiled === undefined) {
      const markers = new Proxy({} as Record<K, SlotMarker>, { get: (_, name) => new SlotMarker(String(name)) })
      compiled = build(markers).compile(db)
      slots = [...compiled.parameters]
    }
    const parameters = slots.map((slot) => {
      if (!(slot instanceof SlotMarker)) return slot
      const value = values[slot.name as K]
      if (value === undefined) throw new Error(`compiledOnce: no value for slot ${slot.name}`)
      return value
    })
    return { ...compiled, parameters }
  }
}
