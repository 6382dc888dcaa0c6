import { html as ghtml } from 'ghtml'

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch)
}

/**
 * ghtml's `html` tag, fed the cooked template text. ghtml reads `strings.raw`, and Bun's transpiler
 * writes non-ASCII template text (`·`, `…`) as `\u00B7`-style escapes, which the raw text keeps
 * verbatim; the cooked text has the characters themselves. Every HTML template imports this one.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): string {
  let cooked = COOKED.get(strings)
  if (!cooked) {
    cooked = Object.assign([...strings], { raw: [...strings] }) as unknown as TemplateStringsArray
    COOKED.set(strings, cooked)
  }
  return ghtml(cooked, ...values)
}

// A call site's strings array is the same object on every call: convert each one once.
const COOKED = new WeakMap<TemplateStringsArray, TemplateStringsArray>()

const JSON_SCRIPT_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
}

/**
 * `value` as the text of a `<script type="application/json">` element: JSON in which `<`, `>`, `&`
 * and U+2028/2029 are written as \u escapes, so no data (a `</script>` or `<!--` in a name) can end
 * the element or change how the parser reads it, and `JSON.parse(element.textContent)` gives the
 * value back unchanged.
 */
export function jsonScriptText(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => JSON_SCRIPT_ESCAPES[ch] ?? ch)
}
