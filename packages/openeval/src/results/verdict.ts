// The one place a run's verdict is decided (the CLI, readResults and the viewer all call decideVerdict): named
// contributors — code-judge, llm-judge, gates, regression, integrity, invariants — ANDed over the enabled set; completeness apart.
import { severityOf, type GateSettings, type IntegritySettings } from "../load/index.ts";
import { aggregateScores, type ModelSummary } from "./aggregate.ts";
import type { Baseline } from "./baseline-schema.ts";
import { cellName, criterionCells, criterionThreshold, judgeCriterion } from "./criterion-status.ts";
import { CONTRIBUTOR_IDS, type ContributorId } from "./gate-selection.ts";
import { evaluateGates, gateName, type GateResult } from "./gates.ts";
import { findRegressions, type SlotFingerprint } from "./regression.ts";
import { invariantsContributor, type InvariantsVerdictInput } from "./invariants-contributor.ts";
import type { SlotObservation } from "./statistics.ts";
import { candidateName, type CriterionSource } from "../records/index.ts";

/** `unknown`: nothing failed, but unresolved evidence keeps the contributor from passing. `skipped`: not enabled. */
export type ContributorStatus = "pass" | "fail" | "unknown" | "skipped";
/** How every report says a contributor's outcome: its status, but a pass over nothing says so. */
export type ContributorWord =
  | Exclude<ContributorStatus, "pass">
  | "pass"
  | "nothing judged"
  | "nothing gated"
  | "nothing compared"
  | "nothing checked";
export type VerdictStatus = "pass" | "fail" | "unknown";

export interface ContributorOutcome {
  id: ContributorId;
  status: ContributorStatus;
  /** The status as the summary, JSON, Markdown, JUnit and the viewer say it. */
  word: ContributorWord;
  /** What failed it: `<eval>/<model>/<criterion>` for the judges and regression, gate names for gates. */
  failing: string[];
  /** What is still undecided (unjudged or unresolved cells, unknown gates). */
  unresolved: string[];
  /** How many cells or gates it had to check (baseline passes, for regression); 0: it had nothing to check. */
  checked: number;
  detail: string;
  /** Failures of unreliable criteria that did not count (judge.strict off): shown, never blocking. */
  advisory?: string[];
}

/** A criterion and the judge that scores it (load's Criterion fits; add criteria seen only in judgments). */
export interface CriterionRef {
  id: string;
  source: CriterionSource;
}

export interface VerdictInput {
  /** Every slot in scope, executed or not, with its active judgment's credits (null when unjudged). */
  observations: readonly SlotObservation[];
  /** Eval id → its criteria with their source. */
  criteria: Readonly<Record<string, readonly CriterionRef[]>>;
  /**
   * Eval id → the judges it has. A judge whose criteria are learned from its judgments has none to check until it
   * has judged: its unjudged slots keep it undecided instead of passing over nothing.
   */
  judges?: Readonly<Record<string, readonly CriterionRef["source"][]>>;
  gates?: GateSettings;
  /** The accepted baseline; without one, regression is skipped. */
  baseline?: Baseline | null;
  /** The slots' fingerprints, to flag evals compared across a judge change. */
  fingerprints?: readonly SlotFingerprint[];
  /** benchmark.ts `integrity`: which findings fail (default: protected paths and checker tampering). */
  integrity?: IntegritySettings;
  /** resolveGate()'s result; default: every contributor. */
  enabled?: readonly ContributorId[];
  /** Criteria whose judges agree too little (judgeAgreement): their failures are advisory unless `strict`. */
  unreliable?: readonly { evalId: string; criterionId: string }[];
  /** judge.strict: unreliable criteria block like any other. */
  strict?: boolean;
  /** benchmark.ts `invariants` with their recorded evaluations; absent: none declared (skipped). */
  invariants?: InvariantsVerdictInput;
}

/** What unreliable criteria did to the verdict: the decisions that would have failed without them being advisory. */
export interface AgreementEffect {
  /** `<eval>/<criterion>` of every unreliable criterion. */
  unreliable: string[];
  strict: boolean;
  /** Decisions that failed only through unreliable criteria and count as advisory instead (0 when strict). */
  changed: { gates: number; cells: number; regressions: number };
}

