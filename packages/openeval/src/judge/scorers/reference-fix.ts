// referenceFix(): a deterministic second opinion on correctness — the candidate's final workspace diff compared
// with the eval's reference fix, as Crucible's reference-fix scorer does (README.md beside this file). No model is called.
//
// Known limitations, kept as the scorer it reproduces has them (not silently "fixed"):
// - Semantic equivalence: two fixes that behave the same but read differently (`raw * (1 - pct)` vs
//   `raw - raw * pct`) score low on `textual`; the rubric judge's reasoning is where that is caught.
// - Order sensitivity: files are compared as sets, but the character ratio is order-sensitive, so a fix that
//   reorders lines scores lower than intuition suggests.
// - Multi-hunk files: one hunk set per file. All added lines of a file (every hunk) are joined and compared as one
//   text, so independent fixes in one file are aggregated.
// Also: a rename counts as its old path deleted plus its new path added (as a workspace diff shows it), and the
// two sides' added lines come from different diff programs (git for the reference, openeval's Myers diff for the
// candidate), which can attribute a moved brace or blank line differently.
import * as z from "zod";
import type { JudgeContext } from "../../recording/index.ts";
import { charSimilarity } from "./char-similarity.ts";
import { parseOptions } from "./parse-options.ts";
import { listPaths } from "./quote.ts";
import { parseReferenceDiff, readReferenceDiff } from "./reference-diff.ts";
import { parseUnifiedDiff } from "./unified-diff.ts";
import { SCORERS_VERSION } from "../../util/versions.ts";

const Weight = z
  .number()
  .refine(Number.isFinite, "must be a finite number")
  .refine((weight) => weight >= 0, "must not be negative");

const ReferenceFixOptionsSchema = z
  .strictObject({
    reference: z.string().min(1).optional(),
    referenceText: z.string().optional(),
    weights: z
      .strictObject({ structural: Weight, textual: Weight })
      .refine(
        (weights) => weights.structural + weights.textual > 0,
        "weights.structural + weights.textual must be above 0",
      )
      .refine(
        (weights) => Number.isFinite(weights.structural + weights.textual),
        "weights.structural + weights.textual must be a finite number",
      )
      .optional(),
    ignore: z.array(z.string().min(1)).optional(),
  })
  .refine(
    (options) => options.reference === undefined || options.referenceText === undefined,
    "pass reference (a path) or referenceText, not both",
  );

export interface ReferenceFixOptions {
  /** The reference file, resolved against the current directory: a judge.ts runs in its eval folder. Default "REFERENCE_FIX.md". */
  reference?: string;
  /** The reference's text itself, instead of a file (for scripts over readRecording() and for tests). */
  referenceText?: string;
  /** Relative weights, normalized by their sum. Both are required when given. Default { structural: 0.6, textual: 0.4 }. */
  weights?: { structural: number; textual: number };
  /** Globs of workspace paths left out of both diffs (e.g. "**\/__pycache__/**" that running tests leaves). Default none. */
  ignore?: string[];
}

export interface ReferenceFixFile {
  path: string;
  /** Character similarity (2·LCS / total length) of this file's added lines, reference vs candidate. */
  similarity: number;
  /** Code points of the added lines (joined by newlines) on each side. */
  reference_chars: number;
  candidate_chars: number;
  /** The texts were cut to fit the comparison budget (see char-similarity.ts): `similarity` is a lower bound. */
  truncated: boolean;
}

export interface ReferenceFixMeasurements {
  scorer: string;
  reference: string;
  weights: { structural: number; textual: number };
  structural: number;
  textual: number;
  matched_files: string[];
  missing_files: string[];
  extra_files: string[];
  /** One entry per matched file, in matched_files order. */
  files: ReferenceFixFile[];
}

/** The reproduced scorer's flat shape, plus `reason` and `measurements` so that the object is itself a score. */
export interface ReferenceFixScore {
  /** weights.structural·structural + weights.textual·textual, divided by the weights' sum. */
  value: number;
  reason: string;
  /** File-set Jaccard: matched / (matched + missing + extra). */
  structural: number;
  /** Mean character similarity of the added lines over matched files; 0 when no file matched. */
  textual: number;
  matched_files: string[];
  missing_files: string[];
  extra_files: string[];
  /** The same numbers (and per-file detail), kept by score normalization, which keeps only value, reason, evidence and measurements. */
  measurements: ReferenceFixMeasurements;
}

export const DEFAULT_REFERENCE = "REFERENCE_FIX.md";
export const DEFAULT_WEIGHTS = Object.freeze({ structural: 0.6, textual: 0.4 });

