/** Schemas shared by every JSON API: the error body and numeric ids in paths. */
import { t } from 'elysia'

export const ErrorBody = t.Object({ error: t.String() }, { description: 'What went wrong, for people' })

export const IdParams = t.Object({
  id: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, error: 'id must be a positive integer' }),
})

export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
} as const
