// Records the results store keeps: eval runs, judge runs and the judgments they produce.
import * as z from "zod";
import { CURRENT_VARIANT_NAME, INTEGRITY_FINDING_KINDS, PANEL_COMBINE_RULES } from "../load/index.ts";
import { RunMetricsSchema } from "./run-metrics-schema.ts";

const count = z.number().int().nonnegative();
const nullableNumber = z.number().nullable();

export const EVAL_RUN_STATES = [
  "running",
  "completed",
  "failed",
  "timed_out",
  "cost_limited",
  "token_limited",
  "step_limited",
  "stopped",
  "interrupted",
] as const;
export const JUDGE_RUN_STATES = ["running", "completed", "failed", "timed_out", "interrupted"] as const;

export const SlotKeySchema = z.object({
  evalId: z.string(),
  model: z.string(),
  repetition: z.number().int().positive(),
  /**
   * The agent variant. Every slot key in memory has one; a stored row leaves `current` out (slot-key.ts toStoredRow),
   * as rows recorded before variants do, so a row read without one is current.
   */
  variant: z.string().default(CURRENT_VARIANT_NAME),
  /** The case of an eval with cases (load/eval-cases.ts); absent for an eval without, as every earlier row is. */
  case: z.string().optional(),
});

const EvidenceRefSchema = z.object({ directory: z.string(), hash: z.string() });

/** One earlyStop check: a rubric judge session over a fixed snapshot of the running candidate. */
export const EarlyCheckSchema = z.object({
  check: z.number().int().positive(),
  startedAt: z.string(),
  elapsedMs: z.number(),
  /**
   * decided: every criterion was decided irreversibly (the candidate was stopped, the judgment is final);
   * continue: the judge needed more; failed: no usable answer (the run goes on and is graded when it ends);
   * cancelled: the candidate ended while the check ran.
   */
  outcome: z.enum(["decided", "continue", "failed", "cancelled"]),
  /** The judge's reason to continue, or why the check failed. */
  reason: z.string().nullable(),
  costUSD: z.number().nullable(),
  /** The check's folder (its `rubric/` archive), relative to the run directory. */
  directory: z.string(),
  /** The snapshot it judged (relative directory); null when taking it failed. */
  checkpoint: EvidenceRefSchema.nullable(),
});

/** The prepare step that stopped an eval run's preparation: what ran, how it ended, its output's tail. */
export const PreparationErrorSchema = z.object({
  /** 1-based, in eval.ts order. */
  step: z.number().int().positive(),
  cwd: z.string(),
  argv: z.array(z.string()),
  /** null when it was killed (timed out) or could not start. */
  exitCode: z.number().nullable(),
  timedOut: z.boolean(),
  /** The last lines of its stdout and stderr, redacted. */
  outputTail: z.string(),
  /** Every step's output, relative to the run directory. */
  log: z.string(),
});

/** A quantity of one session that the archived database records less of than the harness's own event stream. */
export const RecordingMismatchSchema = z.object({
  sessionID: z.string(),
  quantity: z.enum([
    "steps",
    "tool calls",
    "cost",
    "input tokens",
    "output tokens",
    "reasoning tokens",
    "cache read tokens",
    "cache write tokens",
  ]),
  stream: z.number(),
  database: z.number(),
  /** The steps (message ids) or tool calls (`tool part-id`) the stream showed and the database lacks. */
  missing: z.array(z.string()).optional(),
});

/**
 * The recording disagrees with what the harness saw (docs/design/recording-integrity.md): the database was changed
 * during the run. Recorded with infrastructureError, so it is never judged or scored.
 */
export const RecordingIntegrityErrorSchema = z.object({
  /** The event stream and the archived database compared, relative to the run directory. */
  stream: z.string(),
  database: z.string(),
  mismatches: z.array(RecordingMismatchSchema).min(1),
});

/**
 * Something the recording shows about the run that its state does not: `tool_call_text`, the model wrote tool calls
 * as text that its server did not parse (so OpenCode ran none). Cites the first message where it happened.
 */
