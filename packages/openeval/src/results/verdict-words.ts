// How a run's verdict is said, in one place: its headline word and why, which the CLI's table, its JSON, the Markdown
// summary, JUnit and every viewer page all show, and the exit code that goes with them. One rule decides both, so no
// report can say "pass" where another says "incomplete" or the CLI exits 3.
import { EXIT_CODES, type ExitCode } from "../util/exit-codes.ts";
import type { Verdict } from "./verdict.ts";

/** "nothing gated": the verdict passed because no enabled contributor had anything of a real model's to check. */
export type VerdictHeadline = "pass" | "fail" | "incomplete" | "nothing gated";

export interface VerdictWords {
  headline: VerdictHeadline;
  /** Why the headline is what it is; null for a plain pass or a complete run's fail. */
  reason: string | null;
}

/**
 * 1 when the verdict fails (a failure is final: pending work cannot undo it), else 3 when the run is incomplete or
 * the verdict unknown, else 0 (nothing gated included: AND over nothing is pass). Invalid input (2) is an error
 * thrown before any verdict.
 * @example exitCodeFor({ status: "pass" }, false) // 3
 */
export function exitCodeFor(verdict: Pick<Verdict, "status">, complete: boolean): ExitCode {
  if (verdict.status === "fail") return EXIT_CODES.verdictFail;
  if (verdict.status === "unknown" || !complete) return EXIT_CODES.incomplete;
  return EXIT_CODES.pass;
}

/**
 * The verdict's words, by the exit code's rule: "fail" is final; a verdict that cannot be decided yet (unknown, or
 * slots left unjudged) is "incomplete", never "pass"; a pass over nothing says that nothing was gated.
 * `complete`: every slot in scope, controls included, is judged (RunSummary.complete).
 * @example describeVerdict({ status: "pass", gated: true }, false) // { headline: "incomplete", reason: "some slots are not judged" }
 */
export function describeVerdict(verdict: Pick<Verdict, "status" | "gated">, complete: boolean): VerdictWords {
  const code = exitCodeFor(verdict, complete);
  if (code === EXIT_CODES.verdictFail)
    return {
      headline: "fail",
      reason: complete ? null : "some slots are not judged, and no result of theirs can undo the failure",
    };
  if (code === EXIT_CODES.incomplete)
    return {
      headline: "incomplete",
      reason: complete ? "unresolved scores or gates keep it from being decided" : "some slots are not judged",
    };
  if (!verdict.gated)
    return {
      headline: "nothing gated",
      reason: "no real model's criterion, gate or baseline cell was there to check; controls never enter the verdict",
    };
  return { headline: "pass", reason: null };
}

/**
 * The words as one line of text, for the CLI, Markdown and JUnit.
 * @example formatVerdictWords({ headline: "incomplete", reason: "some slots are not judged" }) // "incomplete (some slots are not judged)"
 */
export function formatVerdictWords(words: VerdictWords): string {
  return words.reason === null ? words.headline : `${words.headline} (${words.reason})`;
}
