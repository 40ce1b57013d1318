// A rubric graded by a panel: each judge model grades the recording in its own session, folder and cost, and the
// judgments combine per criterion (panel-scores.ts). Judgments an earlier judge run of the same recording made with
// an unchanged fingerprint are reused, so adding a judge grades only with the new one, and a failed judge is
// graded again alone.
import { relative } from "node:path";
import type { PanelCombineRule } from "../../load/index.ts";
import type { PanelJudgment } from "../../records/index.ts";
import type { SourceOutcome } from "../judge-source.ts";
import { combinePanelScores, judgeLabel } from "./panel-scores.ts";
import { describeState } from "../../util/words.ts";

export interface PanelRequest {
  /** Each judge model with the fingerprint of its grading, in panel order. */
  judges: { model: string; fingerprint: string }[];
  combine: PanelCombineRule;
  /** The judgments of the recording's earlier judge runs, oldest first. */
  previous: readonly PanelJudgment[];
  /** Grade each judge this many more times (`openeval rejudge --repeat`), keeping the judgments it has. */
  repeat: number;
  /** False for an explicit rejudge: every judge grades afresh. */
  reuse: boolean;
}

/** One judgment to make: the model and which of its gradings it is. */
interface PlannedJudgment {
  model: string;
  fingerprint: string;
  repeat: number;
}

export interface PanelGrading {
  judgeRunId: string;
  runDirectory: string;
  /** The judge run's rubric folder (absolute): the first new judgment's; later ones take `<folder>-2`, `-3`, … */
  directory: string;
  grade(model: string, directory: string): Promise<SourceOutcome>;
  signal?: AbortSignal;
  /** After each judgment: every judgment so far (kept and made), for the running record. */
  onJudgment?: (panel: PanelJudgment[]) => void;
}

/** A panel's outcome: the combined scores, and every judgment (reused and new) on the judge run. */
export async function gradePanel(panel: PanelRequest, grading: PanelGrading): Promise<SourceOutcome> {
  const { kept, planned } = planJudgments(panel);
  const made: PanelJudgment[] = [];
  for (const [index, judgment] of planned.entries()) {
    if (grading.signal?.aborted) break;
    const directory = index === 0 ? grading.directory : `${grading.directory}-${index + 1}`;
    const outcome = await grading.grade(judgment.model, directory);
    made.push({
      model: judgment.model,
      repeat: judgment.repeat,
      fingerprint: judgment.fingerprint,
      state: outcome.state,
      scores: outcome.scores,
      error: outcome.error ?? null,
      ...(outcome.costUSD === undefined ? {} : { costUSD: outcome.costUSD }),
      ...(outcome.metrics ? { metrics: outcome.metrics } : {}),
      directory: relative(grading.runDirectory, directory),
      gradedBy: grading.judgeRunId,
    });
    grading.onJudgment?.(order([...kept, ...made], panel));
  }
  const judgments = order([...kept, ...made], panel);
  // Spend counts once, on the judge run that made it; a reused judgment was paid for by its own.
  const costUSD = made.reduce((total, judgment) => total + (judgment.costUSD ?? 0), 0);
  const shared = {
    panel: judgments,
    ...(judgments.length > 1 ? { combine: panel.combine } : {}),
    costUSD,
    // The session archived in the judge run's own rubric/ folder is the first judgment made here: its metrics go with it.
    ...(made[0]?.metrics ? { metrics: made[0].metrics } : {}),
  };
  const failed = made.find((judgment) => judgment.state !== "completed");
  if (failed || made.length < planned.length) {
    const state = failed?.state ?? "interrupted";
    const error = failed
      ? `judge ${judgeLabel(failed)}: ${failed.error ?? `it ended ${describeState(failed.state)}`}`
      : "The runner was interrupted before every judge of the panel graded";
    return { state: state === "running" ? "failed" : state, scores: null, error, ...shared };
  }
  // One judgment is its own score, reasons and all; a panel's combine.
  const scores = judgments.length === 1 ? judgments[0]!.scores : combinePanelScores(judgments, panel.combine);
  return { state: "completed", scores, ...shared };
}

/** Which judgments are kept from earlier judge runs, and which are graded now. */
export function planJudgments(panel: PanelRequest): { kept: PanelJudgment[]; planned: PlannedJudgment[] } {
  const kept: PanelJudgment[] = [];
  const planned: PlannedJudgment[] = [];
  for (const judge of panel.judges) {
    const reusable = panel.reuse ? latestPerRepeat(panel.previous, judge.fingerprint) : [];
    kept.push(...reusable);
    const next = reusable.length === 0 ? 0 : Math.max(...reusable.map((judgment) => judgment.repeat)) + 1;
    const count = (reusable.length === 0 ? 1 : 0) + panel.repeat;
    for (let offset = 0; offset < count; offset++) planned.push({ ...judge, repeat: next + offset });
  }
  return { kept, planned };
}

/** A completed judgment with this fingerprint per repeat: the latest one when an earlier run graded it twice. */
function latestPerRepeat(previous: readonly PanelJudgment[], fingerprint: string): PanelJudgment[] {
  const byRepeat = new Map<number, PanelJudgment>();
  for (const judgment of previous) {
    if (judgment.fingerprint === fingerprint && judgment.state === "completed") byRepeat.set(judgment.repeat, judgment);
  }
  return [...byRepeat.values()].sort((a, b) => a.repeat - b.repeat);
}

/** Panel order, then repeat: how every report lists them. */
function order(judgments: PanelJudgment[], panel: PanelRequest): PanelJudgment[] {
  const rank = (judgment: PanelJudgment) =>
    panel.judges.findIndex((judge) => judge.fingerprint === judgment.fingerprint);
  return judgments.sort((a, b) => rank(a) - rank(b) || a.repeat - b.repeat);
}
