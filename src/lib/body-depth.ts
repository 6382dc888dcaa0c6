/**
 * How deep a parsed request body may nest. Validation and its messages walk values recursively: a
 * few KB of `[[[[…]]]]` would exhaust the stack there, so such a body is refused before that.
 */
export const MAX_BODY_DEPTH = 32

/** True when objects or arrays in `value` nest more than `max` levels (the root is level 1); iterative, so any depth is safe to ask about. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[object, number]> = []
  if (value !== null && typeof value === 'object') stack.push([value, 1])
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (depth > max) return true
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1])
    }
  }
  return false
}
