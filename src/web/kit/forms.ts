/**
 * Forms of the owner's web app, validated with the API's own `t` schema (one set of rules):
 *
 *   const form = readForm(UpdateStatusPageBody, body, { only: ['name', 'slug'] })
 *   if (!form.ok) return render(view(form.state), 400)          // errors next to their fields
 *   try { await pages.update(user, id, form.value) }             // the service the API calls
 *   catch (error) { return render(view(serviceErrorState(error, form.state)), errorStatus(error)) }
 *
 * Conversion from form text, by the schema: "" → omitted (optional) or null (nullable); numbers;
 * booleans from checkboxes (absent = false); `date-time` strings and the fields named in `datetimes` from
 * `datetime-local` (read as UTC; `toDatetimeLocal(ms)` fills one).
 * Field helpers render label, control, hint and error (`aria-invalid`, `aria-describedby`); every
 * value is escaped, so markup typed into a field comes back as text.
 */
import type { Static, TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { html } from '../../lib/html.ts'
import { HttpError } from '../../lib/errors.ts'
import { schemaErrorSentence } from '../../lib/schema-errors.ts'

/** What the form last held (as typed) and what is wrong with it; `_form` is a form-level error. */
export interface FormState {
  values: Record<string, string>
  errors: Record<string, string>
}

export const emptyForm = (values: Record<string, string | null | undefined> = {}): FormState => ({
  values: Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value ?? ''])),
  errors: {},
})

export type FormResult<S extends TSchema> = { ok: true; value: Static<S>; state: FormState } | { ok: false; state: FormState }

/**
 * A parsed form body (Elysia's `body` for urlencoded or multipart) as text fields. Browsers send a
 * textarea's line breaks as CR LF: they become LF, as the API takes them (a CR is refused there).
 */
export function formFields(body: unknown): Record<string, string> {
  const fields: Record<string, string> = {}
  if (!body || typeof body !== 'object') return fields
  for (const [key, raw] of Object.entries(body as Record<string, unknown>)) {
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw
    if (typeof value === 'string') fields[key] = value.includes('\r') ? value.replace(/\r\n?/g, '\n') : value
    else if (typeof value === 'number' || typeof value === 'boolean') fields[key] = String(value)
    // Multipart fields that look like JSON arrive parsed (src/http/errors.ts guardBody): back to text.
    else if (value !== null && typeof value === 'object' && !(value instanceof Blob)) fields[key] = JSON.stringify(value)
  }
  return fields
}

interface FieldShape {
  kind: 'text' | 'number' | 'boolean' | 'datetime'
  nullable: boolean
}

function shapeOf(schema: TSchema): FieldShape {
  // Elysia's t.Integer, t.Numeric and t.BooleanString are unions with a string form; t.Nullable adds null
  // around them (a union in a union: flattened, or t.Nullable(t.Integer()) would read as text).
  const flatten = (s: TSchema): TSchema[] => (Array.isArray(s.anyOf) ? (s.anyOf as TSchema[]).flatMap(flatten) : [s])
  const members = flatten(schema)
  const nullable = members.some((member) => member.type === 'null')
  const has = (type: string) => members.some((member) => member.type === type)
  const kind =
    has('number') || has('integer')
      ? 'number'
      : has('boolean')
        ? 'boolean'
        : members.some((member) => member.type === 'string' && member.format === 'date-time')
          ? 'datetime'
          : 'text'
  return { kind, nullable }
}

/** `2026-11-23T10:30` (datetime-local) → `2026-11-23T10:30:00Z`; anything else is left to the schema. */
function fromDatetimeLocal(raw: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(raw) ? `${raw}:00Z` : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(raw) ? `${raw}Z` : raw
}

/** An instant as a `datetime-local` value in UTC (`2026-11-23T10:30`), for `textField({ type: 'datetime-local' })`. */
export const toDatetimeLocal = (ms: number): string => new Date(ms).toISOString().slice(0, 16)

/**
 * Reads the fields of `schema` (an object schema of the API) from a form body and validates them
 * with the schema itself. `only` names the fields this form holds; the others stay undefined.
 */
