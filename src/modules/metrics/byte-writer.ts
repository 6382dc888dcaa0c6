/**
 * An exposition written straight into one growing buffer: text encoded in place, and the per-monitor
 * lines (10,000 monitors make 100,000) from pieces encoded once. Building those as strings cost about
 * a third more (a string per line, then joining and encoding 7 MB). A writer is reset and written
 * again scrape after scrape, so its 7 MB are allocated (and paged in) once, not every scrape.
 */
export const encodeText = (text: string): Uint8Array => new TextEncoder().encode(text)

const encoder = new TextEncoder()

/** A sample value: integers and decimals as JavaScript writes them, infinities and NaN as Prometheus does. */
export function valueText(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return '+Inf'
  if (value === Number.NEGATIVE_INFINITY) return '-Inf'
  return Number.isNaN(value) ? 'NaN' : String(value)
}

export class ByteWriter {
  private buffer: Uint8Array<ArrayBuffer>
  private length = 0
  /** Times reset: bytes once returned by result() stay as they were while this is unchanged. */
  private resets = 0

  /** `expectedBytes`: a good guess saves growing (and copying) the buffer as it fills. */
  constructor(expectedBytes = 1 << 16) {
    this.buffer = new Uint8Array(expectedBytes)
  }

  /** Starts again from nothing, keeping the buffer: bytes written before are overwritten from now on. */
  reset(): void {
    this.length = 0
    this.resets++
  }

  /** Changes each time the writer is reset (see `result`). */
  get version(): number {
    return this.resets
  }

  /** Room for `bytes` more, grown at once rather than doubling step by step as the bytes come. */
  reserve(bytes: number): void {
    this.room(bytes)
  }

  /** Room for `bytes` more; answers the buffer to write into. */
  private room(bytes: number): Uint8Array<ArrayBuffer> {
    if (this.length + bytes > this.buffer.length) {
      let size = this.buffer.length * 2
      while (size < this.length + bytes) size *= 2
      const grown = new Uint8Array(size)
      grown.set(this.buffer.subarray(0, this.length))
      this.buffer = grown
    }
    return this.buffer
  }

  /** Text as UTF-8. */
  text(text: string): void {
    // At most three bytes per UTF-16 unit.
    const buffer = this.room(text.length * 3)
    this.length += encoder.encodeInto(text, buffer.subarray(this.length)).written
  }

  bytes(piece: Uint8Array): void {
    this.room(piece.length).set(piece, this.length)
    this.length += piece.length
  }

  /** Bytes `start` to `end` of `from`; short runs byte by byte, cheaper than a view and a call to set. */
  copy(from: Uint8Array, start: number, end: number): void {
    const buffer = this.room(end - start)
    if (end - start < 128) for (let i = start; i < end; i++) buffer[this.length++] = from[i]!
    else {
      buffer.set(from.subarray(start, end), this.length)
      this.length += end - start
    }
  }

  /** A sample value as valueText writes it; whole numbers digit by digit, without a string. */
  value(value: number): void {
    if (Number.isSafeInteger(value) && value >= 0) {
      this.room(16)
      this.integer(value)
      return
    }
    const text = valueText(value)
    const buffer = this.room(text.length)
    for (let i = 0; i < text.length; i++) buffer[this.length++] = text.charCodeAt(i)
  }

  /** A whole number ≥ 0 (room for it already made); below 2³¹ in 32-bit steps, the common case. */
  private integer(value: number): void {
    const buffer = this.buffer
    if (value < 0x80000000) {
      let digits = 1
      for (let rest = value; rest >= 10; rest = (rest / 10) | 0) digits++
      let at = this.length + digits
      this.length = at
      let rest = value | 0
      do {
        const next = (rest / 10) | 0
        buffer[--at] = 48 + rest - next * 10
        rest = next
      } while (rest > 0)
      return
    }
    let digits = 1
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++
    let at = this.length + digits
    this.length = at
    do {
      buffer[--at] = 48 + (value % 10)
      value = Math.floor(value / 10)
    } while (value > 0)
  }

  /** One line: `head`, the whole number `id`, `tail`, the sample's value and a line feed. */
  line(head: Uint8Array, id: number, tail: Uint8Array, value: number): void {
    this.lineStart(head, id, tail)
    this.value(value)
    this.room(1)[this.length++] = 10
  }

  /** One line whose value is a time in whole milliseconds, written in seconds with up to three decimals. */
  timeLine(head: Uint8Array, id: number, tail: Uint8Array, ms: number): void {
    if (!Number.isSafeInteger(ms) || ms < 0) return this.line(head, id, tail, ms / 1000)
    this.lineStart(head, id, tail)
    const seconds = Math.floor(ms / 1000)
    let fraction = ms - seconds * 1000
    this.room(24)
    this.integer(seconds)
    if (fraction !== 0) {
      const buffer = this.buffer
      buffer[this.length++] = 46 // .
      for (let unit = 100; fraction !== 0; unit /= 10) {
        const digit = Math.floor(fraction / unit)
        buffer[this.length++] = 48 + digit
        fraction -= digit * unit
      }
    }
    this.buffer[this.length++] = 10
  }

  /** Heads and tails are short (under 100 bytes): byte by byte, as `copy` does short runs. */
  private lineStart(head: Uint8Array, id: number, tail: Uint8Array): void {
    const buffer = this.room(head.length + tail.length + 16)
    for (let i = 0; i < head.length; i++) buffer[this.length++] = head[i]!
    this.integer(id)
    for (let i = 0; i < tail.length; i++) buffer[this.length++] = tail[i]!
  }

  /** Bytes written so far. */
  get size(): number {
    return this.length
  }

  /** The bytes written since the last reset: a view, whose bytes stay as they are until the next reset (a later write only adds after them). */
  result(): Uint8Array<ArrayBuffer> {
    return this.buffer.subarray(0, this.length)
  }
}
