// benchmark.ts invariants on a real engine: each runs once per run state in the verification sandbox (no network,
// read-only input and benchmark files, not root) over the run's summary or its final workspaces; one holding and one
// violated fail the verdict naming the second; `report` reads the recorded results and creates no container; nothing
// changed, nothing runs again; a rejudge evaluates them again; one that hangs past its timeoutMs is unevaluable.
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { verificationImage } from "../../packages/openeval/src/judge/verification/fixtures/engine.ts";
import {
  readInvariantEvaluations,
  ResultsStore,
  type InvariantEvaluation,
} from "../../packages/openeval/src/records/index.ts";
import { engineAddress, isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import type { RunSummary } from "../../packages/openeval/src/summary/index.ts";
import { SummaryReader } from "../../packages/openeval/src/view/run-summary.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";

const reachable = await isEngineReachable();
const SOCKET = engineAddress().replace(/^unix:\/\//, "");

const SUMMARY_CHECK = `set -e
# The summary is there to read; the command runs in /benchmark with its files, as a user that changes neither.
grep -q '"type": "summary"' /input/summary.json
grep -q '"runId"' /input/summary.json
[ "$(pwd)" = /benchmark ] && [ -f checks/summary.sh ]
[ "$(id -u)" != 0 ]
if touch /benchmark/marker 2>/dev/null || touch /input/marker 2>/dev/null; then echo "wrote where it may not" >&2; exit 9; fi
# No network: only the loopback interface.
[ "$(ls /sys/class/net)" = lo ]
echo "summary read"
`;

const TODO_CHECK = `cd /input/workspaces
ls -d notes/*/ >/dev/null || { echo "no workspace of eval notes" >&2; exit 2; }
if grep -rl TODO . >&2; then echo "TODO left behind" >&2; exit 1; fi
`;

const invariants = (extra = "") => `export default {
  models: ["control/todo"],
  repetitions: 1,
  invariants: [
    { id: "summary-readable", description: "the summary is there to read", argv: ["sh", "checks/summary.sh"], over: "summary" },
    { id: "no-todo", argv: ["sh", "checks/no-todo.sh"], over: "workspaces" },${extra}
  ],
};
`;

let directory: string;
let run: CliResult;

beforeAll(async () => {
  if (!reachable) return;
  await verificationImage();
  directory = await writeTree({
    "benchmark.ts": invariants(),
    "checks/summary.sh": SUMMARY_CHECK,
    "checks/no-todo.sh": TODO_CHECK,
    "evals/notes/prompt.md": "Write your notes to notes.txt.\n",
    "evals/notes/judge.ts": "export default () => ({ scores: { wrote: true } });\n",
    "evals/notes/controls/todo.json": JSON.stringify({
      turns: [
        { tools: [{ name: "write", input: { filePath: "notes.txt", content: "TODO: finish the notes\n" } }] },
        { text: "done" },
      ],
    }),
  });
  run = await runCli(["run", "--benchmark", directory], { timeoutMs: 600_000 });
}, 1_800_000);

function runDirectory(): string {
  const root = join(directory, "results");
  return join(root, readdirSync(root)[0]!);
}

function evaluations(): InvariantEvaluation[] {
  const store = ResultsStore.open(runDirectory(), { readonly: true });
  try {
    return readInvariantEvaluations(store).evaluations;
  } finally {
    store.close();
  }
}

async function report(env: Record<string, string> = {}): Promise<RunSummary> {
  const result = await runCli(["report", "--json", "--benchmark", directory], { env });
  expect(result.exitCode, result.stderr).toBe(1);
  return JSON.parse(result.stdout) as RunSummary;
}

/** The verification containers the engine created between two times (seconds), from its event log. */
async function containersCreated(since: number, until: number): Promise<unknown[]> {
  const filters = JSON.stringify({
    type: ["container"],
    event: ["create"],
    label: ["openeval.sandbox=verification"],
  });
  const response = await fetch(
    `http://localhost/events?since=${since}&until=${until}&filters=${encodeURIComponent(filters)}`,
    { unix: SOCKET } as RequestInit,
  );
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);
}

const seconds = () => Math.floor(Date.now() / 1000);
const invariantsOf = (summary: RunSummary) => summary.verdict.contributors.find((each) => each.id === "invariants")!;

describe.skipIf(!reachable)("invariants in the verification sandbox", () => {
  it("runs each once after judging: one holds, one is violated, and the verdict fails naming the violated one", () => {
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain("invariants fail — failing: no-todo");
    expect(run.stdout).toContain("  summary-readable: holds");
    expect(run.stdout).toContain("  no-todo: violated (exit code 1) — TODO left behind");
    const recorded = evaluations();
    expect(recorded.map((each) => [each.invariant, each.status, each.exitCode])).toEqual([
      ["summary-readable", "holds", 0],
      ["no-todo", "violated", 1],
    ]);
    expect(recorded[0]!.stdout).toBe("summary read\n");
    expect(recorded[1]!.stderr).toMatch(/^\.\/notes\/[^/]+\/notes\.txt\nTODO left behind\n$/);
    expect(recorded[1]!.input.evalRuns).toHaveLength(1);
  });

  it("report reads the recorded results and runs nothing: no container is created, with or without an engine", async () => {
    const before = evaluations();
    const since = seconds() - 1;
    const summary = await report();
    await Bun.sleep(1100);
    expect(await containersCreated(since, seconds())).toEqual([]);
    // The event filter does see the run's own containers (else the check above would prove nothing).
    expect((await containersCreated(since - 3600, since)).length).toBeGreaterThanOrEqual(2);
    expect(invariantsOf(summary)).toMatchObject({ status: "fail", failing: ["no-todo"] });
    expect(summary.invariants?.map((each) => [each.id, each.status])).toEqual([
      ["summary-readable", "holds"],
      ["no-todo", "violated"],
    ]);
    // The viewer's first leaderboard is the summary the runner recorded: the same standings, logs included.
    const overview = await new SummaryReader().recordedOverview(runDirectory());
    expect(overview?.invariants).toEqual(summary.invariants);
    expect(overview?.verdict?.contributors.find((each) => each.id === "invariants")?.failing).toEqual(["no-todo"]);
    const offline = await report({ DOCKER_HOST: "unix:///nonexistent/docker.sock" });
    expect(offline.invariants).toEqual(summary.invariants);
    expect(evaluations()).toEqual(before);
    const verify = await runCli(["verify", runDirectory(), "--benchmark", directory]);
    expect(verify.stdout).toContain("2 invariant evaluations; nothing changed.");
  });

  it("runs nothing again when nothing changed, and everything again after a rejudge", async () => {
    const again = await runCli(["run", "--benchmark", directory], { timeoutMs: 600_000 });
    expect(again.exitCode, again.stderr).toBe(1);
    expect(evaluations()).toHaveLength(2);
    const evalRun = evaluations()[1]!.input.evalRuns![0]!.evalRunId;
    const rejudged = await runCli(["rejudge", evalRun, "--benchmark", directory], { timeoutMs: 600_000 });
    expect(rejudged.exitCode, rejudged.stderr).toBe(1);
    expect(evaluations().map((each) => each.invariant)).toEqual([
      "summary-readable",
      "no-todo",
      "summary-readable",
      "no-todo",
    ]);
  });

  it("is unevaluable when it hangs past its timeoutMs or cannot start, and only the new invariants run", async () => {
    writeFileSync(
      join(directory, "benchmark.ts"),
      invariants(`
    { id: "hangs", argv: ["sleep", "120"], over: "summary", timeoutMs: 2000 },
    { id: "missing", argv: ["no-such-program"], over: "summary" },`),
    );
    const before = evaluations().length;
    const result = await runCli(["run", "--benchmark", directory], { timeoutMs: 600_000 });
    expect(result.exitCode, result.stderr).toBe(1);
    const added = evaluations().slice(before);
    expect(added.map((each) => [each.invariant, each.status, each.exitCode])).toEqual([
      ["hangs", "unevaluable", null],
      ["missing", "unevaluable", 126],
    ]);
    expect(added[0]!.reason).toBe("it did not finish within its timeoutMs (2000 ms) and was killed");
    expect(added[1]!.reason).toBe(
      "its command could not start (exit code 126: no-such-program is missing or not executable in the verification image, with /benchmark as its working directory)",
    );
    const summary = await report();
    expect(invariantsOf(summary)).toMatchObject({ status: "fail", failing: ["no-todo", "hangs", "missing"] });
  });

  it("without an engine they are unevaluable naming why; --offline leaves them not evaluated (undecided); back with an engine they run again", async () => {
    // An edited check file is a changed input: every invariant sees the benchmark folder.
    const edit = (note: string) => writeFileSync(join(directory, "checks/no-todo.sh"), `# ${note}\n${TODO_CHECK}`);
    edit("no engine");
    const before = evaluations().length;
    const noEngine = await runCli(["run", "--benchmark", directory], {
      env: { DOCKER_HOST: "unix:///nonexistent/docker.sock" },
      timeoutMs: 600_000,
    });
    expect(noEngine.exitCode, noEngine.stderr).toBe(1);
    const unevaluable = evaluations().slice(before);
    expect(unevaluable.map((each) => [each.invariant, each.status, each.ran])).toEqual([
      ["summary-readable", "unevaluable", false],
      ["no-todo", "unevaluable", false],
      ["hangs", "unevaluable", false],
      ["missing", "unevaluable", false],
    ]);
    expect(unevaluable[0]!.reason).toMatch(
      /^invariants run in the verification sandbox, which this run cannot use: .*nonexistent/,
    );
    expect(noEngine.stdout).toContain("invariants fail — failing: summary-readable, no-todo, hangs, missing");

    edit("offline");
    const offline = await runCli(["run", "--offline", "--benchmark", directory], { timeoutMs: 600_000 });
    expect(offline.exitCode, offline.stdout + offline.stderr).toBe(3);
    expect(offline.stdout).toContain("invariants unknown — unresolved: summary-readable, no-todo, hangs, missing");
    expect(offline.stdout).toContain(
      "  no-todo: not evaluated: --offline: invariants are not run offline; `openeval run` without --offline evaluates them",
    );

    const back = await runCli(["run", "--benchmark", directory], { timeoutMs: 600_000 });
    expect(back.exitCode, back.stderr).toBe(1);
    expect(back.stdout).toContain("invariants fail — failing: no-todo, hangs, missing");
    expect(back.stdout).toContain("  summary-readable: holds");
  });
});
