// Adaptive repetitions, replayed from the recorded work: every slot runs `min` repetitions; then, one round at a time,
// each comparison (a variant against current, a pair of models, or a candidate against baseline.json) is looked at
// over the repetitions recorded so far, and the candidates whose every comparison is decided get no more. The runner,
// `openeval plan` and the summary all plan through here, so they agree on which repetitions a run needs.
// docs/guide/adaptive-repetitions.md.
import { join } from "node:path";
import {
  CURRENT_VARIANT_NAME,
  type AdaptiveRepetitions,
  type BenchmarkDefinition,
  type EvalDefinition,
} from "../load/index.ts";
import {
  planSlots,
  type CandidateRuntime,
  type Plan,
  type PlannedSlot,
  type PlanScope,
  type RecordedWork,
} from "../plan/index.ts";
import {
  candidateName,
  creditsOf,
  type EvalRunHead,
  type JudgeRun,
  type JudgeRunHead,
  type SlotKey,
} from "../records/index.ts";
import { BASELINE_FILE, decideLook, readBaseline, type Baseline, type SequentialLook } from "../results/index.ts";

type JudgedHead = JudgeRunHead & Pick<JudgeRun, "scores">;

export interface AdaptiveComparison {
  /** The candidate whose credit comes first in each difference (`model`, or `model [variant]`). */
  a: string;
  /** The other side: a candidate, or "baseline" (baseline.json's score of a's cell). */
  b: string;
  /** The repetition after which it was decided; null while undecided. */
  decidedAfter: number | null;
  /** The look that decided it, or the latest one. */
  look: SequentialLook;
}

export interface AdaptiveProgress extends AdaptiveRepetitions {
  /** The highest repetition a round has reached. */
  level: number;
  comparisons: AdaptiveComparison[];
  /** Slots a decided comparison spared, and what they would have cost (their candidates' mean recorded cost). */
  saved: { slots: number; usd: number | null };
  /** Why no comparison can be decided, when none can (no baseline.json to decide against). */
  note: string | null;
}

/** One candidate's credits: cell (eval and case) → repetition → credit. */
type Side = Map<string, Map<number, number | null>>;

/**
 * The plan of the round the run has reached, and where adaptive repetitions stand; a benchmark without them plans
 * as always.
 */
export async function planAdaptively<E extends EvalRunHead, J extends JudgedHead>(
  benchmark: BenchmarkDefinition,
  records: RecordedWork<E, J>,
  scope: PlanScope,
  imageFor?: (evalId: string) => string | null,
  runtimeFor?: (model: string, evaluation: EvalDefinition) => CandidateRuntime,
): Promise<{ plan: Plan<E, J>; adaptive: AdaptiveProgress | null }> {
  const settings = benchmark.settings.adaptive;
  if (!settings) return { plan: planSlots(benchmark, records, scope, imageFor, runtimeFor), adaptive: null };
  const baseline =
    settings.decided === "baseline" ? await readBaseline(join(benchmark.directory, BASELINE_FILE)) : null;
  const baselineCredits = baselineCreditsOf(baseline);
  const decided = new Map<string, { after: number; look: SequentialLook }>();
  let comparisons: { a: string; b: string }[] | null = null;
  const stopped = (slot: SlotKey) => {
    const name = candidateName(slot);
    const mine = (comparisons ?? []).filter((comparison) => comparison.a === name || comparison.b === name);
    const decisions = mine.map((comparison) => decided.get(key(comparison)));
    if (mine.length === 0 || decisions.includes(undefined)) return null;
    return {
      after: Math.max(...decisions.map((decision) => decision!.after)),
      reason: mine
        .map((comparison) => `${describe(comparison)} ${decided.get(key(comparison))!.look.decision}`)
        .join("; "),
    };
  };
  let level = settings.min;
  for (;;) {
    const planAt = () => planSlots(benchmark, records, { ...scope, rounds: { level, stopped } }, imageFor, runtimeFor);
    let plan = planAt();
    comparisons ??= comparisonsOf(plan.slots, settings.decided, baseline);
    const sides = sidesOf(plan.slots, level);
    const looks = new Map(comparisons.map((comparison) => [key(comparison), look(sides, comparison, level)]));
    const finish = () => ({ plan, adaptive: progress(settings, level, comparisons!, decided, looks, plan, baseline) });
    if (plan.slots.some((slot) => slot.action === "candidate" || slot.action === "judge")) return finish();
    let newlyDecided = false;
    for (const comparison of comparisons) {
      const latest = looks.get(key(comparison))!;
      if (decided.has(key(comparison)) || latest.decision === null) continue;
      decided.set(key(comparison), { after: level, look: latest });
      newlyDecided = true;
    }
    // The repetitions after this round become "decided" for the candidates it settled.
    if (newlyDecided) plan = planAt();
    const settled = comparisons.length > 0 && comparisons.every((comparison) => decided.has(key(comparison)));
    if (level >= settings.max || settled) return finish();
    level++;
  }

  function look(sides: ReadonlyMap<string, Side>, comparison: { a: string; b: string }, upTo: number) {
    const a = sides.get(comparison.a);
    const differences: number[] = [];
    for (const [cell, repetitions] of a ?? []) {
      for (const [repetition, credit] of repetitions) {
        const other =
          comparison.b === "baseline"
            ? (baselineCredits.get(`${comparison.a}\u0000${cell}`) ?? null)
            : (sides.get(comparison.b)?.get(cell)?.get(repetition) ?? null);
        if (credit !== null && other !== null) differences.push(credit - other);
      }
    }
    return decideLook(differences, upTo - settings!.min + 1, { margin: settings!.margin });
  }
}

