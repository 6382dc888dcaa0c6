/**
 * Remembers a pure function of a string for the last few distinct inputs. Hot reads see the same
 * few URLs again and again; reading one (query parsed, slug normalised, key built) costs more than
 * a Map lookup of its text. Bounded: when full it starts over, so random URLs cost memory only up
 * to `max` entries and never change an answer (the function is pure).
 */
export function memoizeByText<T>(read: (text: string) => T, max = 1024): (text: string) => T {
  let memo = new Map<string, T>()
  return (text) => {
    let value = memo.get(text)
    if (value === undefined) {
      value = read(text)
      if (memo.size >= max) memo = new Map()
      memo.set(text, value)
    }
    return value
  }
}
