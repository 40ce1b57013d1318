// The viewer's JSON API: every answer the server (or a static export) gives the front end. packages/viewer
// imports these types; it never re-declares them. Scores in a leaderboard are 0–100, everywhere else 0–1.
import type { VerificationReceipt } from "../recording/index.ts";
import type { CriterionSource, ReviewScore, ScoreReview } from "../records/index.ts";
import type { ReviewStanding } from "../summary/index.ts";
import type { FileDiff, FileEntry, Revision } from "../recording/index.ts";
import type {
  BenchmarkRun,
  Citation,
  EvalRun,
  EvalRunOutcome,
  EvalRunState,
  IntegrityFinding,
  IntegrityProblem,
  JudgeRun,
  JudgeRunState,
  RunMetrics,
} from "../records/index.ts";
import type { IntegritySeverity } from "../load/index.ts";
import type { InvariantReport } from "../summary/index.ts";
import type {
  Bounded,
  CategoryScore,
  ContributorStatus,
  CriterionAgreement,
  ContributorWord,
  ModelPairComparison,
  Verdict,
  VerdictHeadline,
  VerdictStatus,
  VerdictWords,
} from "../results/index.ts";

export type { VerificationReceipt };
export type { ReviewStanding, ScoreReview };
export type {
  IntegrityFinding,
  IntegritySeverity,
  Bounded,
  BenchmarkRun,
  ContributorStatus,
  ContributorWord,
  CriterionAgreement,
  EvalRun,
  EvalRunOutcome,
  EvalRunState,
  FileDiff,
  FileEntry,
  JudgeRun,
  JudgeRunState,
  Revision,
  RunMetrics,
  Verdict,
  VerdictHeadline,
  VerdictStatus,
  VerdictWords,
};

/** One page of a long list. */
export interface Page<T> {
  total: number;
  offset: number;
  items: T[];
}

export interface RunListItem {
  id: string;
  name: string;
  createdAt: string;
  models: string[];
  /** The agent variants run besides current ([] for a run of current only). */
  variants: string[];
  evals: string[];
  repetitions: number;
  /** The counts are null for a large run not opened yet (listing runs never reads every row of every store). */
  counts: { slots: number; evalRuns: number; judged: number; complete: boolean } | null;
  /** A runner is writing to it now (its heartbeat is fresh). */
  live: boolean;
}

export interface RunsAnswer {
  runs: RunListItem[];
  /** The run `openeval view --run` named, else the latest. */
  defaultRunId: string | null;
}

export interface LeaderboardRow {
  model: string;
  /** The agent variant of this row (one row per model × variant); absent for current. */
  variant?: string;
  /** The row's candidate as reports name it (`model`, or `model [variant]`): what a comparison names a side by. */
  candidate: string;
  /** A scripted control model (`control/<name>`), never a real model's result; it never enters the verdict. */
  control: boolean;
  /** A real model with eval runs on the host as the current user (`--isolation process`), not in a container. */
  unsandboxed: boolean;
  /** 0–100 with completion bounds; value is null while anything is unresolved. */
  score: Bounded;
  /** 95% confidence interval of the score, 0–100 (bootstrap clustered by eval); null with `ciNote` saying why. */
  ci: { lower: number; upper: number } | null;
  ciNote: string | null;
  /**
   * This model's part in the run's verdict, in the words the run's verdict uses: "fail" when a failing check names
   * it, "incomplete" when an undecided one does; null for controls, variants that do not block, or no verdict.
   */
  verdict: VerdictWords | null;
  slots: number;
  judged: number;
  /** Slots whose candidate or judge failed (they stay unresolved). */
  failed: number;
  /** Recorded candidate spend; a lower bound when `unknownCost` > 0; null when none is known. */
  costUSD: number | null;
  /** What judging spent (rubric judges and earlyStop checks); null when none is known. */
  judgeCostUSD: number | null;
  /** Candidate and judge spend together. */
  totalCostUSD: number | null;
  meanCostUSD: number | null;
  unknownCost: number;
  /** Sum of the candidate's elapsed time over the model's active eval runs. */
  elapsedMs: number | null;
  medianElapsedMs: number | null;
  p95ElapsedMs: number | null;
}