export interface Verdict {
  /** AND over the enabled contributors: fail if any fails, else unknown if any is unknown, else pass. */
  status: VerdictStatus;
  /** No slot is left unjudged. Separate from the status. */
  complete: boolean;
  /** Slots without an active judgment, as `<eval>/<model>#<repetition>`. */
  unjudged: string[];
  enabled: ContributorId[];
  /** Every contributor in display order; the ones not enabled are `skipped`. */
  contributors: ContributorOutcome[];
  /** Every configured gate, evaluated even when the gates contributor is not enabled (for display). */
  gates: GateResult[];
  /** Some enabled contributor had something to check; false: a pass means nothing was gated (only controls ran, say). */
  gated: boolean;
  /** Absent in summaries recorded before judge agreement. */
  agreement?: AgreementEffect;
}

/**
 * The single place a criterion's judge maps to the contributor that gates it.
 * @example contributorForSource("judge.md") // "llm-judge"
 */
export function contributorForSource(source: CriterionRef["source"]): "code-judge" | "llm-judge" {
  return source === "judge.md" ? "llm-judge" : "code-judge";
}

/**
 * Decides the verdict of a run from its evidence.
 * @example decideVerdict({ observations, criteria: { e: [{ id: "tests_pass", source: "judge.ts" }] }, enabled: resolveGate() })
 * // { status: "fail", complete: true, contributors: [{ id: "code-judge", status: "fail", failing: ["e/m/a/tests_pass"], … }, …], … }
 */
export function decideVerdict(input: VerdictInput): Verdict {
  const enabled = CONTRIBUTOR_IDS.filter((id) => (input.enabled ?? CONTRIBUTOR_IDS).includes(id));
  const criterionIds = Object.fromEntries(
    Object.entries(input.criteria).map(([evalId, refs]) => [evalId, refs.map((ref) => ref.id)]),
  );
  const summaries = aggregateScores(input.observations, criterionIds);
  const unjudged = input.observations
    .filter((slot) => slot.scores === null)
    .map((slot) => `${slot.evalId}/${slot.model}#${slot.repetition}`);
  const advisory = advisoryCriteria(input);
  const gateInput = {
    gates: input.gates,
    summaries,
    observations: input.observations,
    complete: unjudged.length === 0,
  };
  const gates = advisory ? advisoryGates(gateInput, criterionIds, advisory) : evaluateGates(gateInput);
  const evaluate: Record<ContributorId, () => ContributorOutcome> = {
    "code-judge": () => judgeContributor("code-judge", summaries, input, advisory),
    "llm-judge": () => judgeContributor("llm-judge", summaries, input, advisory),
    gates: () => gatesContributor(gates),
    regression: () => regressionContributor(summaries, input, advisory),
    integrity: () => integrityContributor(input),
    invariants: () => invariantsContributor(input.invariants),
  };
  const contributors = CONTRIBUTOR_IDS.map((id) =>
    enabled.includes(id)
      ? evaluate[id]()
      : {
          id,
          status: "skipped" as const,
          word: "skipped" as const,
          failing: [],
          unresolved: [],
          checked: 0,
          detail: "not enabled",
          advisory: [],
        },
  );
  const gated = contributors.some((contributor) => contributor.status !== "skipped" && contributor.checked > 0);
  const counted = (ids: ContributorId[]) =>
    contributors
      .filter((contributor) => ids.includes(contributor.id))
      .reduce((sum, c) => sum + (c.advisory?.length ?? 0), 0);
  return {
    status: andOver(contributors),
    complete: unjudged.length === 0,
    unjudged,
    enabled,
    contributors,
    gates,
    gated,
    agreement: {
      unreliable: (input.unreliable ?? []).map((entry) => `${entry.evalId}/${entry.criterionId}`),
      strict: input.strict === true,
      changed: {
        gates: counted(["gates"]),
        cells: counted(["code-judge", "llm-judge"]),
        regressions: counted(["regression"]),
      },
    },
  };
}

/** The cells (as cellName names them) with a repetition whose credit a person's review decided: one pass over the slots. */
function reviewedCells(observations: VerdictInput["observations"]): Set<string> {
  return new Set(
    observations.flatMap((slot) =>
      (slot.reviewed ?? []).map((criterionId) =>
        cellName({ evalId: slot.evalId, model: slot.model, variant: slot.variant, criterionId }),
      ),
    ),
  );
}

