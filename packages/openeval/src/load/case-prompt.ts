// prompt.md as a Mustache template over each case (only for an eval with cases). Mustache is logic-less: names,
// sections and inverted sections only. Every name the template uses must resolve in every case, looked up as Mustache
// looks it up (its own Context): a missing field is a load error naming the case and the field, never an empty string.
// `{{x}}` HTML-escapes as Mustache always does; `{{{x}}}` and `{{&x}}` give the text as it is (docs/guide/cases.md).
import Mustache from "mustache";
import { MAX_PROMPT_BYTES } from "../util/evidence-limits.ts";
import type { CaseRecord } from "./case-files.ts";

/** What a template sees: the case's id and tags, its input, its expected value. */
export function caseView(item: CaseRecord): Record<string, unknown> {
  return { case: { id: item.id, tags: item.tags }, input: item.input, expected: item.expected };
}

type Token = [type: string, value: string, start: number, end: number, children?: Token[]];

/**
 * The prompt for one case, or the problems that keep it from being rendered (each naming the field).
 * @example renderCasePrompt("Refund {{{input.amount}}}?", item) // { prompt: "Refund 12?", problems: [] }
 */
export function renderCasePrompt(template: string, item: CaseRecord): { prompt: string | null; problems: string[] } {
  let tokens: Token[];
  try {
    tokens = Mustache.parse(template) as Token[];
  } catch (error) {
    return { prompt: null, problems: [`is not a valid Mustache template: ${(error as Error).message}`] };
  }
  const view = caseView(item);
  const problems = [...new Set(unresolved(tokens, new Mustache.Context(view)))];
  if (problems.length > 0) return { prompt: null, problems };
  const prompt = Mustache.render(template, view);
  if (prompt.trim() === "") return { prompt: null, problems: ["renders to an empty prompt for this case"] };
  const bytes = new TextEncoder().encode(prompt).byteLength;
  if (bytes > MAX_PROMPT_BYTES)
    return { prompt: null, problems: [`renders to ${bytes} bytes, over the ${MAX_PROMPT_BYTES}-byte prompt limit`] };
  return { prompt, problems: [] };
}

/** The problem of each name the tokens use that the context does not hold as text (sections as Mustache renders them). */
function unresolved(tokens: Token[], context: Mustache.Context): string[] {
  const problems: string[] = [];
  for (const [type, name, , , children] of tokens) {
    if (type === ">") {
      problems.push(`{{>${name}}}: partials are not supported; write the text into prompt.md`);
      continue;
    }
    if (type !== "name" && type !== "&" && type !== "#" && type !== "^") continue;
    const value: unknown = context.lookup(name);
    if (value === undefined) {
      problems.push(
        `${name}: the template names it and this case has no such field; add it to the case, or remove it from prompt.md`,
      );
      continue;
    }
    if (type === "name" || type === "&") {
      const kind =
        value === null ? "null" : Array.isArray(value) ? "a list" : typeof value === "object" ? "an object" : null;
      if (kind) {
        problems.push(
          `${name}: is ${kind} in this case, which has no text to put in the prompt; name one of its fields, or use a section ({{#${name}}}…{{/${name}}})`,
        );
      }
      continue;
    }
    // A section is rendered for each item of a list, once for another truthy value; an inverted one when it is falsy.
    const empty = !value || (Array.isArray(value) && value.length === 0);
    if (type === "^") {
      if (empty) problems.push(...unresolved(children ?? [], context));
    } else if (!empty) {
      const items: unknown[] = Array.isArray(value) ? value : [value];
      for (const item of items)
        problems.push(...unresolved(children ?? [], typeof item === "boolean" ? context : context.push(item)));
    }
  }
  return problems;
}