export interface RunOverview {
  run: BenchmarkRun;
  /** Changes whenever the store changes: the front end refetches when it does. */
  version: string;
  live: boolean;
  complete: boolean;
  counts: { slots: number; evalRuns: number; judgeRuns: number; judged: number; running: number; failed: number };
  leaderboard: LeaderboardRow[];
  /**
   * The run's verdict as readResults() decides it (with the settings recorded with the run); null with `verdictNote`
   * when it cannot (benchmark.ts not loadable).
   */
  verdict: Verdict | null;
  /** Its words as the CLI says them (describeVerdict): "incomplete" when it cannot be decided yet, never "pass". */
  verdictWords: VerdictWords | null;
  /** Why there is no verdict, or that benchmark.ts changed since the run (the verdict then uses the recorded settings). */
  verdictNote: string | null;
  /**
   * When the runner recorded the verdict, scores' CIs, comparisons and categories shown (ISO time): the run and its
   * benchmark have not changed since, so they are what readResults() gives now. Null: made now, when the leaderboard
   * was asked for. Absent only from the run index's own overview, before the summary is read.
   */
  summaryRecordedAt?: string | null;
  /** Eval id → criterion ids seen in its judgments. */
  criteria: Record<string, string[]>;
  /** Records that fail their integrity check: shown, and judge runs among them not scored. */
  integrity: IntegrityProblem[];
  /** Each variant against current for the same model (variant − current), as the run's summary gives it; [] without one. */
  variantComparisons: { model: string; variant: string; comparison: ModelPairComparison }[];
  /** Per criterion category, each model's score with bounds and 95% CI, as the run's summary gives it; [] without categories. */
  categories: CategoryScore[];
  /**
   * Krippendorff's α of each criterion a judge panel graded, unreliable ones flagged, as the run's summary gives it;
   * [] without a panel. Absent only from the run index's own overview, before the summary is read.
   */
  agreement?: CriterionAgreement[];
  /**
   * benchmark.ts `invariants`, each with its recorded standing (read, never run), as the run's summary gives it; []
   * when none is declared. Absent only from the run index's own overview, before the summary is read.
   */
  invariants?: InvariantReport[];
}

/** The active work of one slot (the latest eval run and its latest finished judgment). */
export interface SlotCell {
  repetition: number;
  /** The case of an eval with cases; absent for an eval without. */
  case?: string;
  evalRunId: string | null;
  /** "pending": nothing recorded for the slot yet. */
  state: EvalRunState | "pending";
  judgeRunId: string | null;
  judgeState: JudgeRunState | null;
  /** The slot's eval-level credit (mean of its criteria), 0–1; null when unresolved. */
  value: number | null;
}

/** A slot's (or a cell's slots') integrity findings: how many, and the worst severity the verdict gives one. */
export interface IntegrityFlag {
  findings: number;
  /** "fail" when any finding fails the verdict (benchmark.ts `integrity`, recorded with the run), else "warn". */
  severity: IntegritySeverity;
}

/** A slot as the matrix shows it: with its active judgment's integrity findings flagged. */
export interface MatrixSlotCell extends SlotCell {
  /** Null: no findings (or not checked). */
  integrity: IntegrityFlag | null;
}

export interface MatrixCell {
  model: string;
  /** Absent for current. */
  variant?: string;
  /** The column's name: `model`, or `model [variant]`. */
  candidate: string;
  /** Mean over repetitions of the eval's criteria, 0–1, with completion bounds. */
  score: Bounded;
  slots: MatrixSlotCell[];
  /** Its slots' integrity findings together; null when none of them has one. */
  integrity: IntegrityFlag | null;
  /** An eval with cases: each case's score for this candidate, in MatrixRow.cases order; absent without cases. */
  cases?: CaseCell[];
}

