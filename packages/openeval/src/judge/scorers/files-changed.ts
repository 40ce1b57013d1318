// filesChanged(): which workspace files the candidate changed, checked against path lists or globs.
import * as z from "zod";
import type { JudgeContext } from "../../recording/index.ts";
import { parseOptions } from "./parse-options.ts";
import { listPaths } from "./quote.ts";

const Patterns = z.array(z.string().min(1));
const FilesChangedOptionsSchema = z.strictObject({
  only: Patterns.optional(),
  include: Patterns.optional(),
  exclude: Patterns.optional(),
});

export interface FilesChangedOptions {
  /** Every changed file must match one of these. */
  only?: string[];
  /** Each of these must match at least one changed file. */
  include?: string[];
  /** No changed file may match any of these. */
  exclude?: string[];
}

export interface FilesChangedScore {
  value: boolean;
  reason: string;
  measurements: {
    /** Added, deleted and modified paths of the final workspace diff. */
    changed: string[];
    /** `include` patterns that no changed file matches. */
    missing: string[];
    /** Changed files that match `exclude`. */
    forbidden: string[];
    /** Changed files outside `only`. */
    outside: string[];
  };
}

/**
 * Passes when at least one file changed and every given condition holds. A pattern is an exact
 * workspace-relative path or a Bun glob ("src/**\/*.ts", "*.test.js").
 * @example
 * export default async (ctx: JudgeContext) => ({
 *   scores: { focused: await filesChanged(ctx, { only: ["src/pricing.py"] }), tests_untouched: await filesChanged(ctx, { exclude: ["**\/test_*.py"] }) },
 * });
 */
export async function filesChanged(ctx: JudgeContext, options: FilesChangedOptions = {}): Promise<FilesChangedScore> {
  const { only, include = [], exclude = [] } = parseOptions("filesChanged", FilesChangedOptionsSchema, options);
  const changed = (await ctx.workspace.patches()).map((diff) => diff.path).sort();
  const missing = include.filter((pattern) => !changed.some((path) => matches(pattern, path)));
  const forbidden = changed.filter((path) => exclude.some((pattern) => matches(pattern, path)));
  const outside = only ? changed.filter((path) => !only.some((pattern) => matches(pattern, path))) : [];
  const problems = [
    changed.length === 0 && "no file changed",
    missing.length > 0 && `not changed: ${listPaths(missing)}`,
    forbidden.length > 0 && `changed though excluded: ${listPaths(forbidden)}`,
    outside.length > 0 && `changed outside ${listPaths(only!)}: ${listPaths(outside)}`,
  ].filter((problem): problem is string => typeof problem === "string");
  const value = problems.length === 0;
  return {
    value,
    reason: value ? `changed ${listPaths(changed)}` : problems.join("; "),
    measurements: { changed, missing, forbidden, outside },
  };
}

function matches(pattern: string, path: string): boolean {
  return pattern === path || new Bun.Glob(pattern).match(path);
}
