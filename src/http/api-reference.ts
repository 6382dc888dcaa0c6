/**
 * The API reference at `/swagger`, rendered on the server from the OpenAPI document (pure): every
 * operation by tag (in the document's tag order, then path order, as Swagger UI lists them), each
 * a closed <details> with its method, path and summary, the named schemas once at the end. It is
 * one HTML answer, prepared once per process, that a browser shows at once.
 *
 * What an operation holds (parameters, request body, responses and schemas) and each schema's
 * definition are rendered here too, but travel as HTML strings in one JSON answer of their own
 * (`/swagger/parts.json`, fetched by reference.js soon after the page has loaded), written into their
 * <details> when it is opened: the page is a few thousand elements instead of 25,000, which
 * Chromium took most of a first visit to build, and 110 KB instead of 900 KB, most of which was
 * that JSON, which Chromium's parser read through before it showed the page. Without
 * JavaScript, each operation links to the OpenAPI document and to Swagger UI instead. Find-in-page
 * finds methods, paths and summaries (the details are not in the page until opened).
 *
 * Deep links keep Swagger UI's form: `/swagger#/Incidents/patchUserApiV1IncidentsById` targets an
 * element inside that operation's <details>, which the browser opens when it navigates there.
 * Trying requests out is Swagger UI's job, at `/swagger/ui` (a link on every operation).
 */
import { html } from '../lib/html.ts'
import { hash64Hex } from '../lib/http-cache.ts'
import { pageShell } from '../lib/page-shell.ts'
import { renderInline, renderMarkdown } from '../modules/content/markdown.ts'

type Json = Record<string, unknown>
export interface OpenApiDoc {
  info?: { title?: string; version?: string; description?: string }
  servers?: Array<{ url: string; description?: string }>
  tags?: Array<{ name: string; description?: string }>
  paths: Record<string, Record<string, unknown>>
  /** What the API sends out (OpenAPI 3.1): one entry per event, keyed by its name. */
  webhooks?: Record<string, Record<string, unknown>>
  components?: { schemas?: Record<string, Json>; securitySchemes?: Record<string, Json> }
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
/** How deep nested schemas are drawn before "…" (named schemas are links, so only inline ones nest). */
const MAX_DEPTH = 6

interface Operation {
  method: string
  path: string
  tag: string
  op: Json
}

/** Operations grouped by tag: the document's tags first (in its order), then any others, paths in order. */
export function operationsByTag(doc: OpenApiDoc): Map<string, Operation[]> {
  const byTag = new Map<string, Operation[]>((doc.tags ?? []).map((tag) => [tag.name, []]))
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method) || typeof op !== 'object' || op === null) continue
      const tags = ((op as Json).tags as string[] | undefined) ?? ['default']
      for (const tag of tags) {
        if (!byTag.has(tag)) byTag.set(tag, [])
        byTag.get(tag)!.push({ method, path, tag, op: op as Json })
      }
    }
  }
  for (const [tag, list] of byTag) if (list.length === 0) byTag.delete(tag)
  return byTag
}

/** Swagger UI's deep-link address of an operation, without the '#': `/Incidents/patchUserApiV1IncidentsById`. */
export const deepLink = (operation: Operation): string =>
  `/${encodeURIComponent(operation.tag)}/${encodeURIComponent(String(operation.op.operationId ?? `${operation.method}${operation.path}`))}`

const tagId = (tag: string) => `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`
const schemaId = (name: string) => `schema-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`
const text = (value: unknown) => (typeof value === 'string' ? value : '')

/** A short value: strings quoted, the rest as JSON. */
const literal = (value: unknown) => html`<code>${typeof value === 'string' ? `"${value}"` : JSON.stringify(value)}</code>`

/** Constraints of a leaf schema, in words. */
function rules(schema: Json): string[] {
  const out: string[] = []
  if (typeof schema.format === 'string') out.push(schema.format)
  if (schema.minLength !== undefined || schema.maxLength !== undefined) out.push(`${String(schema.minLength ?? 0)}–${String(schema.maxLength ?? '∞')} characters`)
  if (schema.minimum !== undefined || schema.maximum !== undefined) out.push(`${String(schema.minimum ?? '−∞')} to ${String(schema.maximum ?? '∞')}`)
  if (schema.minItems !== undefined || schema.maxItems !== undefined) out.push(`${String(schema.minItems ?? 0)}–${String(schema.maxItems ?? '∞')} items`)
  if (typeof schema.pattern === 'string') out.push(`pattern ${schema.pattern}`)
  return out
}

