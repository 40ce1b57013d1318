import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../../test/helpers/fixtures.ts";
import { createJudgeContext, openEvidence, recordEvidence } from "../../recording/index.ts";
import type { EvalRun } from "../../records/index.ts";
import { renderSummary } from "./render-evidence.ts";

const run = (state: EvalRun["state"]): EvalRun => ({
  id: "eval_1",
  runId: "r",
  slot: { evalId: "e", model: "p/m", variant: "current", repetition: 2 },
  control: false,
  state,
  infrastructureError: false,
  error: state === "stopped" ? "Stopped early" : null,
  startedAt: "2026-11-30T00:00:00.000Z",
  completedAt: null,
  elapsedMs: null,
  input: { candidateFingerprint: "f", prompt: "Do it.", timeoutMs: 1, maxCostUSD: null, opencodeVersion: "x" },
  evidence: null,
  metrics: null,
});

describe("renderSummary", () => {
  it("says whether the run ended, or is an early check's snapshot of a run still going", async () => {
    const directory = join(await makeTempDir(), "evidence");
    const evidence = await recordEvidence({ directory, prompt: "Do it.", response: "Working." });
    const summaryOf = async (record: EvalRun) => {
      await using context = await createJudgeContext(await openEvidence(directory, evidence.hash), record);
      return renderSummary(context, [], []).split("\n")[0];
    };
    expect(await summaryOf(run("running"))).toBe(
      "Eval run eval_1: model p/m, repetition 2, still running: this is a snapshot, and what follows it may change the workspace and the answer",
    );
    expect(await summaryOf(run("stopped"))).toBe(
      "Eval run eval_1: model p/m, repetition 2, ended stopped (Stopped early)",
    );
  });
});
