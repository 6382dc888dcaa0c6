/** One wording for why a check attempt threw, shared by every check type. */
import { AddressRefused } from '../../lib/address-guard.ts'

/** A short reason for a thrown error: a timeout, a refusal, or the error's code and message. */
export function describeFailure(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `timed out after ${timeoutMs} ms`
  if (error instanceof AddressRefused) return `refused: ${error.message}`
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message.replace(/ For more information, pass `verbose: true`.*$/, '') : String(error)
  return typeof code === 'string' && !message.startsWith(code) ? `${code}: ${message}` : message
}