/** One case of an eval for one candidate: the mean of its criteria over repetitions, with completion bounds. */
export interface CaseCell {
  caseId: string;
  score: Bounded;
}

export interface MatrixRow {
  evalId: string;
  /** An eval with cases: its case ids, in the order they were first recorded; absent for an eval without cases. */
  cases?: string[];
  /** In the order of MatrixAnswer.models. */
  cells: MatrixCell[];
}

export interface MatrixAnswer extends Page<MatrixRow> {
  /** The columns: one per candidate (`model`, or `model [variant]`), in leaderboard order. */
  candidates: string[];
}

export interface EvalRunRow {
  id: string;
  evalId: string;
  model: string;
  /** Absent for current. */
  variant?: string;
  /** `model`, or `model [variant]`: what the list shows and filters by. */
  candidate: string;
  repetition: number;
  /** The case of an eval with cases; absent for an eval without. */
  case?: string;
  control: boolean;
  state: EvalRunState;
  infrastructureError: boolean;
  /** How it ended, in the words the CLI uses (e.g. "infrastructure error" for a timeout before the first step). */
  outcome: EvalRunOutcome;
  error: string | null;
  startedAt: string;
  elapsedMs: number | null;
  costUSD: number | null;
  toolCalls: number | null;
  /** The slot's current eval run (a superseded one stays listed, marked inactive). */
  active: boolean;
  judgeRunId: string | null;
  judgeState: JudgeRunState | null;
  value: number | null;
}

export const EVAL_RUN_SORTS = ["started", "eval", "model", "score", "elapsed", "cost"] as const;
export type EvalRunSort = (typeof EVAL_RUN_SORTS)[number];

export interface EvalRunQuery {
  offset: number;
  limit: number;
  evalId?: string;
  /** Every variant of this model. */
  model?: string;
  /** One candidate (`model` for current, `model [variant]`). */
  candidate?: string;
  state?: EvalRunState;
  sort?: EvalRunSort;
  descending?: boolean;
}

export interface JudgeRunSummary {
  id: string;
  kind: JudgeRun["kind"];
  state: JudgeRunState;
  startedAt: string;
  elapsedMs: number | null;
  value: number | null;
  error: string | null;
  /** The judgment the slot's score uses. */
  active: boolean;
  /** The earlyStop check that made this judgment (it stopped the candidate); null for a judgment made after the run. */
  decidedEarly: number | null;
}

export interface SessionInfo {
  id: string;
  parentID: string | null;
  title: string;
  messages: number;
  cost: number | null;
  tokens: { input: number; output: number; reasoning: number; cacheRead: number; cacheWrite: number } | null;
}

export interface ToolSummary {
  id: string;
  sessionID: string | null;
  name: string;
  status: "pending" | "running" | "completed" | "error";
  durationMs: number | null;
  error: string | null;
}

export interface EvalRunDetail {
  evalRun: EvalRun;
  /** The slot's candidate as reports name it: `model`, or `model [variant]`. */
  candidate: string;
  /** How it ended, in the CLI's words (see EvalRunRow.outcome). */
  outcome: EvalRunOutcome;
  /** What the recording shows beyond how it ended, in the summary's words. */
  findings: string[];
  judgeRuns: JudgeRunSummary[];
  /** Why the recording could not be read (no recording yet, corrupt, …); null when it was. */
  evidenceError: string | null;
  prompt: string;
  response: string;
  kind: "candidate" | "constructed" | null;
  rootSessionID: string | null;
  sessions: SessionInfo[];
  tools: ToolSummary[];
  diff: FileDiff[];
  /** The final workspace snapshot. */
  files: FileEntry[];
  /**
   * Only in a static export: the workspace files whose contents it does not hold (path → why); the Files tab says so
   * instead of asking for them. The server holds every file.
   */
  leftOut?: Record<string, string>;
  /** Process logs of the eval run (paths relative to its folder). */
  logs: FileInfo[];
  metrics: RunMetrics | null;
  /**
   * What the integrity check found in this eval run's recording, as its active judgment (else its latest one) recorded
   * it; null when that judgment has no check (none yet, grading failed before it, or it predates the check).
   */
  integrity: EvalRunIntegrity | null;
}

