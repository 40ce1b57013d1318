// What the run keeps of one evaluation of one invariant (benchmark.ts `invariants`): its outcome, exit code, bounded
// logs, timing and the input it was evaluated over. The store keeps each as sealed, append-only text
// (invariant-results.ts); reports and the viewer read it and never run the command again.
import * as z from "zod";

/**
 * `holds`: exit 0. `violated`: any other exit. `unevaluable`: it timed out, could not start, or had nowhere to run.
 * `not-evaluated`: this invocation left it unrun on purpose (`--offline`): the verdict stays undecided.
 */
export const INVARIANT_STATUSES = ["holds", "violated", "unevaluable", "not-evaluated"] as const;
export type InvariantStatus = (typeof INVARIANT_STATUSES)[number];

export const InvariantEvaluationSchema = z.object({
  format: z.literal("openeval.invariant-evaluation"),
  version: z.literal(1),
  /** This evaluation's own id (`iv_…`). */
  id: z.string(),
  /** The invariant's id in benchmark.ts. */
  invariant: z.string(),
  /** The fingerprint of its declaration (argv, over, timeoutMs): a result stands only for the declaration it ran. */
  definition: z.string(),
  argv: z.array(z.string()),
  over: z.enum(["summary", "workspaces"]),
  timeoutMs: z.number(),
  /** What it read, by fingerprint: it is evaluated again only when this changes (or it never ran). */
  inputKey: z.string(),
  /** The input as the command saw it: the summary's sha256, or the eval runs whose workspaces it got. */
  input: z.object({
    summarySha256: z.string().optional(),
    evalRuns: z.array(z.object({ evalId: z.string(), evalRunId: z.string() })).optional(),
    /** The benchmark folder's files at /benchmark, by one hash. */
    benchmarkSha256: z.string().optional(),
  }),
  status: z.enum(INVARIANT_STATUSES),
  /** Why it is unevaluable or not evaluated; null when it ran to an exit code. */
  reason: z.string().nullable(),
  /** Why it never started (no engine or image, --offline): such a result is tried again by the next invocation. */
  ran: z.boolean(),
  exitCode: z.number().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  logsTruncated: z.boolean(),
  imageId: z.string().nullable(),
  startedAt: z.string(),
  elapsedMs: z.number(),
});

export type InvariantEvaluation = z.infer<typeof InvariantEvaluationSchema>;
