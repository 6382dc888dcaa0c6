/** One wording for why a check attempt threw, shared by every check type and the lookup tools. */
import { AddressRefused } from '../../lib/address-guard.ts'
import { explainNetworkError } from '../../lib/network-errors.ts'

/**
 * A short reason for a thrown error: a timeout, a refusal, a sentence for a known network, DNS or
 * TLS error (src/lib/network-errors.ts), else the error's code and message.
 */
export function describeFailure(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `timed out after ${timeoutMs} ms`
  if (error instanceof AddressRefused) return `refused: ${error.message}`
  const explained = explainNetworkError(error)
  if (explained) return explained
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message.replace(/ For more information, pass `verbose: true`.*$/, '') : String(error)
  return typeof code === 'string' && !message.startsWith(code) ? `${code}: ${message}` : message
}