export interface EvalRunIntegrity {
  judgeRunId: string;
  /** Null when the check found nothing. */
  flag: IntegrityFlag | null;
  findings: IntegrityFindingView[];
}

/** One integrity finding, with the severity the verdict gives it and where on the eval-run page its citation leads. */
export interface IntegrityFindingView extends IntegrityFinding {
  severity: IntegritySeverity;
  /** Null when the recording shown does not hold what the citation names (or could not be read). */
  target: IntegrityTarget | null;
}

/**
 * Where an integrity citation leads on the eval-run page:
 * - tool: the Transcript tab's step for the call (`?tab=transcript&focus=<focus>`: the element whose data-id or
 *   data-call-id is `focus`);
 * - file: the Diff tab's entry for the path (`?tab=diff&path=<path>`);
 * - egress: entry `index` of the eval run's refused connections (`host` null: a request that was not a CONNECT).
 */
export type IntegrityTarget =
  | { kind: "tool"; focus: string; sessionID: string | null; tool: string }
  | { kind: "file"; path: string; status: FileDiff["status"] }
  | { kind: "egress"; index: number; host: string | null };

/** One part of a message, reduced to what the transcript shows. Long text is cut (`truncated`). */
export type TranscriptPart =
  | { kind: "text"; id: string; text: string; synthetic: boolean; truncated: boolean }
  | { kind: "reasoning"; id: string; text: string; truncated: boolean }
  | {
      kind: "tool";
      id: string;
      callID: string | null;
      tool: string;
      status: ToolSummary["status"];
      title: string | null;
      input: unknown;
      output: string | null;
      error: string | null;
      durationMs: number | null;
      /** A subagent session this call started (the task tool). */
      childSessionID: string | null;
      truncated: boolean;
    }
  | {
      kind: "step";
      id: string;
      phase: "start" | "finish";
      cost: number | null;
      tokens: Record<string, unknown> | null;
      reason: string | null;
    }
  | { kind: "other"; id: string; type: string; summary: string };

export interface TranscriptMessage {
  id: string;
  sessionID: string;
  role: string;
  agent: string | null;
  model: string | null;
  createdAt: number | null;
  completedAt: number | null;
  cost: number | null;
  error: string | null;
  parts: TranscriptPart[];
}

export interface TranscriptPage extends Page<TranscriptMessage> {
  sessionID: string;
}

/** Where a cited message, part or tool call is in the transcript. */
export interface TranscriptLocation {
  sessionID: string;
  /** Index of the message in its session. */
  index: number;
  messageID: string;
  partID: string | null;
}

export interface EventRow {
  sessionID: string;
  sequence: number;
  type: string;
  time: number | null;
  data: string;
  truncated: boolean;
}

export interface FileInfo {
  path: string;
  bytes: number;
  kind: "text" | "image" | "binary";
}

export interface FileText {
  path: string;
  /** Null when the file is binary or too large to show. */
  text: string | null;
  bytes: number;
  truncated: boolean;
}

/** A citation as the judge gave it; kind "unknown" (with `raw`) for one that does not match the citation shape. */
export interface CitationView {
  kind: Citation["kind"] | "unknown";
  id: string | null;
  path: string | null;
  revision: Revision | null;
  quote: string | null;
  raw: unknown;
}

export interface CriterionView {
  id: string;
  value: number | null;
  source: CriterionSource;
  reason: string | null;
  citations: CitationView[];
  measurements: unknown;
  /** `Ceiling: reference_fix`: the reference-fix scorer's value that capped the score, and the judge's own score. */
  ceiling: { kind: "reference_fix"; value: number; judged: number | null } | null;
  /** A person's review that decides `value` in place of the judge's score (kept in `review.judged`); null when none. */
  review: ScoreReview | null;
}

