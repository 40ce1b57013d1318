// The external shapes of the rubric judge: the job file the harness hands its tool server, the arguments the model
// sends to the two judge tools, the submission file the tool server writes, and the session file read back. Types come
// from z.infer.
import * as z from "zod";
import { CitationSchema, EvalRunSchema } from "../../records/index.ts";

/** The environment variable that names the job file, and the MCP server's name (its tools are `judge_<tool>`). */
export const JOB_ENV = "OPENEVAL_JUDGE_JOB";
export const SERVER_NAME = "judge";

/** What the tool server (a separate process started by OpenCode) needs; written by the grader as JSON. */
export const JudgeJobSchema = z.strictObject({
  evidence: z.strictObject({ directory: z.string().min(1), hash: z.string().min(1) }),
  run: EvalRunSchema.nullable(),
  /** The rubric's criterion ids: a submission must score exactly these. */
  criteria: z.array(z.string().min(1)).min(1),
  /**
   * `final`: grade the finished recording. `early`: an earlyStop check of a candidate still running — submit only
   * when every criterion is decided irreversibly, else call continue_judging.
   */
  phase: z.enum(["final", "early"]),
  /** Where the first accepted judgment is written (atomically). */
  submissionFile: z.string().min(1),
  /** Early checks: where an accepted continue_judging is written (atomically). */
  continueFile: z.string().min(1),
  /** JSONL archive of every tool call: arguments, whether accepted, and the error when not. */
  logFile: z.string().min(1),
});

export const EVIDENCE_ACTIONS = [
  "summary",
  "response",
  "messages",
  "tools",
  "events",
  "files",
  "file",
  "diff",
  "metrics",
] as const;

export const EvidenceArgsSchema = z.strictObject({
  action: z.enum(EVIDENCE_ACTIONS).describe('What to read; start with "summary"'),
  sessionID: z.string().optional().describe("messages/tools/events: only this session (ids are listed by summary)"),
  path: z.string().optional().describe("file: required, relative to the workspace root; diff: optional, one file"),
  revision: z.enum(["initial", "final"]).optional().describe('files/file: workspace snapshot, default "final"'),
  offset: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("Character offset of the page; the previous answer says which"),
  limit: z.number().int().positive().optional().describe("Characters per page (capped by the server)"),
});

export const ScoreSchema = z.strictObject({
  value: z
    .union([z.boolean(), z.number(), z.null()])
    .describe("true/false, a number from 0 to 1, or null when the evidence cannot decide"),
  reason: z.string().describe("Why, in a sentence or two, grounded in the evidence"),
  evidence: z
    .array(CitationSchema)
    .describe("Citations of the evidence the score rests on (at least one unless value is null)"),
});

export const SubmitArgsSchema = z.strictObject({
  scores: z.record(z.string(), ScoreSchema).describe("criterion id -> { value, reason, evidence }"),
});

export const ContinueArgsSchema = z.strictObject({
  reason: z
    .string()
    .describe("Which criterion is still open, and what the candidate could still do that would change it"),
});

/** The submission file: exactly what was accepted. */
export const SubmissionFileSchema = SubmitArgsSchema;

/**
 * The session file (session.json: how the judge's OpenCode process ended), as far as it is read back: the errors its
 * event stream reported, which name the steps the database keeps none for. Loose: it holds the whole outcome.
 */
export const SessionFileSchema = z.looseObject({
  stepErrors: z.array(
    z.object({ sessionID: z.string().nullable(), at: z.number().nullable(), name: z.string(), message: z.string() }),
  ),
});

export type JudgeJob = z.infer<typeof JudgeJobSchema>;
export type EvidenceArgs = z.infer<typeof EvidenceArgsSchema>;
export type SubmittedScore = z.infer<typeof ScoreSchema>;
export type Submission = z.infer<typeof SubmitArgsSchema>;
export type JudgePhase = JudgeJob["phase"];