export const EvalRunFindingSchema = z.object({
  kind: z.literal("tool_call_text"),
  /** Assistant messages with tool-call-shaped text. */
  count: z.number().int().positive(),
  messageID: z.string(),
  shape: z.string(),
  excerpt: z.string(),
});

export const EvalRunSchema = z.object({
  id: z.string(),
  runId: z.string(),
  slot: SlotKeySchema,
  /** A scripted control model (`control/<name>`), never a real model's result. */
  control: z.boolean(),
  state: z.enum(EVAL_RUN_STATES),
  /** The harness or provider failed (OpenCode could not start, provider unreachable): never scored as the candidate's 0. */
  infrastructureError: z.boolean(),
  /**
   * The model's setup failed the run (its context cannot hold the request): an infrastructure error of that model,
   * never the candidate's failure. Absent in older records.
   */
  setupError: z.boolean().optional(),
  /** eval.ts prepare failed before the candidate started (with infrastructureError): never the candidate's failure. */
  preparationError: PreparationErrorSchema.optional(),
  /** The recording failed its check against the harness's event stream (with infrastructureError). Absent when it passed. */
  integrityError: RecordingIntegrityErrorSchema.optional(),
  error: z.string().nullable(),
  startedAt: z.string(),
  completedAt: z.string().nullable(),
  elapsedMs: z.number().nullable(),
  input: z.object({
    candidateFingerprint: z.string(),
    prompt: z.string(),
    timeoutMs: z.number(),
    maxCostUSD: z.number().nullable(),
    /** benchmark.ts candidate.maxTokens and maxSteps; absent when not set (and in older records). */
    maxTokens: z.number().int().positive().optional(),
    maxSteps: z.number().int().positive().optional(),
    opencodeVersion: z.string(),
    /** Where the candidate ran; absent in records made before containers, which all ran as processes. */
    isolation: z.enum(["container", "process"]).optional(),
    /** The container engine of the pool it ran on (its name); absent for processes and in older records. */
    engine: z.string().optional(),
  }),
  evidence: EvidenceRefSchema.nullable(),
  metrics: RunMetricsSchema.nullable(),
  /** What the recording shows beyond the state; absent: none (and in older records). */
  findings: z.array(EvalRunFindingSchema).optional(),
  /**
   * The connections the candidate's egress proxy refused, in order: `host:port`, or null for a request that was not a
   * CONNECT. Recorded for candidates in containers (absent for processes, which have no proxy, and in older records).
   */
  egressRefused: z.array(z.string().nullable()).optional(),
  /**
   * Where the agent worked, as its tools saw it: its workspace, and the folders outside it that were its own (its
   * HOME, its temp folder, an oracle's /solution), where reading is not reading outside. Absent in older records.
   */
  agentPaths: z.object({ workspace: z.string(), own: z.array(z.string()) }).optional(),
  /** earlyStop checks made while this run was recorded (absent when it was not monitored). */
  earlyStop: z.object({ checks: z.array(EarlyCheckSchema) }).optional(),
  /** Set by the store when the row is finalized: the row's hash chained to its evidence (integrity.ts). */
  integrity: z.string().optional(),
});

/** A rubric judge's citation of the evidence a score rests on (checked against the recording when submitted). */
export const CITATION_KINDS = ["response", "message", "tool", "event", "metric", "file"] as const;

export const CitationSchema = z.strictObject({
  kind: z.enum(CITATION_KINDS),
  id: z
    .string()
    .optional()
    .describe(
      "message: a message or part id; tool: a tool call id; event: <sessionID>#<sequence>; metric: a path such as tools.errorRate",
    ),
  path: z.string().optional().describe("file: the workspace path"),
  revision: z.enum(["initial", "final"]).optional().describe('file: the snapshot, default "final"'),
  quote: z.string().optional().describe("Optional exact text from the cited item; it is checked against the recording"),
});