/**
 * Compares the candidate's final workspace diff with the reference diff in REFERENCE_FIX.md.
 * Throws a ScorerError (a judging error, not a candidate 0) when the reference is missing, malformed or has no diff.
 * @example
 * import { referenceFix } from "openeval/scorers";
 * export default async (ctx: JudgeContext) => ({ scores: { reference_fix: await referenceFix(ctx) } });
 */
export async function referenceFix(ctx: JudgeContext, options: ReferenceFixOptions = {}): Promise<ReferenceFixScore> {
  const settings = parseOptions("referenceFix", ReferenceFixOptionsSchema, options);
  const weights = settings.weights ?? DEFAULT_WEIGHTS;
  const ignored = ignoreMatcher(settings.ignore ?? []);

  const reference =
    settings.referenceText === undefined
      ? await readReferenceDiff(settings.reference ?? DEFAULT_REFERENCE)
      : parseReferenceDiff(settings.referenceText, "referenceText");
  const referenceAdded = new Map(
    reference.files.filter((file) => !ignored(file.path)).map((file) => [file.path, file.addedLines]),
  );
  const candidateAdded = await readCandidateAdditions(ctx, ignored);

  const matched = [...referenceAdded.keys()].filter((path) => candidateAdded.has(path)).sort();
  const missing = [...referenceAdded.keys()].filter((path) => !candidateAdded.has(path)).sort();
  const extra = [...candidateAdded.keys()].filter((path) => !referenceAdded.has(path)).sort();
  const union = matched.length + missing.length + extra.length;
  const structural = union === 0 ? 0 : matched.length / union;

  const files = matched.map((path) => compareAdditions(path, referenceAdded.get(path)!, candidateAdded.get(path)!));
  const textual = files.length === 0 ? 0 : files.reduce((sum, file) => sum + file.similarity, 0) / files.length;
  const value = (weights.structural * structural + weights.textual * textual) / (weights.structural + weights.textual);

  const lists = { matched_files: matched, missing_files: missing, extra_files: extra };
  return {
    value,
    reason: explain({ structural, textual, value, ...lists }),
    structural,
    textual,
    ...lists,
    measurements: {
      scorer: `referenceFix@${SCORERS_VERSION}`,
      reference: reference.source,
      weights: { structural: weights.structural, textual: weights.textual },
      structural,
      textual,
      matched_files: [...matched],
      missing_files: [...missing],
      extra_files: [...extra],
      files,
    },
  };
}

/** Path → added lines of the candidate's final diff (binary and too-large files: touched, no lines). */
async function readCandidateAdditions(
  ctx: JudgeContext,
  ignored: (path: string) => boolean,
): Promise<Map<string, string[]>> {
  const additions = new Map<string, string[]>();
  for (const diff of await ctx.workspace.patches()) {
    if (ignored(diff.path)) continue;
    additions.set(
      diff.path,
      diff.binary || diff.tooLarge ? [] : parseUnifiedDiff(diff.patch).flatMap((file) => file.addedLines),
    );
  }
  return additions;
}

function compareAdditions(path: string, referenceLines: string[], candidateLines: string[]): ReferenceFixFile {
  const referenceText = referenceLines.join("\n");
  const candidateText = candidateLines.join("\n");
  const { ratio, truncated } = charSimilarity(referenceText, candidateText);
  return {
    path,
    similarity: ratio,
    reference_chars: countCodePoints(referenceText),
    candidate_chars: countCodePoints(candidateText),
    truncated,
  };
}

function countCodePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function ignoreMatcher(patterns: string[]): (path: string) => boolean {
  const globs = patterns.map((pattern) => new Bun.Glob(pattern));
  return (path) => patterns.includes(path) || globs.some((glob) => glob.match(path));
}

function explain(result: {
  structural: number;
  textual: number;
  value: number;
  matched_files: string[];
  missing_files: string[];
  extra_files: string[];
}): string {
  const total = result.matched_files.length + result.missing_files.length;
  const files = [
    `touched ${result.matched_files.length} of the reference's ${total} file${total === 1 ? "" : "s"}`,
    result.missing_files.length > 0 && `missing ${listPaths(result.missing_files)}`,
    result.extra_files.length > 0 && `extra ${listPaths(result.extra_files)}`,
  ].filter(Boolean);
  const matched = result.matched_files.length;
  const textual =
    matched === 0
      ? "textual 0 (no file in common)"
      : `textual ${format(result.textual)} (added lines, mean over ${matched} matched file${matched === 1 ? "" : "s"})`;
  return `${files.join("; ")}: structural ${format(result.structural)}; ${textual}; value ${format(result.value)}`;
}

function format(value: number): string {
  return Number(value.toFixed(3)).toString();
}