/** A schema as people read it: a type line, then its properties (nested), links for named schemas. */
export function schemaHtml(schema: unknown, depth = 0): string {
  if (typeof schema !== 'object' || schema === null) return ''
  const s = schema as Json
  if (typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/components/schemas/', '')
    return html`<a href="#${schemaId(name)}">${name}</a>`
  }
  if ('const' in s) return literal(s.const)
  if (Array.isArray(s.enum)) return `one of ${s.enum.map(literal).join(', ')}`
  const union = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as unknown[] | undefined
  if (union) {
    if (depth >= MAX_DEPTH) return '…'
    return union.map((member) => schemaHtml(member, depth + 1)).join(' <span class="or">or</span> ')
  }
  if (Array.isArray(s.allOf)) return (s.allOf as unknown[]).map((member) => schemaHtml(member, depth + 1)).join(' <span class="or">and</span> ')
  const type = Array.isArray(s.type) ? (s.type as string[]).join(' or ') : text(s.type)
  if (type === 'array') return `list of ${depth >= MAX_DEPTH ? '…' : schemaHtml(s.items, depth + 1) || 'anything'}${rules(s).length ? html` <span class="rules">(${rules(s).join(', ')})</span>` : ''}`
  const properties = s.properties as Record<string, unknown> | undefined
  if (type === 'object' || properties) {
    if (!properties || Object.keys(properties).length === 0) {
      const values = s.additionalProperties
      return typeof values === 'object' && values !== null ? `object of ${schemaHtml(values, depth + 1)}` : 'object'
    }
    if (depth >= MAX_DEPTH) return 'object …'
    const required = new Set((s.required as string[] | undefined) ?? [])
    const rows = Object.entries(properties).map(
      ([name, property]) =>
        html`<li><code>${name}</code>!${required.has(name) ? ' <span class="req">required</span>' : ''} !${schemaHtml(property, depth + 1)}!${description(property)}</li>`,
    )
    return html`object<ul class="props">!${rows.join('')}</ul>`
  }
  const leaf = type || 'any value'
  const ruleText = rules(s)
  // The type is plain text (no element of its own): thousands of them are on the page.
  return html`${leaf}!${ruleText.length ? html` <span class="rules">(${ruleText.join(', ')})</span>` : ''}`
}

function description(schema: unknown): string {
  const d = typeof schema === 'object' && schema !== null ? (schema as Json).description : undefined
  return typeof d === 'string' && d ? html` <span class="desc">— !${renderInline(d)}</span>` : ''
}

/** Media types and their schemas; types that share one schema are listed together, the schema once. */
function contentHtml(content: unknown): string {
  if (typeof content !== 'object' || content === null) return ''
  const bySchema = new Map<string, { types: string[]; schema: unknown }>()
  for (const [type, media] of Object.entries(content as Record<string, Json>)) {
    const key = JSON.stringify(media.schema ?? null)
    const group = bySchema.get(key)
    if (group) group.types.push(type)
    else bySchema.set(key, { types: [type], schema: media.schema })
  }
  return [...bySchema.values()]
    .map(({ types, schema }) => html`<p class="media">!${types.map((type) => html`<code>${type}</code>`).join(', ')}</p><div class="schema">!${schemaHtml(schema)}</div>`)
    .join('')
}

/** `label` names the region (each operation's own: landmarks need distinct names). */
function parametersHtml(parameters: unknown, label: string): string {
  if (!Array.isArray(parameters) || parameters.length === 0) return ''
  const rows = (parameters as Json[]).map(
    (p) =>
      html`<tr><td><code>${text(p.name)}</code>!${p.required ? ' <span class="req">required</span>' : ''}</td><td>${text(p.in)}</td><td>!${schemaHtml(p.schema)}!${typeof p.description === 'string' ? html`<br>!${renderInline(p.description)}` : ''}</td></tr>`,
  )
  // On a narrow screen the table scrolls inside its own region (reachable by the keyboard) rather than cutting words.
  return html`<h3>Parameters</h3><section class="params-scroll" tabindex="0" aria-label="${label}"><table class="params"><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Value</th></tr></thead><tbody>!${rows.join('')}</tbody></table></section>`
}

