/**
 * Form parts the incident and maintenance screens share: lists of ids from checkboxes (validated
 * with the API's own array schema), component statuses (the component API's schema), and
 * `datetime-local` times read in the owner's zone.
 */
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { schemaErrorSentence } from '../../lib/schema-errors.ts'
import { UpdateComponentBody } from '../../modules/components/model.ts'
import type { Component } from '../../modules/components/service.ts'
import type { ComponentStatus } from '../../modules/components/tables.ts'
import { readForm, type FormState } from '../kit/forms.ts'
import { isZone, localToIso } from '../kit/zones.ts'

/** Every value of a repeated field (checkboxes), as text. */
export function listValues(body: unknown, name: string): string[] {
  if (!body || typeof body !== 'object') return []
  const raw = (body as Record<string, unknown>)[name]
  const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]
  return values.filter((value) => typeof value === 'string' || typeof value === 'number').map(String)
}

/**
 * Ticked ids as the API's `component_ids` array, checked by the API's schema for it. The ticks are
 * kept in `state.values.component_ids` (comma-separated) to re-render the form.
 */
export function readIdList(arraySchema: TSchema, body: unknown, state: FormState, name = 'component_ids'): number[] | undefined {
  const raw = listValues(body, name)
  state.values[name] = raw.join(',')
  const ids = raw.map((value) => (/^\d{1,15}$/.test(value) ? Number(value) : value))
  const error = Value.Errors(arraySchema, ids).First()
  if (error) {
    state.errors[name] = schemaErrorSentence(name, error)
    return undefined
  }
  return ids as number[]
}

/** The statuses the form sets (`status_<id>` selects), only where they change; errors on their fields. */
export function readStatusChanges(body: unknown, components: Component[], state: FormState): Array<{ component: Component; status: ComponentStatus }> {
  const changes: Array<{ component: Component; status: ComponentStatus }> = []
  for (const component of components) {
    const name = `status_${component.id}`
    const raw = listValues(body, name).at(-1)
    if (raw === undefined) continue
    const form = readForm(UpdateComponentBody, { status: raw }, { only: ['status'] })
    if (!form.ok) {
      state.errors[name] = form.state.errors.status ?? 'status must be one of up, degraded, partial, down'
      continue
    }
    if (form.value.status !== undefined && form.value.status !== component.status) changes.push({ component, status: form.value.status })
  }
  return changes
}

/**
 * The zone the form names (`tz`) and its `datetime-local` fields as RFC 3339 UTC, written into
 * `body` for readForm. A malformed time is passed on as typed: the API's own check names the field.
 */
export function readLocalTimes(body: unknown, fields: readonly string[], state: FormState, fallbackZone: string): { body: Record<string, unknown>; zone: string } {
  const copy: Record<string, unknown> = { ...((body as Record<string, unknown> | null) ?? {}) }
  const asked = listValues(body, 'tz').at(-1)
  let zone = fallbackZone
  if (asked !== undefined && asked !== '') {
    if (isZone(asked)) zone = asked
    else state.errors.tz = 'tz must be a time zone from the list'
  }
  for (const field of fields) {
    const raw = listValues(body, field).at(-1)
    if (raw === undefined || raw === '') continue
    copy[field] = localToIso(raw, zone) ?? raw
  }
  return { body: copy, zone }
}