export function readForm<S extends TSchema>(
  schema: S,
  body: unknown,
  options: {
    only?: readonly string[]
    /** Fields typed in `datetime-local` inputs (read as UTC). */
    datetimes?: readonly string[]
    /** Text fields an empty box clears (a description removed), instead of leaving unchanged. */
    clearable?: readonly string[]
  } = {},
): FormResult<S> {
  const fields = formFields(body)
  const properties = (schema.properties ?? {}) as Record<string, TSchema>
  const required = new Set<string>((schema.required as string[] | undefined) ?? [])
  const names = options.only ?? Object.keys(properties)
  const value: Record<string, unknown> = {}
  for (const name of names) {
    const property = properties[name]
    if (!property) continue
    const shape = shapeOf(property)
    if (options.datetimes?.includes(name)) shape.kind = 'datetime'
    const raw = fields[name]
    if (shape.kind === 'boolean') {
      value[name] = raw === 'on' || raw === 'true' || raw === '1'
      continue
    }
    if (raw === '' && options.clearable?.includes(name)) {
      value[name] = ''
      continue
    }
    if (raw === undefined || raw === '') {
      if (shape.nullable) value[name] = null
      else if (!required.has(name)) continue
      else value[name] = raw
      continue
    }
    if (shape.kind === 'number') value[name] = /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw
    else if (shape.kind === 'datetime') value[name] = fromDatetimeLocal(raw)
    else value[name] = raw
  }
  const state: FormState = { values: fields, errors: {} }
  for (const error of Value.Errors(schema, value)) {
    const field = error.path.split('/').filter(Boolean)[0] ?? '_form'
    if (state.errors[field]) continue
    state.errors[field] = schemaErrorSentence(field, error)
  }
  if (Object.keys(state.errors).length > 0) return { ok: false, state }
  return { ok: true, value: value as Static<S>, state }
}

/**
 * Puts a service's 400/403/409 on the form: on the field its message starts with (`slug is already
 * taken` → slug), else as a form-level error. Anything else (404, bugs) is thrown on, to the error page.
 */
export function serviceErrorState(error: unknown, state: FormState): FormState {
  if (!(error instanceof HttpError) || ![400, 403, 409].includes(error.status)) throw error
  const names = Object.keys(state.values).sort((a, b) => b.length - a.length)
  // Field names come from the form: compared as text, never turned into a pattern.
  const field = names.find((name) => error.message.startsWith(`${name} `) || error.message.startsWith(`${name}:`)) ?? '_form'
  return { values: state.values, errors: { ...state.errors, [field]: error.message } }
}

/** The HTTP status of a form answered with errors: the service's, or 400 for schema errors. */
export const errorStatus = (error: unknown): number => (error instanceof HttpError ? error.status : 400)

export interface FieldOptions {
  name: string
  label: string
  state: FormState
  hint?: string
  type?: string
  required?: boolean
  autocomplete?: string
  maxLength?: number
  placeholder?: string
  /** Id of a `<datalist>` of suggestions (text fields). */
  list?: string
  /** Value shown when the form holds none yet. */
  fallback?: string
}

const fieldId = (name: string) => `f-${name}`

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
const asWords = (name: string) => name.replaceAll('_', ' ')

/**
 * The error of field `name` as the form shows it, once, beside the field and in the summary. The
 * API names fields as its JSON does ("target: …", "target must …", "palette.text on
 * palette.background …"); here a leading "name:" goes (the label says which field), a leading name
 * becomes the field's label, other fields' names and paths read as words, and the sentence starts
 * with a capital unless it starts with the value as typed.
 * Field names are compared as text, never turned into a pattern.
 */
export function fieldErrorText(state: FormState, name: string, label?: string): string | undefined {
  const message = state.errors[name]
  if (message === undefined || name === '_form') return message
  const fields = new Set([...Object.keys(state.values), ...Object.keys(state.errors), name])
  const token = /^[a-z0-9_.]+/.exec(message)?.[0] ?? ''
  const rest = message.slice(token.length)
  let text = message
  if (token.split('.').at(-1) === name && (rest === '' || rest.startsWith(' ') || rest.startsWith(':'))) {
    const subject = label ?? asWords(name)
    // A long label (a checkbox's sentence) reads badly as a subject: its explanation after ":" stands alone.
    const colon = rest.indexOf(': ')
    if (rest.startsWith(':')) text = rest.slice(1).trimStart()
    else if (subject.split(' ').length > 4 && colon >= 0) text = rest.slice(colon + 2)
    else text = `${subject.split(' ').length > 4 ? 'This' : subject}${rest}`
  }
  // Outside quotes (a value as typed stays as it was): fields' paths and API names read as words.
  text = text
    .split('"')
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/\b(?:[a-z_]+\.)+([a-z_]+)\b/g, (path, last: string) => (fields.has(last) ? asWords(last) : path))
            .replace(/\b[a-z]+(?:_[a-z]+)+\b/g, asWords),
    )
    .join('"')
  // A sentence that starts with what the owner typed (a host name such as "localhost") keeps its case.
  const first = /^[^\s,:]+/.exec(text)?.[0] ?? ''
  const typed = state.values[name]
  return first !== '' && typeof typed === 'string' && typed.includes(first) ? text : capitalized(text)
}

