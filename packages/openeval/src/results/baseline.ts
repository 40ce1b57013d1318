// baseline.json: building it from an accepted run (refusing incomplete, filtered, unresolved and — without
// acceptFailing — failing runs), writing it atomically, and reading it back through its zod schema.
import { readFile } from "node:fs/promises";
import { writeJsonAtomic } from "../util/files.ts";
import { describeZodIssues } from "../util/zod-issues.ts";
import type { ModelSummary } from "./aggregate.ts";
import { BASELINE_FORMAT, BASELINE_VERSION, BaselineSchema, type Baseline } from "./baseline-schema.ts";
import { cellName, criterionCells } from "./criterion-status.ts";
import { BaselineInvalidError, BaselineRefusedError, type BaselineRefusal } from "./errors.ts";
import type { SlotFingerprint } from "./regression.ts";
import type { Verdict } from "./verdict.ts";
import { candidateName, variantOf } from "../records/index.ts";
import { CURRENT_VARIANT_NAME } from "../load/index.ts";

/** Where a benchmark keeps its accepted run's scores: beside benchmark.ts. */
export const BASELINE_FILE = "baseline.json";
export interface BaselineInput {
  runId: string;
  /** ISO time written into the file; passed in so that the content is a pure function of the input. */
  createdAt: string;
  /** decideVerdict() of the run, with the run's enabled contributors. */
  verdict: Verdict;
  /** aggregateScores() of the same run. */
  summaries: readonly ModelSummary[];
  /** Every judged slot's fingerprints. */
  fingerprints: readonly SlotFingerprint[];
  /** Slots of the benchmark outside the run's --only-* scope (RunSummary.outOfScope). */
  outOfScope: number;
  /** --accept-failing: accept a complete run whose verdict is fail. */
  acceptFailing?: boolean;
  /** The arm to promote (`--variant`): that variant's rows; default current's. */
  variant?: string;
}

/**
 * The content of baseline.json: fingerprints and per-(eval, model, criterion) scores only. Throws
 * BaselineRefusedError naming every reason when the run is incomplete, scope-filtered, has unresolved scores,
 * or (without acceptFailing) a failing verdict. An `unknown` verdict of a complete, fully resolved run is
 * accepted: what is left unknown then is a gate about live measurement or spend (e.g. latency with no fresh
 * execution — always so for `baseline set`, which executes nothing), not the scores the baseline keeps.
 * @example buildBaseline({ runId, createdAt: new Date().toISOString(), verdict, summaries, fingerprints, outOfScope: 0 })
 */
export function buildBaseline(input: BaselineInput): Baseline {
  throwIfRefused(input);
  const arm = input.summaries.filter((summary) => variantOf(summary) === (input.variant ?? CURRENT_VARIANT_NAME));
  const entries = arm.flatMap((summary) =>
    summary.evals.map((evaluation) => {
      const slots = input.fingerprints.filter(
        (slot) => slot.evalId === evaluation.evalId && candidateName(slot) === candidateName(summary),
      );
      return {
        evalId: evaluation.evalId,
        model: summary.model,
        ...(summary.variant === undefined ? {} : { variant: summary.variant }),
        candidateFingerprints: distinct(slots.map((slot) => slot.candidateFingerprint)),
        judgeFingerprints: distinct(slots.flatMap((slot) => slot.judgeFingerprint ?? [])),
        criteria: Object.fromEntries(
          Object.entries(evaluation.criteria).map(([id, score]) => [id, score.value as number]),
        ),
        ...(evaluation.cases
          ? {
              cases: Object.fromEntries(
                evaluation.cases.map((item) => [
                  item.caseId,
                  Object.fromEntries(Object.entries(item.criteria).map(([id, score]) => [id, score.value as number])),
                ]),
              ),
            }
          : {}),
      };
    }),
  );
  return {
    format: BASELINE_FORMAT,
    version: BASELINE_VERSION,
    runId: input.runId,
    createdAt: input.createdAt,
    verdict: input.verdict.status,
    acceptedFailing: input.verdict.status === "fail",
    gate: [...input.verdict.enabled],
    entries,
  };
}

/**
 * Builds the baseline (refusing as buildBaseline does) and writes it atomically to `file`.
 * @example await writeBaseline(join(benchmarkDirectory, "baseline.json"), input)
 */
export async function writeBaseline(file: string, input: BaselineInput): Promise<Baseline> {
  const baseline = buildBaseline(input);
  await writeJsonAtomic(file, baseline);
  return baseline;
}

/**
 * Reads and validates baseline.json; null when the file does not exist, BaselineInvalidError when it is not a
 * baseline this version reads.
 * @example const baseline = await readBaseline(join(benchmarkDirectory, "baseline.json"))
 */
export async function readBaseline(file: string): Promise<Baseline | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BaselineInvalidError(file, [`not JSON: ${(error as Error).message}`], { cause: error });
  }
  const parsed = BaselineSchema.safeParse(json);
  if (!parsed.success) throw new BaselineInvalidError(file, describeZodIssues(parsed.error), { cause: parsed.error });
  return parsed.data;
}

function throwIfRefused(input: BaselineInput): void {
  const { verdict } = input;
  const refusals: BaselineRefusal[] = [];
  if (!verdict.complete) {
    refusals.push({
      reason: "incomplete",
      message: `${verdict.unjudged.length} slot(s) are unjudged (${listNames(verdict.unjudged)}); finish them with openeval run, retry or rejudge`,
    });
  }
  if (input.outOfScope > 0) {
    refusals.push({
      reason: "filtered",
      message: `${input.outOfScope} slot(s) of the benchmark were outside the --only-* scope; run the whole benchmark`,
    });
  }
  const unresolved = criterionCells(input.summaries)
    .filter((cell) => cell.score.value === null)
    .map(cellName);
  if (unresolved.length > 0) {
    refusals.push({
      reason: "unresolved",
      message: `${unresolved.length} criterion score(s) are unresolved (${listNames(unresolved)})`,
    });
  }
  if (verdict.status === "fail" && !input.acceptFailing) {
    const because = verdict.contributors
      .filter((contributor) => contributor.status === "fail")
      .map((contributor) => `${contributor.id}: ${listNames(contributor.failing)}`);
    refusals.push({
      reason: "failing",
      message: `the verdict is fail (${because.join("; ")}); pass --accept-failing to accept it anyway`,
    });
  }
  if (refusals.length > 0) throw new BaselineRefusedError(input.runId, refusals);
}

function listNames(names: readonly string[], shown = 5): string {
  return names.length <= shown
    ? names.join(", ")
    : `${names.slice(0, shown).join(", ")} and ${names.length - shown} more`;
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}