/** Where in the recording an integrity finding was seen: a tool call, the workspace diff, or a refused connection. */
export const IntegrityCitationSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("tool"), id: z.string(), sessionID: z.string().optional() }),
  z.strictObject({ kind: z.literal("file"), path: z.string(), change: z.enum(["added", "deleted", "modified"]) }),
  /** `index` into the eval run's egressRefused. */
  z.strictObject({ kind: z.literal("egress"), index: z.number().int().nonnegative() }),
]);

export const IntegrityFindingSchema = z.strictObject({
  kind: z.enum(INTEGRITY_FINDING_KINDS),
  /** What it concerns: a workspace path, an absolute path, a judge-only file, a host. */
  subject: z.string(),
  /** One sentence: what the candidate did. */
  detail: z.string(),
  citation: IntegrityCitationSchema,
});

/** What scores a criterion: the eval's judge.ts or judge.md, or a task's own verifier (its tests/test.sh). */
export const CRITERION_SOURCES = ["judge.ts", "judge.md", "tests/test.sh"] as const;
export type CriterionSource = (typeof CRITERION_SOURCES)[number];

export const CriterionScoreSchema = z.object({
  /** Credit in [0,1], or null when unresolved. */
  value: z.number().min(0).max(1).nullable(),
  source: z.enum(CRITERION_SOURCES),
  reason: z.string().optional(),
  evidence: z.array(z.unknown()).optional(),
  measurements: z.unknown().optional(),
  /** `Ceiling: reference_fix`: the reference-fix scorer's value that caps it, and what the judge scored before the cap. */
  ceiling: z.object({ kind: z.literal("reference_fix"), value: z.number(), judged: z.number().nullable() }).optional(),
});

export type SlotKey = z.infer<typeof SlotKeySchema>;
export type EvalRun = z.infer<typeof EvalRunSchema>;
export type PreparationError = z.infer<typeof PreparationErrorSchema>;
export type RecordingMismatch = z.infer<typeof RecordingMismatchSchema>;
export type RecordingIntegrityError = z.infer<typeof RecordingIntegrityErrorSchema>;
export type EvalRunFinding = z.infer<typeof EvalRunFindingSchema>;
export type IntegrityFinding = z.infer<typeof IntegrityFindingSchema>;
export type IntegrityCitation = z.infer<typeof IntegrityCitationSchema>;
export type EvalRunState = EvalRun["state"];
export type CriterionScore = z.infer<typeof CriterionScoreSchema>;
export type Citation = z.infer<typeof CitationSchema>;
export type EarlyCheck = z.infer<typeof EarlyCheckSchema>;
export type JudgeRunState = (typeof JUDGE_RUN_STATES)[number];

/** One judge model's grading of the rubric in a panel: its own session, scores and cost. */
export const PanelJudgmentSchema = z.object({
  /** The judge model as configured (`judge.models`). */
  model: z.string(),
  /** Which of this model's gradings of the recording it is: 0 first, then one per `rejudge --repeat`. */
  repeat: z.number().int().nonnegative(),
  /** What this grading depended on (rubric, model, settings); a later judge run reuses a judgment whose fingerprint is unchanged. */
  fingerprint: z.string(),
  state: z.enum(JUDGE_RUN_STATES),
  /** Its normalized rubric scores; null when it failed or submitted none. */
  scores: z.record(z.string(), CriterionScoreSchema).nullable(),
  error: z.string().nullable(),
  costUSD: z.number().optional(),
  metrics: RunMetricsSchema.optional(),
  /** Its rubric folder, relative to the run directory: another judge run's when reused. */
  directory: z.string(),
  /** The judge run that made it, when this one reused it. */
  gradedBy: z.string(),
});

export type PanelJudgment = z.infer<typeof PanelJudgmentSchema>;

