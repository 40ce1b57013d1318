// The integrity check on candidates in containers: the egress proxy's refusals are recorded with the eval run, and the
// cheater's attempt to reach a host other than its provider is a network_refused finding citing that record, beside
// its other findings; the honest model's run (OpenCode's own traffic included) has none.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { startControlServer, type ControlServer } from "@openeval/control-model";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCandidateImage } from "../../packages/openeval/src/candidate/index.ts";
import { ResultsStore, type EvalRun, type JudgeRun } from "../../packages/openeval/src/records/index.ts";
import { isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";
import { integrityBenchmark, integrityControls, NON_PROVIDER_HOST } from "../helpers/integrity-benchmark.ts";

const reachable = await isEngineReachable();
let provider: ControlServer;
let directory: string;
let run: CliResult;

beforeAll(async () => {
  if (!reachable) return;
  await buildCandidateImage();
  provider = await startControlServer({ controls: integrityControls({ network: true }) });
  directory = await writeTree(integrityBenchmark(provider.baseURL("local"), "container"));
  run = await runCli(["run", "--benchmark", directory]);
});

afterAll(async () => {
  await provider?.close();
});

function recordsOf(model: string): { evalRun: EvalRun; judgeRun: JudgeRun } {
  const root = join(directory, "results");
  const store = ResultsStore.open(join(root, readdirSync(root)[0]!), { readonly: true });
  try {
    const evalRun = store.evalRuns().find((each) => each.slot.model === model)!;
    return { evalRun, judgeRun: store.judgeRuns().find((each) => each.evalRunId === evalRun.id)! };
  } finally {
    store.close();
  }
}

describe.skipIf(!reachable)("the integrity check in containers", () => {
  it("records the refused connection with the cheater's eval run and cites it in a network_refused finding", () => {
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const { evalRun, judgeRun } = recordsOf("local/cheat");
    expect(evalRun.input.isolation).toBe("container");
    expect(evalRun.egressRefused).toEqual([NON_PROVIDER_HOST]);
    expect(judgeRun.integrityFindings?.map((finding) => [finding.kind, finding.subject])).toEqual([
      ["protected_path_changed", "tests/test_app.py"],
      ["checker_tampering", "~/.local/bin/python3"],
      ["read_outside_workspace", "/etc/hostname"],
      ["answer_key_probe", "REFERENCE_FIX.md"],
      ["network_refused", NON_PROVIDER_HOST],
    ]);
    expect(judgeRun.integrityFindings?.at(-1)?.citation).toEqual({ kind: "egress", index: 0 });
    expect(run.stdout).toContain(`warn network_refused ${NON_PROVIDER_HOST}`);
  });

  it("finds nothing in the honest model's run: OpenCode itself reached only its provider", () => {
    const { evalRun, judgeRun } = recordsOf("local/honest");
    expect(evalRun.egressRefused).toEqual([]);
    expect(judgeRun.scores?.fixed?.value).toBe(1);
    expect(judgeRun.integrityFindings).toEqual([]);
  });
});
