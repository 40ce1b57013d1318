// auditBenchmark(): plays built-in attack candidates (audit-attacks.ts) against each eval as scripted controls,
// through the same runner as any model, next to the eval's reference (its positive controls or its oracle), and says
// which evals an attack passes as well as a real solution does. Offline: controls call no model, and only a rubric
// judge does, which the audit needs to be a real one. docs/guide/audit.md.
import type { ControlFile } from "@openeval/control-model";
import {
  CURRENT_VARIANT_NAME,
  judgePanelOf,
  loadBenchmark,
  type BenchmarkDefinition,
  type EvalDefinition,
} from "../load/index.ts";
import { ScopeInvalidError } from "../plan/index.ts";
import { readRunModels, recordModelsRetired, ResultsStore } from "../records/index.ts";
import type { RunnerListener, RunSummary } from "../summary/index.ts";
import { CONTROL_PROVIDER, controlName, isControlModel } from "../util/control-model.ts";
import { ATTACK_NAMES, planAttacks } from "./audit-attacks.ts";
import { readAuditSubject } from "./audit-subject.ts";
import {
  attackModel,
  decideEvalAudit,
  type ControlResult,
  type EvalAudit,
  type EvalAuditPlan,
} from "./audit-report.ts";
import { whileHoldingRun } from "./recover.ts";
import { runBenchmark } from "./run-benchmark.ts";
import { AuditControlNameError } from "./errors.ts";

export interface AuditOptions {
  /** A benchmark folder, or one already loaded. */
  benchmark: string | BenchmarkDefinition;
  /** Audit these evals only (default: every eval). */
  evals?: readonly string[];
  /** Record the audit's work in this run directory (default: the latest run). */
  run?: string;
  new?: boolean;
  onEvent?: RunnerListener;
}

export interface AuditReport {
  runDirectory: string;
  evals: EvalAudit[];
  /** Evals an attack passes as well as their reference does. */
  hackable: string[];
  /** False when a reference or attack of an audited eval could not be judged. */
  complete: boolean;
}

/**
 * @example
 * const report = await auditBenchmark({ benchmark: "examples/audit" });
 * report.hackable; // ["weak-count"]
 */
export async function auditBenchmark(options: AuditOptions): Promise<AuditReport> {
  const benchmark = typeof options.benchmark === "string" ? await loadBenchmark(options.benchmark) : options.benchmark;
  const evaluations = selectEvals(benchmark, options.evals);
  const taken = evaluations.flatMap((evaluation) =>
    ATTACK_NAMES.filter((name) => name in evaluation.controls).map((name) => ({ evalId: evaluation.id, name })),
  );
  if (taken.length > 0) throw new AuditControlNameError(taken);
  const judges = judgePanelOf(benchmark.settings).models;
  const plans = evaluations.map((evaluation) => planEvalAudit(evaluation, judges));
  // Step: run the references and the attacks that apply, one runner pass per set of evals they share.
  const { runDirectory, summaries } = await runPasses(benchmark, plans, options);
  const results = collectResults(summaries);
  const evals = plans.map((plan) =>
    decideEvalAudit(plan, (model) => results.get(resultKey(model, plan.evalId)) ?? null),
  );
  return {
    runDirectory,
    evals,
    hackable: evals.filter((audit) => audit.status === "hackable").map((audit) => audit.evalId),
    complete: evals.every((audit) => audit.status !== "incomplete"),
  };
}

function selectEvals(benchmark: BenchmarkDefinition, ids: readonly string[] | undefined): EvalDefinition[] {
  if (!ids) return benchmark.evals;
  const known = benchmark.evals.map((evaluation) => evaluation.id);
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length > 0)
    throw new ScopeInvalidError(
      unknown.map((id) => `--eval "${id}" matches no eval; the valid values are: ${known.join(", ") || "(none)"}`),
    );
  return benchmark.evals.filter((evaluation) => ids.includes(evaluation.id));
}

/** A rubric is graded by its judge models: the scripted control/judge only replays verdicts control files declare. */
export function planEvalAudit(evaluation: EvalDefinition, judgeModels: readonly string[]): EvalAuditPlan {
  const scripted = judgeModels.filter(isControlModel);
  if (evaluation.rubric && (judgeModels.length === 0 || scripted.length > 0))
    return {
      evalId: evaluation.id,
      notAudited: `not audited: its judge.md needs real judge models to grade attacks (${scripted.join(", ") || "none"} replays only the verdicts control files declare)`,
      references: [],
      attacks: [],
    };
  const references = Object.keys(evaluation.controls)
    .filter((name) => name.startsWith("positive") || name === "oracle")
    .sort()
    .map((name) => `${CONTROL_PROVIDER}/${name}`);
  return { evalId: evaluation.id, notAudited: null, references, attacks: planAttacks(readAuditSubject(evaluation)) };
}