/** `aria-invalid` and `aria-describedby` for a control, plus the hint and error paragraphs. */
function describe(options: FieldOptions): { attrs: string; after: string } {
  const id = fieldId(options.name)
  const error = fieldErrorText(options.state, options.name, options.label)
  const described = [options.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ')
  const attrs = (error ? ' aria-invalid="true"' : '') + (described ? html` aria-describedby="${described}"` : '')
  const after =
    (options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : '') +
    (error ? html`<p class="field-error" id="${id}-error">${error}</p>` : '')
  return { attrs, after }
}

const common = (options: FieldOptions) =>
  (options.required ? ' required' : '') +
  (options.autocomplete ? html` autocomplete="${options.autocomplete}"` : '') +
  (options.maxLength ? html` maxlength="${String(options.maxLength)}"` : '') +
  (options.placeholder ? html` placeholder="${options.placeholder}"` : '') +
  (options.list ? html` list="${options.list}"` : '')

const valueOf = (options: FieldOptions) => options.state.values[options.name] ?? options.fallback ?? ''

export function textField(options: FieldOptions): string {
  const { attrs, after } = describe(options)
  const id = fieldId(options.name)
  return html`<div class="field!${options.state.errors[options.name] ? ' has-error' : ''}">
  <label for="${id}">${options.label}</label>
  <input id="${id}" name="${options.name}" type="${options.type ?? 'text'}" value="${options.type === 'password' ? '' : valueOf(options)}"!${common(options)}!${attrs}>
  !${after}
</div>`
}

export function textArea(options: FieldOptions & { rows?: number }): string {
  const { attrs, after } = describe(options)
  const id = fieldId(options.name)
  return html`<div class="field!${options.state.errors[options.name] ? ' has-error' : ''}">
  <label for="${id}">${options.label}</label>
  <textarea id="${id}" name="${options.name}" rows="${String(options.rows ?? 4)}"!${common(options)}!${attrs}>${valueOf(options)}</textarea>
  !${after}
</div>`
}

export function selectField(options: FieldOptions & { options: ReadonlyArray<{ value: string; label: string }> }): string {
  const { attrs, after } = describe(options)
  const id = fieldId(options.name)
  const current = valueOf(options)
  const choices = options.options.map(
    (choice) => html`<option value="${choice.value}"!${choice.value === current ? ' selected' : ''}>${choice.label}</option>`,
  )
  return html`<div class="field!${options.state.errors[options.name] ? ' has-error' : ''}">
  <label for="${id}">${options.label}</label>
  <select id="${id}" name="${options.name}"!${options.required ? ' required' : ''}!${attrs}>!${choices.join('')}</select>
  !${after}
</div>`
}

export function checkboxField(options: FieldOptions): string {
  const { attrs, after } = describe(options)
  const id = fieldId(options.name)
  const checked = ['on', 'true', '1'].includes(valueOf(options))
  return html`<div class="field check!${options.state.errors[options.name] ? ' has-error' : ''}">
  <input id="${id}" name="${options.name}" type="checkbox"!${checked ? ' checked' : ''}!${attrs}>
  <label for="${id}">${options.label}</label>
  !${after}
</div>`
}

/** A form-level error (`_form`), e.g. a plan limit, shown above the fields as an alert. */
export function formError(state: FormState): string {
  const message = state.errors._form
  return message ? html`<p class="form-error" role="alert">${message}</p>` : ''
}

/** "Fix the fields below" with links to each field in error, for screen readers and long forms. */
export function errorSummary(state: FormState, labels: Record<string, string>): string {
  const fields = Object.keys(state.errors).filter((name) => name !== '_form')
  if (fields.length === 0) return formError(state)
  const items = fields.map((name) => {
    const label = labels[name] ?? capitalized(asWords(name))
    const text = fieldErrorText(state, name, label)!
    // A sentence that already names the field is shown as it is; any other gets the label first.
    return html`<li><a href="#${fieldId(name)}">${text.toLowerCase().startsWith(label.toLowerCase()) ? text : `${label}: ${text}`}</a></li>`
  })
  return html`!${formError(state)}<div class="error-summary" role="alert"><p>Please fix:</p><ul>!${items.join('')}</ul></div>`
}
