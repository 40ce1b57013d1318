// How recorded words read in messages: a state as words ("timed_out" → "timed out"), and text that goes into a
// sentence without doubling its punctuation (an error that ends in "." followed by our "." or ";").

/**
 * A state (of an eval run, a judge run, an OpenCode session) as words. Records keep the enum; people read words.
 * @example describeState("timed_out") // "timed out"
 */
export function describeState(state: string): string {
  return state.replaceAll("_", " ");
}

/**
 * Text that a message goes on after (`${asClause(error)}; retry it`): its final periods dropped.
 * @example asClause("the whole process tree was killed.") // "the whole process tree was killed"
 */
export function asClause(text: string): string {
  return text.trimEnd().replace(/\.+$/, "");
}

/**
 * Text that ends a sentence: one final period, unless it already ends with `.`, `!`, `?` or `…`.
 * @example asSentence("killed.") // "killed."
 */
export function asSentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