/** Is this eval's criterion's failure advisory? Null when nothing is (no unreliable criterion, or strict). */
type AdvisoryCheck = ((evalId: string, criterionId: string) => boolean) | null;

function advisoryCriteria(input: VerdictInput): AdvisoryCheck {
  if (input.strict || !input.unreliable?.length) return null;
  const keys = new Set(input.unreliable.map((entry) => `${entry.evalId}\u0000${entry.criterionId}`));
  return (evalId, criterionId) => keys.has(`${evalId}\u0000${criterionId}`);
}

/**
 * Every gate, with a gate that fails only through unreliable criteria made advisory: evaluated again without those
 * criteria, it does not fail (a criterion gate of a criterion unreliable everywhere has nothing left to fail on).
 */
function advisoryGates(
  input: Parameters<typeof evaluateGates>[0],
  criterionIds: Record<string, string[]>,
  isAdvisory: NonNullable<AdvisoryCheck>,
): GateResult[] {
  const gates = evaluateGates(input);
  const reliableIds = Object.fromEntries(
    Object.entries(criterionIds).map(([evalId, ids]) => [evalId, ids.filter((id) => !isAdvisory(evalId, id))]),
  );
  const observations = input.observations.map((slot) =>
    slot.scores === null
      ? slot
      : {
          ...slot,
          scores: Object.fromEntries(Object.entries(slot.scores).filter(([id]) => !isAdvisory(slot.evalId, id))),
        },
  );
  const reliable = evaluateGates({ ...input, observations, summaries: aggregateScores(observations, reliableIds) });
  return gates.map((gate, index) => {
    const without = reliable[index]!;
    const gone = gate.id.startsWith("criteria.") && gate.actual !== null && without.actual === null;
    if (gate.status !== "fail" || (without.status === "fail" && !gone)) return gate;
    return {
      ...gate,
      status: gone ? "pass" : without.status,
      advisory: true,
      detail: `${gate.detail}; it fails only through criteria whose judges disagree (unreliable), so it is advisory`,
    };
  });
}

/** Skipped contributors take no part; AND over none is pass. */
function andOver(contributors: readonly ContributorOutcome[]): VerdictStatus {
  if (contributors.some((contributor) => contributor.status === "fail")) return "fail";
  if (contributors.some((contributor) => contributor.status === "unknown")) return "unknown";
  return "pass";
}

function outcome(
  id: ContributorId,
  failing: string[],
  unresolved: string[],
  checked: number,
  detail: string,
  advisory: string[] = [],
): ContributorOutcome {
  const status = failing.length > 0 ? "fail" : unresolved.length > 0 ? "unknown" : "pass";
  const advised = advisory.length > 0 ? `; ${advisory.length} advisory failure(s) of unreliable criteria` : "";
  return {
    id,
    status,
    word: status === "pass" && checked === 0 ? NOTHING_CHECKED[id] : status,
    failing,
    unresolved,
    checked,
    detail: `${detail}${advised}`,
    advisory,
  };
}

const NOTHING_CHECKED: Record<ContributorId, ContributorWord> = {
  "code-judge": "nothing judged",
  "llm-judge": "nothing judged",
  gates: "nothing gated",
  regression: "nothing compared",
  integrity: "nothing checked",
  invariants: "nothing checked",
};

