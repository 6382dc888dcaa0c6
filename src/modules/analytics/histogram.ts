/**
 * Response-time histograms with logarithmic buckets (each 10 % wider than the last), stored as
 * little BLOBs of uint32 counts. Percentiles read from them are within about ±5 % of the exact value,
 * and histograms add and subtract exactly, which makes running totals possible.
 */
const RATIO = 1.1
const LOG_RATIO = Math.log(RATIO)
const BUCKETS = 150 // 1.1^148 ms ≈ 1.3 million ms: beyond any timeout

export function bucketOf(ms: number): number {
  if (ms < 1) return 0
  return Math.min(BUCKETS - 1, 1 + Math.floor(Math.log(ms) / LOG_RATIO))
}

/** The value a bucket stands for: its geometric middle. */
export function bucketValue(bucket: number): number {
  return bucket === 0 ? 0 : Math.pow(RATIO, bucket - 1 + 0.5)
}

export const emptyHistogram = (): Uint32Array => new Uint32Array(BUCKETS)

export function decode(blob: Uint8Array | null | undefined): Uint32Array {
  const out = emptyHistogram()
  if (!blob || blob.byteLength === 0) return out
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength)
  for (let i = 0; i < Math.min(BUCKETS, blob.byteLength >> 2); i++) out[i] = view.getUint32(i * 4, true)
  return out
}

/** Encodes without trailing empty buckets. */
export function encode(histogram: Uint32Array): Uint8Array {
  let length = histogram.length
  while (length > 0 && histogram[length - 1] === 0) length--
  const bytes = new Uint8Array(length * 4)
  const view = new DataView(bytes.buffer)
  for (let i = 0; i < length; i++) view.setUint32(i * 4, histogram[i]!, true)
  return bytes
}

export function addInto(target: Uint32Array, source: Uint32Array, sign = 1): void {
  for (let i = 0; i < BUCKETS; i++) target[i] = target[i]! + sign * source[i]!
}

/** The `q` quantile (0..1) of a histogram, rounded to whole ms; null when it is empty. */
export function quantile(histogram: Uint32Array, q: number): number | null {
  let total = 0
  for (const count of histogram) total += count
  if (total === 0) return null
  const rank = Math.ceil(q * total)
  let seen = 0
  for (let i = 0; i < BUCKETS; i++) {
    seen += histogram[i]!
    if (seen >= rank) return Math.round(bucketValue(i))
  }
  return Math.round(bucketValue(BUCKETS - 1))
}
