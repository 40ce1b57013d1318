// A finished, recorded eval run as the store keeps it, for benches that fabricate large recorded runs (plan,
// runner memory): metrics like a real recording's, so reading the rows back costs what it would.
import type { EvalRun } from "../../packages/openeval/src/records/index.ts";
import { OPENCODE_VERSION } from "../../packages/openeval/src/util/versions.ts";

export interface RecordedEvalRunFields {
  id: string;
  runId: string;
  slot: EvalRun["slot"];
  candidateFingerprint: string;
  prompt: string;
  timeoutMs: number;
  evidence: NonNullable<EvalRun["evidence"]>;
  startedAt: Date;
}

const ELAPSED_MS = 9_000;

export function recordedEvalRun(fields: RecordedEvalRunFields): EvalRun {
  return {
    id: fields.id,
    runId: fields.runId,
    slot: fields.slot,
    control: false,
    state: "completed",
    infrastructureError: false,
    error: null,
    startedAt: fields.startedAt.toISOString(),
    completedAt: new Date(fields.startedAt.getTime() + ELAPSED_MS).toISOString(),
    elapsedMs: ELAPSED_MS,
    input: {
      candidateFingerprint: fields.candidateFingerprint,
      prompt: fields.prompt,
      timeoutMs: fields.timeoutMs,
      maxCostUSD: null,
      opencodeVersion: OPENCODE_VERSION,
    },
    evidence: fields.evidence,
    metrics: {
      version: 1,
      cost: { usd: 0.0123 },
      tokens: { input: 1200, output: 300, reasoning: 0, cacheRead: 800, cacheWrite: 0 },
      tools: { calls: 4, succeeded: 4, failed: 0, unfinished: 0, errorRate: 0 },
      requests: { started: 3, succeeded: 3, failed: 0, retries: null },
      compactions: 0,
      timing: { elapsedMs: ELAPSED_MS, modelActiveMs: 6_000, outputTokensPerSecond: 50 },
    },
  };
}
