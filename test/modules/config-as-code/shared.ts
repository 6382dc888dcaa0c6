/**
 * What the configuration-as-code service tests share: apply's options as a test gives them (no
 * secrets unless named, the audit's address and client fixed), and the HTTP error a plan or apply is
 * refused with.
 */
import { HttpError } from '../../../src/lib/errors.ts'

export const applyOptions = (options: { prune?: boolean; env?: Record<string, string> } = {}) => ({ prune: options.prune ?? false, env: options.env ?? {}, address: '127.0.0.1', client: 'test' })

/** The error a promise is refused with (status and words); a promise that resolves fails the test. */
export async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, message: error.message }
    throw error
  }
  throw new Error('expected a refusal')
}

/** The same as one line, `400 pages "a": …`. */
export async function refusalText(promise: Promise<unknown>): Promise<string> {
  const { status, message } = await refusal(promise)
  return `${status} ${message}`
}
