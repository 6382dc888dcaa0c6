/**
 * ASCII lines written straight into one growing buffer, from pieces encoded once: the per-monitor
 * families, where 10,000 monitors make 100,000 lines. Building them as strings cost about a third
 * more (a string per line, then joining and encoding 7 MB).
 */
import { valueText } from './exposition.ts'

export const encodeText = (text: string): Uint8Array => new TextEncoder().encode(text)

export class ByteWriter {
  private buffer = new Uint8Array(1 << 16)
  private length = 0

  /** Room for `bytes` more; answers the buffer to write into. */
  private room(bytes: number): Uint8Array {
    if (this.length + bytes > this.buffer.length) {
      let size = this.buffer.length * 2
      while (size < this.length + bytes) size *= 2
      const grown = new Uint8Array(size)
      grown.set(this.buffer.subarray(0, this.length))
      this.buffer = grown
    }
    return this.buffer
  }

  bytes(piece: Uint8Array): void {
    this.room(piece.length).set(piece, this.length)
    this.length += piece.length
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

  /** A whole number ≥ 0 (room for it already made). */
  private integer(value: number): void {
    let digits = 1
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++
    const buffer = this.buffer
    let at = this.length + digits
    this.length = at
    do {
      buffer[--at] = 48 + (value % 10)
      value = Math.floor(value / 10)
    } while (value > 0)
  }

  /** One line: `head`, the whole number `id`, `tail`, the sample's value and a line feed. */
  line(head: Uint8Array, id: number, tail: Uint8Array, value: number): void {
    const buffer = this.room(head.length + tail.length + 16)
    buffer.set(head, this.length)
    this.length += head.length
    this.integer(id)
    buffer.set(tail, this.length)
    this.length += tail.length
    this.value(value)
    this.room(1)[this.length++] = 10
  }

  result(): Uint8Array {
    return this.buffer.subarray(0, this.length)
  }
}
