/**
 * The limits on pushed check results, read by both the request schemas (model.ts) and the service.
 */
export const MAX_CHECKS_PER_BATCH = 1000
export const MAX_RESPONSE_MS = 600_000