export const JudgeRunSchema = z.object({
  id: z.string(),
  runId: z.string(),
  evalRunId: z.string(),
  slot: SlotKeySchema,
  /** `verifier`: a task's own tests/test.sh; `hybrid`: more than one of the three sources. */
  kind: z.enum(["code", "rubric", "verifier", "hybrid"]),
  state: z.enum(JUDGE_RUN_STATES),
  judgeFingerprint: z.string(),
  startedAt: z.string(),
  completedAt: z.string().nullable(),
  elapsedMs: z.number().nullable(),
  /** Normalized scores of every source; null while running or when grading failed. */
  scores: z.record(z.string(), CriterionScoreSchema).nullable(),
  /**
   * When grading failed: the scores of the sources that did complete (a hybrid's judge.ts when its rubric half
   * failed). Kept as evidence and shown, never counted: the judgment stays inactive. Absent otherwise.
   */
  keptScores: z.record(z.string(), CriterionScoreSchema).optional(),
  /**
   * A panel's rubric judgments (several judge models, or repeats), each kept with its own scores; `scores` holds
   * their combination by `combine`. Absent when one judge model graded once.
   */
  panel: z.array(PanelJudgmentSchema).optional(),
  combine: z.enum(PANEL_COMBINE_RULES).optional(),
  /** The judge returned no scores: the slot stays in the denominator as unresolved. */
  unscored: z.boolean(),
  /** judge.ts's returned JSON, exactly as returned. */
  output: z.unknown().optional(),
  /** What grading spent on models (USD): rubric judge sessions; 0 for code judges. Absent in older records. */
  costUSD: z.number().optional(),
  /**
   * The rubric judge session's metrics (tokens, cost, requests, model-active time), measured from its archived OpenCode
   * database as a candidate's are, whether or not it submitted a judgment: for a panel, the session in this judge run's
   * `rubric/` folder (each judgment keeps its own). Absent for code judges and in older records.
   */
  metrics: RunMetricsSchema.optional(),
  error: z.string().nullable(),
  /** Grading failed for the harness's reasons (a verifier that could not start, ran out of time, wrote no reward),
   * not the judge's: `rejudge failed` retries it. Absent otherwise. */
  infrastructureError: z.boolean().optional(),
  /** The judge run's folder, relative to the run directory. */
  directory: z.string(),
  /** The judgment of an earlyStop check that stopped the candidate: final, made on that check's snapshot. */
  decidedEarly: z.object({ check: z.number().int().positive(), checkpoint: EvidenceRefSchema }).optional(),
  /**
   * What the integrity check found in the eval run's recording; never part of the scores. Absent while running, when
   * grading failed before it, and in older records.
   */
  integrityFindings: z.array(IntegrityFindingSchema).optional(),
  /** Set by the store when the row is finalized: the row's hash chained to its evidence and files.json (integrity.ts). */
  integrity: z.string().optional(),
});

export const BenchmarkRunSchema = z.object({
  id: z.string(),
  name: z.string(),
  benchmarkDirectory: z.string(),
  createdAt: z.string(),
  opencodeVersion: z.string(),
  models: z.array(z.string()),
  /** The agent variants run besides current; absent in runs recorded before variants, which ran current only. */
  variants: z.array(z.string()).optional(),
  repetitions: z.number().int().positive(),
  evals: z.array(z.string()),
});

export type JudgeRun = z.infer<typeof JudgeRunSchema>;
export type BenchmarkRun = z.infer<typeof BenchmarkRunSchema>;

/**
 * The runtime identity a run's work was planned with: the image ids the runner resolved on its engines when it
 * started. They enter the candidate and judge fingerprints, so a reader compares against them and never asks an
 * engine. An id absent was not resolved by that invocation (no model in containers, no judge that verifies, no image).
 */
export const RuntimeIdentitySchema = z.object({
  /** The pinned candidate image id (`sha256:…`) candidates in containers ran with. */
  candidateImage: z.string().optional(),
  /** The pinned verification image id (`sha256:…`) judges' ctx.verification ran with. */
  verificationImage: z.string().optional(),
  /** Each eval with its own environment → the pinned environment image id its candidates ran in. */
  environmentImages: z.record(z.string(), z.string()).optional(),
});

export type RuntimeIdentity = z.infer<typeof RuntimeIdentitySchema>;
