// A hostile candidate in process mode (no container between it and the run store) rewrites what grades it: the frozen
// judge.ts, the frozen reference fix and its object, the frozen code-judge worker, and the live judge.ts a later run would
// freeze. Grading is refused without a crash, each file is named as an integrity error by the run, by verify and by
// the plan, and the plan names the edited source judge before a later run (or --new) grades with it.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ResultsStore } from "../../packages/openeval/src/records/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { makeTempDir, writeTree } from "../helpers/fixtures.ts";

const FORGED_JUDGE = "export default () => ({ scores: { honest: true, forged: true } });";
let directory: string;
let run: CliResult;
let runDirectory: string;

beforeAll(async () => {
  directory = await makeTempDir();
  const inputs = `$(ls -d ${directory}/results/*/)inputs`;
  const reference = "original reference\n";
  const referenceObject = new Bun.CryptoHasher("sha256").update(reference).digest("hex");
  const tamper = [
    `I=${inputs}`,
    `echo '${FORGED_JUDGE}' > $I/evals/x/judge.ts`,
    `echo forged > $I/objects/${referenceObject}; echo forged > $I/evals/x/REFERENCE_FIX.md`,
    "for worker in $I/harness/code-worker-*.js; do echo 'process.exit(0)' > $worker; done",
    `echo '${FORGED_JUDGE}' > ${directory}/evals/x/judge.ts`,
  ].join("; ");
  await writeTree(
    {
      "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1, candidate: { timeoutMs: 120_000, isolation: "process" } };\n`,
      "evals/x/prompt.md": "Fix it.\n",
      "evals/x/REFERENCE_FIX.md": reference,
      "evals/x/judge.ts": "export default () => ({ scores: { honest: true } });\n",
      "evals/x/controls/positive.json": JSON.stringify({
        turns: [{ tools: [{ name: "bash", input: { command: tamper, description: "tamper" } }] }, { text: "done" }],
      }),
    },
    directory,
  );
  run = await runCli(["run", "--benchmark", directory]);
  runDirectory = join(directory, "results", readdirSync(join(directory, "results"))[0]!);
});

describe("process-mode tampering with what grades the candidate", () => {
  const worker = () =>
    `inputs/harness/${readdirSync(join(runDirectory, "inputs", "harness")).find((name) => name.endsWith(".js"))}`;

  it("refuses grading without a crash, naming each file as an integrity error", () => {
    expect(run.stderr).not.toMatch(/Unexpected error/);
    expect(run.exitCode, run.stderr).toBe(3);
    expect(run.stdout).toContain("eval x's frozen inputs: inputs/evals/x/judge.ts changed during the run");
    expect(run.stdout).toMatch(
      /eval x's frozen inputs: inputs\/objects\/[0-9a-f]{64} \(the frozen REFERENCE_FIX\.md\) altered or removed/,
    );
    expect(run.stdout).toContain(`the run's frozen harness programs: ${worker()} altered or removed`);
    expect(run.stdout).toContain("evals/x/judge.ts (modified)");
    const store = ResultsStore.open(runDirectory, { readonly: true });
    try {
      expect(store.judgeRuns()).toEqual([]);
    } finally {
      store.close();
    }
  });

  it("verify names them", async () => {
    const verified = await runCli(["verify", runDirectory]);
    expect(verified.exitCode).toBe(1);
    expect(verified.stderr).toContain(`${worker()} altered or removed`);
    expect(verified.stderr).toMatch(
      /inputs\/objects\/[0-9a-f]{64} \(the frozen REFERENCE_FIX\.md\) altered or removed/,
    );
    expect(verified.stderr).toContain("inputs/evals/x/judge.ts changed during the run");
  });

  it("the plan, for the run and for a new one, names the edited source judge", async () => {
    expect(readFileSync(join(directory, "evals", "x", "judge.ts"), "utf8")).toContain("forged");
    for (const args of [[], ["--new"]]) {
      const plan = await runCli(["plan", "--benchmark", directory, ...args]);
      expect(plan.exitCode, plan.stderr).toBe(0);
      expect(plan.stdout).toMatch(
        /changed since .* froze it \(if you did not edit it, a candidate may have.*\): evals\/x\/judge\.ts \(modified\)/,
      );
    }
  });
});
