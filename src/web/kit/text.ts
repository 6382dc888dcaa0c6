/**
 * Text helpers of the web app's templates. Words never break inside (the stylesheet wraps at spaces
 * and breaks a word only when it is wider than the line on its own); long values wrap at their own
 * punctuation instead.
 */
import { escapeHtml } from '../../lib/html.ts'

/**
 * A long value (a monitor's target, a URL, a host and port) as HTML that may wrap after its own
 * separators (`/ . : ? & = @ - _`), with `<wbr>`, rather than inside a run of letters or digits.
 */
export function wrappable(value: string): string {
  return escapeHtml(value).replace(/([/.:?=@_-]|&amp;)(?=.)/g, '$1<wbr>')
}