interface Pass {
  models: string[];
  evals: string[];
}

async function runPasses(
  benchmark: BenchmarkDefinition,
  plans: readonly EvalAuditPlan[],
  options: AuditOptions,
): Promise<{ runDirectory: string; summaries: RunSummary[] }> {
  let run = options.run;
  let fresh = options.new;
  const summaries: RunSummary[] = [];
  // Once a pass has started, the run holds attack models: they are retired even if a pass then fails.
  let started = false;
  const onEvent: RunnerListener = (event) => {
    if (event.type === "run.started") {
      run = event.directory;
      started = true;
    }
    options.onEvent?.(event);
  };
  try {
    for (const pass of groupPasses(plans)) {
      const summary = await runBenchmark({
        benchmark: withAttacks(benchmark, plans, pass.evals),
        run,
        new: fresh,
        // Scripts play the same way every time: one repetition each, graded once they finish.
        scope: {
          replaceModels: pass.models,
          onlyEvals: pass.evals,
          variants: [],
          onlyRepetitions: [1],
          finalOnly: true,
        },
        onEvent,
      });
      summaries.push(summary);
      run = summary.directory;
      fresh = false;
    }
  } finally {
    if (started && run !== undefined) retireAttacks(run);
  }
  return { runDirectory: run ?? "", summaries };
}

/** Models that run on the same evals share a pass: usually one pass for the whole audit. */
function groupPasses(plans: readonly EvalAuditPlan[]): Pass[] {
  const evalsOf = new Map<string, string[]>();
  for (const plan of plans) {
    const attacks = plan.attacks.flatMap((attack) => (attack.applicable ? [attackModel(attack.name)] : []));
    for (const model of [...plan.references, ...attacks])
      evalsOf.set(model, [...(evalsOf.get(model) ?? []), plan.evalId]);
  }
  const passes = new Map<string, Pass>();
  for (const [model, evals] of evalsOf) {
    const key = evals.join("\u0000");
    const pass = passes.get(key) ?? { models: [], evals };
    pass.models.push(model);
    passes.set(key, pass);
  }
  return [...passes.values()];
}

/** The benchmark as the pass runs it: its evals with their attack controls beside their own. */
function withAttacks(
  benchmark: BenchmarkDefinition,
  plans: readonly EvalAuditPlan[],
  evals: readonly string[],
): BenchmarkDefinition {
  const attacksOf = (evalId: string): Record<string, ControlFile> =>
    Object.fromEntries(
      (plans.find((plan) => plan.evalId === evalId)?.attacks ?? []).flatMap((attack) =>
        attack.applicable ? [[attack.name, attack.control]] : [],
      ),
    );
  return {
    ...benchmark,
    evals: benchmark.evals
      .filter((evaluation) => evals.includes(evaluation.id))
      .map((evaluation) => ({ ...evaluation, controls: { ...evaluation.controls, ...attacksOf(evaluation.id) } })),
  };
}

/**
 * The attacks leave the run's scores once played, as `remove-models` would retire them: their records stay, but a
 * later `openeval run` of this run must not plan controls that exist only while an audit runs.
 */
function retireAttacks(runDirectory: string): void {
  const store = ResultsStore.open(runDirectory);
  try {
    whileHoldingRun(store, () => {
      const attacks = new Set<string>(ATTACK_NAMES);
      const active = readRunModels(store).active.filter(
        (model) => isControlModel(model) && attacks.has(controlName(model)),
      );
      recordModelsRetired(store, active);
    });
  } finally {
    store.close();
  }
}

function resultKey(model: string, evalId: string): string {
  return `${model}\u0000${evalId}`;
}

/** Each control's credit and integrity findings per eval, on the current agent. */
function collectResults(summaries: readonly RunSummary[]): Map<string, ControlResult> {
  const results = new Map<string, ControlResult>();
  for (const summary of summaries) {
    for (const model of summary.models) {
      if ((model.variant ?? CURRENT_VARIANT_NAME) !== CURRENT_VARIANT_NAME) continue;
      for (const evaluation of model.evals)
        results.set(resultKey(model.model, evaluation.evalId), {
          score: evaluation.value,
          criteria: Object.fromEntries(Object.entries(evaluation.criteria).map(([id, bounded]) => [id, bounded.value])),
          findings: [],
        });
    }
    for (const slot of summary.integrityFindings ?? []) {
      if (slot.slot.variant !== CURRENT_VARIANT_NAME) continue;
      const result = results.get(resultKey(slot.slot.model, slot.slot.evalId));
      result?.findings.push(
        ...slot.findings.map(({ kind, severity, subject, detail }) => ({ kind, severity, subject, detail })),
      );
    }
  }
  return results;
}
