/**
 * Remembers a pure function of a string for the last few distinct inputs. Hot reads see the same
 * few URLs again and again; reading one (query parsed, slug normalised, key built) costs more than
 * a Map lookup of its text. Bounded: when full it starts over, so random URLs cost memory only up
 * to `max` entries and never change an answer (the function is pure). Texts for which `keepOut`
 * is true (they carry a secret) are read every time and never kept.
 */
export function memoizeByText<T>(read: (text: string) => T, options: { max?: number; keepOut?: (text: string) => boolean } = {}): (text: string) => T {
  const max = options.max ?? 1024
  const keepOut = options.keepOut
  let memo = new Map<string, T>()
  return (text) => {
    let value = memo.get(text)
    if (value === undefined) {
      value = read(text)
      if (keepOut?.(text)) return value
      if (memo.size >= max) memo = new Map()
      memo.set(text, value)
    }
    return value
  }
}

/** URLs with an embed token (`auth_token`): never remembered. */
export const carriesToken = (url: string): boolean => url.includes('auth_token=')