export interface VerificationView {
  id: string;
  /** Folder relative to the judge run's folder. */
  directory: string;
  /** The receipt, when it matches the receipt format; `raw` keeps whatever the file held. */
  receipt: VerificationReceipt | null;
  raw: unknown;
  stdout: string | null;
  stderr: string | null;
  artifacts: FileInfo[];
}

export interface JudgeRunDetail {
  judgeRun: JudgeRun;
  /** The judged slot's candidate as reports name it: `model`, or `model [variant]`. */
  candidate: string;
  evalRun: EvalRunRow | null;
  criteria: CriterionView[];
  /** The criteria are the failed judgment's kept scores (JudgeRun.keptScores): shown, not counted. */
  keptOnly: boolean;
  /** A panel's judgments (several judge models, or repeated gradings), each with its own scores; [] for one judgment. */
  panel: PanelJudgmentView[];
  /** Every file of the judge run's folder (frozen judge source, logs, rubric archive, verification). */
  files: FileInfo[];
  /** code/judge.js, the frozen bundle that graded. */
  source: string | null;
  /** The rubric judge's accepted submission (rubric/submission.json): scores, reasons, citations as submitted. */
  rubricSubmission: unknown;
  logs: { stdout: string | null; stderr: string | null };
  verifications: VerificationView[];
  /** The rubric judge's own OpenCode session; null when no rubric judge ran (a code judgment). */
  session: JudgeSessionView | null;
  /** What of this judge run changed after it finished (its row or a file), or null when it checks out. */
  integrityError: string | null;
  /**
   * Every review of the judged eval run, history included (`openeval review`), each with where it stands against this
   * judge run (`active`: it decides this judgment's criterion; `judgeAgrees`: this judge scored the same). An export
   * leaves the reviewers' emails out unless asked.
   */
  reviews: ReviewStanding[];
  /** Reviews of the judged eval run that fail their check (an edited or deleted review file): not applied. */
  reviewProblems: string[];
}

/** What the viewer's review form sends (POST /api/actions/runs/<run>/reviews); `openeval review` takes the same. */
export interface ReviewRequest {
  evalRunId: string;
  criterion: string;
  score: ReviewScore;
  reason: string;
  /** The reviewer's name; default `git config user.name` where the viewer runs. */
  by?: string;
}

/** One judge model's grading of the rubric, as the judge-run page shows it beside the panel's combination. */
export interface PanelJudgmentView {
  model: string;
  /** 0 for the first grading; 1, 2, … for `rejudge --repeat`. */
  repeat: number;
  state: JudgeRunState;
  error: string | null;
  costUSD: number | null;
  /** The judge run that made it: this one, or an earlier one whose judgment was reused. */
  gradedBy: string;
  /** Its rubric folder, relative to the run directory. */
  directory: string;
  criteria: CriterionView[];
}

/**
 * A rubric judge's own OpenCode session, shown as a candidate's transcript is: its messages, tool calls (a rejected
 * submission is a failed judge_submit_judgment call whose error says why) and final answer. Sent whole: a judge
 * session is a few dozen messages, and long texts are cut.
 */
export interface JudgeSessionView {
  /** Why there is no session to show (the judge never started, is still running, its archive fails its check); null when there is. */
  error: string | null;
  rootSessionID: string | null;
  sessions: SessionInfo[];
  tools: ToolSummary[];
  /** The judge's last free-text answer; "" when it gave none. */
  response: string;
  /** Session id → its messages, root session first. */
  transcripts: Record<string, TranscriptMessage[]>;
}

/** Server → browser over /api/runs/:run/live (SSE): the store changed. */
export interface LiveMessage {
  version: string;
  live: boolean;
}