/**
 * Responses that carry the same content (most error answers share one Error body) are one item:
 * their statuses and descriptions, then the body once. Hundreds of repeated bodies made the page
 * slow to open.
 */
function responsesHtml(responses: unknown): string {
  if (typeof responses !== 'object' || responses === null) return ''
  const byContent = new Map<string, Array<[string, Json]>>()
  for (const [status, response] of Object.entries(responses as Record<string, Json>)) {
    const key = response.content === undefined ? `none:${status}` : JSON.stringify(response.content)
    const group = byContent.get(key)
    if (group) group.push([status, response])
    else byContent.set(key, [[status, response]])
  }
  const items = [...byContent.values()].map((group) => {
    const statuses = group.map(([status, response]) => html`<strong>${status}</strong> !${renderInline(text(response.description))}`).join('; ')
    return html`<li>!${statuses}!${contentHtml(group[0]![1].content)}</li>`
  })
  return html`<h3>Responses</h3><ul class="responses">!${items.join('')}</ul>`
}

function securityText(op: Json): string {
  const security = op.security as Array<Record<string, unknown>> | undefined
  if (!security) return ''
  const names = security.flatMap((requirement) => Object.keys(requirement))
  return names.length === 0 ? '<p class="auth">No credentials needed.</p>' : html`<p class="auth">Credentials: ${names.join(', ')}.</p>`
}

/** The outgoing webhooks, in the document's order: each an operation whose "path" is the event's name. */
export function outgoingWebhooks(doc: OpenApiDoc): Operation[] {
  return Object.entries(doc.webhooks ?? {}).flatMap(([name, item]) =>
    Object.entries(item)
      .filter(([method, op]) => METHODS.includes(method) && typeof op === 'object' && op !== null)
      .map(([method, op]) => ({ method, path: name, tag: 'Webhooks', op: op as Json })),
  )
}

/**
 * The parts of the page rendered when their <details> opens: each one's HTML, by its index in
 * `data-part` (the order they are added in).
 */
class Parts {
  readonly list: string[] = []
  add(partHtml: string): number {
    return this.list.push(partHtml) - 1
  }
}

/** One operation; `viewerPath` null for a webhook, which Lantern sends rather than answers (nothing to try). */
function operationHtml(operation: Operation, viewerPath: string | null, specPath: string, parts: Parts): string {
  const { op } = operation
  const link = deepLink(operation)
  const body = op.requestBody as Json | undefined
  // One line per operation: line breaks between the parts would each be a text node of the page.
  const details = [
    typeof op.description === 'string' ? renderMarkdown(op.description).trim() : '',
    securityText(op),
    parametersHtml(op.parameters, `Parameters of ${operation.method.toUpperCase()} ${operation.path}`),
    body ? html`<h3>Request body!${body.required ? ' <span class="req">required</span>' : ''}</h3>!${contentHtml(body.content)}` : '',
    responsesHtml(op.responses),
    viewerPath === null ? '' : html`<p class="try"><a href="${viewerPath}#${link}">Try it in Swagger UI</a></p>`,
  ]
  const part = parts.add(details.join(''))
  const fallback = html`<noscript><p>Its parameters, bodies and answers are in <a href="${specPath}">the OpenAPI document</a>!${viewerPath === null ? '' : html` and in <a href="${viewerPath}#${link}">Swagger UI</a>`}.</p></noscript>`
  return html`<details class="op" data-part="${String(part)}"><summary><span class="method m-${operation.method}">${operation.method.toUpperCase()}</span> <code class="path">${operation.path}</code> <span class="summary">${text(op.summary)}</span></summary><div class="op-body" id="${link}">!${fallback}</div></details>`
}

/** The page and the JSON (an array of HTML strings) its <details> are filled from. */
export interface ApiReference {
  html: string
  partsJson: string
}

