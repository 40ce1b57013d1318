// Partial matching of a tool call's input against what a judge expects: the expected value is a pattern, and the
// input may hold more than it names (promptfoo's `trajectory:tool-args-match` partial mode).

/** A pattern: objects match partially (only the keys given), arrays element by element, a RegExp tests a string. */
export type InputPattern =
  | string
  | number
  | boolean
  | null
  | RegExp
  | readonly InputPattern[]
  | { readonly [key: string]: InputPattern };

/**
 * @example
 * matchesPartially({ command: "npm test", timeout: 60 }, { command: /npm (run )?test/ }) // true
 */
export function matchesPartially(actual: unknown, expected: InputPattern): boolean {
  if (expected instanceof RegExp) return typeof actual === "string" && expected.test(actual);
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => matchesPartially(actual[index], item))
    );
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
    const record = actual as Record<string, unknown>;
    return Object.entries(expected).every(([key, value]) => key in record && matchesPartially(record[key], value));
  }
  return Object.is(actual, expected);
}

/** The pattern as JSON (a RegExp as its source, `/…/flags`), for measurements and reasons. */
export function describePattern(pattern: InputPattern): unknown {
  if (pattern instanceof RegExp) return String(pattern);
  if (Array.isArray(pattern)) return pattern.map(describePattern);
  if (pattern !== null && typeof pattern === "object")
    return Object.fromEntries(Object.entries(pattern).map(([key, value]) => [key, describePattern(value)]));
  return pattern;
}