/** Each candidate's credits by cell and repetition, from the judged slots up to repetition `upTo`. */
function sidesOf<E extends EvalRunHead, J extends JudgedHead>(
  slots: readonly PlannedSlot<E, J>[],
  upTo: number,
): Map<string, Side> {
  const sides = new Map<string, Side>();
  for (const slot of slots) {
    if (slot.action !== "reuse" || slot.repetition > upTo) continue;
    const name = candidateName(slot);
    const side: Side = sides.get(name) ?? new Map();
    sides.set(name, side);
    const cell = cellOf(slot);
    const repetitions = side.get(cell) ?? new Map<number, number | null>();
    side.set(cell, repetitions);
    repetitions.set(slot.repetition, slotCredit(slot.judgeRun));
  }
  return sides;
}

/** The slot's credit: the mean of its active judgment's criteria; null when one is unresolved or it has none. */
function slotCredit(judgeRun: JudgedHead | null): number | null {
  const credits = creditsOf(judgeRun);
  const values = Object.values(credits ?? {});
  if (values.length === 0 || values.includes(null)) return null;
  return (values as number[]).reduce((sum, value) => sum + value, 0) / values.length;
}

function comparisonsOf(
  slots: readonly PlannedSlot[],
  decided: AdaptiveRepetitions["decided"],
  baseline: Baseline | null,
): { a: string; b: string }[] {
  const candidates = [
    ...new Map(
      slots
        .filter((slot) => slot.deferredBy !== "scope")
        .map((slot) => [candidateName(slot), { model: slot.model, variant: slot.variant }]),
    ).values(),
  ];
  if (decided === "variants")
    return candidates
      .filter((candidate) => candidate.variant !== CURRENT_VARIANT_NAME)
      .map((candidate) => ({ a: candidateName(candidate), b: candidate.model }));
  if (decided === "models") {
    const models = [...new Set(candidates.map((candidate) => candidate.model))];
    return models.slice(1).map((model) => ({ a: model, b: models[0]! }));
  }
  if (!baseline) return [];
  return candidates
    .filter((candidate) =>
      baseline.entries.some(
        (entry) => entry.model === candidate.model && (entry.variant ?? CURRENT_VARIANT_NAME) === candidate.variant,
      ),
    )
    .map((candidate) => ({ a: candidateName(candidate), b: "baseline" }));
}

/** baseline.json's credit of each candidate's cell (`candidate␀eval␀case`): the mean of its criteria, of the case's for an eval with cases. */
function baselineCreditsOf(baseline: Baseline | null): Map<string, number> {
  const credits = new Map<string, number>();
  const mean = (criteria: Record<string, number>) => {
    const values = Object.values(criteria);
    return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
  };
  for (const entry of baseline?.entries ?? []) {
    const candidate = candidateName({ model: entry.model, variant: entry.variant ?? CURRENT_VARIANT_NAME });
    const cells: [string, Record<string, number>][] = entry.cases
      ? Object.entries(entry.cases).map(([caseId, criteria]) => [caseId, criteria])
      : [["", entry.criteria]];
    for (const [caseId, criteria] of cells) {
      const credit = mean(criteria);
      if (credit !== null)
        credits.set(
          `${candidate}\u0000${cellOf({ evalId: entry.evalId, ...(caseId ? { case: caseId } : {}) })}`,
          credit,
        );
    }
  }
  return credits;
}

function progress<E extends EvalRunHead, J extends JudgedHead>(
  settings: AdaptiveRepetitions,
  level: number,
  comparisons: readonly { a: string; b: string }[],
  decided: ReadonlyMap<string, { after: number; look: SequentialLook }>,
  looks: ReadonlyMap<string, SequentialLook>,
  plan: Plan<E, J>,
  baseline: Baseline | null,
): AdaptiveProgress {
  const spared = plan.slots.filter((slot) => slot.deferredBy === "decided");
  const costs = new Map(
    [
      ...Map.groupBy(
        plan.slots.filter((slot) => slot.evalRun?.metrics?.cost.usd != null),
        candidateName,
      ),
    ].map(([name, costed]) => [
      name,
      costed.reduce((sum, slot) => sum + slot.evalRun!.metrics!.cost.usd!, 0) / costed.length,
    ]),
  );
  const prices = spared.map((slot) => costs.get(candidateName(slot)) ?? null);
  return {
    ...settings,
    level,
    comparisons: comparisons.map((comparison) => {
      const decision = decided.get(key(comparison));
      return {
        ...comparison,
        decidedAfter: decision?.after ?? null,
        look: decision?.look ?? looks.get(key(comparison))!,
      };
    }),
    saved: {
      slots: spared.length,
      usd: prices.includes(null) ? null : (prices as number[]).reduce((sum, price) => sum + price, 0),
    },
    note:
      settings.decided === "baseline" && baseline === null
        ? `no ${BASELINE_FILE} to decide against: every slot runs ${settings.max} repetitions; set one with \`openeval baseline set\``
        : null,
  };
}

function cellOf(slot: Pick<SlotKey, "evalId" | "case">): string {
  return `${slot.evalId}\u0000${slot.case ?? ""}`;
}

function key(comparison: { a: string; b: string }): string {
  return `${comparison.a}\u0000${comparison.b}`;
}

function describe(comparison: { a: string; b: string }): string {
  return `${comparison.a} against ${comparison.b}`;
}