/** code-judge / llm-judge: every (eval, model, criterion) cell scored by that contributor's judge must pass. */
function judgeContributor(
  id: "code-judge" | "llm-judge",
  summaries: readonly ModelSummary[],
  input: VerdictInput,
  isAdvisory: AdvisoryCheck,
): ContributorOutcome {
  const sourceOf = (evalId: string, criterionId: string) =>
    input.criteria[evalId]?.find((ref) => ref.id === criterionId)?.source;
  const cells = criterionCells(summaries).filter((cell) => {
    const source = sourceOf(cell.evalId, cell.criterionId);
    return source !== undefined && contributorForSource(source) === id;
  });
  const reviewed = isAdvisory ? reviewedCells(input.observations) : new Set<string>();
  const statuses = cells.map((cell) => ({
    name: cellName(cell),
    status: judgeCriterion(cell.score, criterionThreshold(input.gates, cell.criterionId)),
    // A cell a person reviewed is no longer the disagreeing judges' word alone: it blocks as any other.
    advisory: (isAdvisory?.(cell.evalId, cell.criterionId) ?? false) && !reviewed.has(cellName(cell)),
  }));
  const failed = statuses.filter((cell) => cell.status === "fail");
  const failing = failed.filter((cell) => !cell.advisory).map((cell) => cell.name);
  const advisory = failed.filter((cell) => cell.advisory).map((cell) => cell.name);
  const unresolved = statuses.filter((cell) => cell.status === "unknown").map((cell) => cell.name);
  // How the contributor's judges are named in its detail (a task verifier is code too).
  const source = id === "code-judge" ? "judge.ts" : "judge.md";
  if (cells.length === 0) {
    const awaiting = input.observations.filter(
      (slot) =>
        slot.scores === null &&
        (input.judges?.[slot.evalId] ?? []).some((source) => contributorForSource(source) === id),
    );
    if (awaiting.length > 0) {
      const names = awaiting.map((slot) => `${slot.evalId}/${candidateName(slot)}#${slot.repetition}`);
      return outcome(
        id,
        [],
        names,
        0,
        `nothing judged yet: 0 of ${awaiting.length} slot(s) of real models with a ${source} judged`,
      );
    }
    return outcome(id, [], [], 0, `no ${source} criterion of a real model to check`);
  }
  const detail = `${cells.length - failed.length - unresolved.length} of ${cells.length} ${source} criterion cell(s) pass`;
  return outcome(id, failing, unresolved, cells.length, detail, advisory);
}

function gatesContributor(gates: readonly GateResult[]): ContributorOutcome {
  const failing = gates.filter((gate) => gate.status === "fail").map(gateName);
  const unresolved = gates.filter((gate) => gate.status === "unknown").map(gateName);
  return outcome(
    "gates",
    failing,
    unresolved,
    gates.length,
    gates.length === 0 ? "no gates configured" : gates.map((gate) => `${gateName(gate)}: ${gate.detail}`).join("; "),
    gates.filter((gate) => gate.advisory).map(gateName),
  );
}

function regressionContributor(
  summaries: readonly ModelSummary[],
  input: VerdictInput,
  isAdvisory: AdvisoryCheck,
): ContributorOutcome {
  if (!input.baseline)
    return {
      id: "regression",
      status: "skipped",
      word: "skipped",
      failing: [],
      unresolved: [],
      checked: 0,
      detail: "no baseline; set one with openeval baseline set <run>",
      advisory: [],
    };
  const report = findRegressions(input.baseline, summaries, input.gates, input.fingerprints, isAdvisory ?? undefined);
  const notes = [
    `against baseline of run ${input.baseline.runId}`,
    report.notCompared.length > 0 ? `${report.notCompared.length} baseline pass(es) not in this run` : "",
    report.judgeChanged.length > 0 ? `judge changed since the baseline for ${report.judgeChanged.join(", ")}` : "",
  ];
  return outcome(
    "regression",
    report.regressed,
    report.unresolved,
    report.compared,
    notes.filter((note) => note !== "").join("; "),
    report.advisory,
  );
}

/**
 * integrity: every judged slot's findings; one of a failing kind fails it, naming the slot and the finding. Slots
 * graded before the check existed (no findings recorded) are counted apart, never as passing or failing.
 */
function integrityContributor(input: VerdictInput): ContributorOutcome {
  const judged = input.observations.filter((slot) => slot.scores !== null);
  const checked = judged.filter((slot) => slot.integrityFindings);
  const failingSlots = new Set<string>();
  const failing: string[] = [];
  let warnings = 0;
  for (const slot of checked) {
    const name = `${slot.evalId}/${candidateName(slot)}#${slot.repetition}`;
    for (const finding of slot.integrityFindings ?? []) {
      if (severityOf(finding.kind, input.integrity) === "warn") warnings++;
      else {
        failing.push(`${name}: ${finding.kind} ${finding.subject}`);
        failingSlots.add(name);
      }
    }
  }
  const notes = [
    `${checked.length - failingSlots.size} of ${checked.length} judged slot(s) without a failing finding`,
    warnings > 0 ? `${warnings} warning finding(s)` : "",
    judged.length > checked.length ? `${judged.length - checked.length} graded before the integrity check` : "",
  ];
  const detail =
    checked.length === 0 ? "no judged slot of a real model to check" : notes.filter((note) => note !== "").join("; ");
  return outcome("integrity", failing, [], checked.length, detail);
}
