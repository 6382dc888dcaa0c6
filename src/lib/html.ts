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