/**
 * The whole page: header bar, the API's description, servers, credentials, contents, operations,
 * schemas. It names its parts as `partsPath?v=<hash of them>`, so a page kept from before a
 * restart with another document never fills its <details> from the new one's indices.
 */
export function renderApiReference(doc: OpenApiDoc, options: { specPath: string; viewerPath: string; stylesheet: string; script: string; partsPath: string }): ApiReference {
  const parts = new Parts()
  const groups = operationsByTag(doc)
  const tags = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]))
  const servers = (doc.servers ?? []).map((server) => html`<li><code>${server.url}</code>!${server.description ? html` — ${server.description}` : ''}</li>`)
  const schemes = Object.entries(doc.components?.securitySchemes ?? {}).map(
    ([name, scheme]) => html`<li><code>${name}</code>: ${[scheme.type, scheme.scheme, scheme.in, scheme.name].filter((v) => typeof v === 'string').join(' ')}!${scheme.description ? html` — !${renderInline(text(scheme.description))}` : ''}</li>`,
  )
  const contents = [...groups].map(([tag, list]) => html`<li><a href="#${tagId(tag)}">${tag}</a> <span class="count">(${String(list.length)})</span></li>`)
  const sections = [...groups].map(
    ([tag, list]) => html`<section class="tag" aria-labelledby="${tagId(tag)}">
<h2 id="${tagId(tag)}">${tag}</h2>
!${tags.get(tag) ? html`<p>!${renderInline(tags.get(tag)!)}</p>` : ''}
!${list.map((operation) => operationHtml(operation, options.viewerPath, options.specPath, parts)).join('\n')}
</section>`,
  )
  const webhooks = outgoingWebhooks(doc)
  const webhookSection =
    webhooks.length === 0
      ? ''
      : html`<section class="tag" aria-labelledby="webhooks">
<h2 id="webhooks">Webhooks</h2>
<p>What Lantern sends: a <code>POST</code> to each webhook channel and webhook subscriber, one per event, signed as Standard Webhooks.</p>
!${webhooks.map((operation) => operationHtml(operation, null, options.specPath, parts)).join('\n')}
</section>`
  const schemas = Object.entries(doc.components?.schemas ?? {}).map(
    ([name, schema]) =>
      html`<details class="schema-def" id="${schemaId(name)}" data-part="${String(parts.add(schemaHtml(schema)))}"><summary><code>${name}</code></summary><div class="schema"><noscript><p>In <a href="${options.specPath}">the OpenAPI document</a>.</p></noscript></div></details>`,
  )
  const title = doc.info?.title ?? 'API'
  const partsJson = JSON.stringify(parts.list)
  // A path of this program's and a hex hash: nothing in it to escape.
  const partsUrl = `${options.partsPath}?v=${hash64Hex(new TextEncoder().encode(partsJson))}`
  const page = pageShell({
    title: 'API reference · Lantern',
    meta: '<meta name="color-scheme" content="light dark">\n',
    head: html`<link rel="stylesheet" href="${options.stylesheet}">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<script src="${options.script}" defer></script>
`,
    body: html`
<header class="lantern-bar"><a class="brand" href="/">Lantern</a> <a href="/docs/">Docs</a> <a href="/changelog">Changelog</a> <a href="${options.viewerPath}">Try requests (Swagger UI)</a> <a href="${options.specPath}">OpenAPI document (JSON)</a></header>
<main id="main" class="ref" data-parts="!${partsUrl}">
<h1>${title} <span class="version">${doc.info?.version ?? ''}</span></h1>
!${doc.info?.description ? renderMarkdown(doc.info.description) : ''}
<h2>Servers</h2>
<ul>!${servers.join('')}</ul>
<h2>Credentials</h2>
<ul>!${schemes.join('')}</ul>
<nav aria-labelledby="contents"><h2 id="contents">Contents</h2><ul class="contents">!${contents.join('')}!${webhooks.length === 0 ? '' : '<li><a href="#webhooks">Webhooks</a></li>'}<li><a href="#schemas">Schemas</a></li></ul></nav>
!${sections.join('\n')}
!${webhookSection}
<section aria-labelledby="schemas"><h2 id="schemas">Schemas</h2>
!${schemas.join('\n')}
</section>
</main>
`,
  })
  return { html: page, partsJson }
}
