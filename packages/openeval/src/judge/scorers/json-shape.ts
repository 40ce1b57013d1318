// jsonShape(): the final answer is JSON of a given shape. The response is parsed whole, else from its
// first ```json fenced block (then its first unlabeled one), and validated with the caller's zod schema.
import type { JudgeContext } from "../../recording/index.ts";
import { ScorerError } from "./errors.ts";

/** Any zod schema (v3 or v4): all jsonShape needs is safeParse. */
export interface SafeParseSchema {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> };
  };
}

export interface JsonShapeIssue {
  /** Dotted path into the JSON ("items[0].name"); "" for the whole value. */
  path: string;
  message: string;
}

export interface JsonShapeScore {
  value: boolean;
  reason: string;
  measurements: {
    /** Where the JSON was found: the whole response, a fenced block, or nowhere. */
    source: "response" | "fenced block" | null;
    issues: JsonShapeIssue[];
  };
}

/**
 * @example
 * const Answer = z.object({ total: z.number(), items: z.array(z.string()) });
 * export default (ctx: JudgeContext) => ({ scores: { shape: jsonShape(ctx, Answer) } });
 */
export function jsonShape(ctx: JudgeContext, schema: SafeParseSchema): JsonShapeScore {
  if (typeof schema?.safeParse !== "function") {
    throw new ScorerError("schemaMissing");
  }
  const found = findJson(ctx.response.text);
  if (!found) {
    const issues = [{ path: "", message: "the response is not JSON and has no fenced JSON block that parses" }];
    return { value: false, reason: "the response holds no JSON", measurements: { source: null, issues } };
  }
  const result = schema.safeParse(found.value);
  if (result.success)
    return {
      value: true,
      reason: `the JSON in the ${found.source} matches the schema`,
      measurements: { source: found.source, issues: [] },
    };
  const issues = (result.error?.issues ?? []).map((issue) => ({
    path: formatPath(issue.path),
    message: issue.message,
  }));
  const listed = issues.slice(0, 3).map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
  const more = issues.length > 3 ? `; and ${issues.length - 3} more` : "";
  return {
    value: false,
    reason: `the JSON in the ${found.source} does not match the schema: ${listed.join("; ")}${more}`,
    measurements: { source: found.source, issues },
  };
}

function findJson(text: string): { value: unknown; source: "response" | "fenced block" } | null {
  const whole = tryParse(text);
  if (whole.ok) return { value: whole.value, source: "response" };
  const blocks = [...text.matchAll(/^ {0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*\n([\s\S]*?)^ {0,3}\1[ \t]*$/gm)];
  const ordered = [
    ...blocks.filter((block) => /^json$/i.test(block[2]!)),
    ...blocks.filter((block) => block[2] === ""),
  ];
  for (const block of ordered) {
    const parsed = tryParse(block[3]!);
    if (parsed.ok) return { value: parsed.value, source: "fenced block" };
  }
  return null;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((part, index) => (typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`))
    .join("");
}
