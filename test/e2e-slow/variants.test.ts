// Agent variants end to end: one control model, current plus two variants. A control plays the same
// script whatever the variant, so each arm's own setup must show in its own recording — the instructions it read,
// the skill files in its workspace, the agent it ran as, the permission its config overlay set — and in no other's.
// retry and rejudge, given an eval run of either arm by id, act on exactly that eval run.
import { Database } from "bun:sqlite";
import { readdirSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir, writeTree } from "../helpers/fixtures.ts";
import { onlyRunDirectory, readEvalRuns } from "../helpers/results.ts";
import { startControlServer } from "../../packages/control-model/src/index.ts";
import { layVariant, variantConfig } from "../../packages/openeval/src/candidate/variant-setup.ts";
import {
  buildProviderConfig,
  createGitWorkspace,
  prepareIsolation,
  runOpenCode,
} from "../../packages/openeval/src/opencode/index.ts";
import { ResultsStore } from "../../packages/openeval/src/records/index.ts";
import type { RunSummary } from "../../packages/openeval/src/summary/index.ts";
import { shortId } from "../../packages/viewer/src/format.ts";

let directory: string;
const BASH_UNAVAILABLE = "Model tried to call unavailable tool 'bash'";

/** Reads the global AGENTS.md from the workspace (the scratch layout is the same in both backends), then lists skills. */
const CONTROL = {
  turns: [
    {
      text: "Looking at my setup.",
      tools: [
        { name: "read", input: { filePath: "../opencode/config/opencode/AGENTS.md" } },
        {
          name: "bash",
          input: { command: "ls .opencode/skills 2>/dev/null; echo listed", description: "List skills" },
        },
      ],
      usage: { input: 100, output: 10 },
    },
    { text: "DONE", usage: { input: 120, output: 2 } },
  ],
};

const VARIANTS = `{
  terse: { instructions: { file: "variants/terse.md" }, agent: { prompt: "You answer tersely." },
           files: { "workspace/.opencode/skills/terse-skill/SKILL.md": "---\\nname: terse-skill\\ndescription: terse\\n---\\nBe terse.\\n" } },
  locked: { instructions: "LOCKED-INSTRUCTIONS-MARKER", config: { permission: { bash: "deny" } } },
}`;

beforeAll(async () => {
  directory = await writeTree({
    "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1, variants: ${VARIANTS} };\n`,
    "variants/terse.md": "TERSE-INSTRUCTIONS-MARKER\n",
    "evals/setup/prompt.md": "Describe your setup.\n",
    "evals/setup/judge.ts": `export default ({ response, recording }) => ({ scores: { done: response.text.trim() === "DONE", ran_bash: recording.tools({ name: "bash" }).some((tool) => tool.status === "succeeded") } });\n`,
    "evals/setup/controls/positive.json": JSON.stringify(CONTROL),
  });
});

interface Arm {
  variant: string;
  /** Every session export of the arm's recording, concatenated. */
  sessions: string;
  agents: string[];
}

/** The run record, as the runs list shows it. */
function readRunRecord(): { variants?: string[] } {
  const db = new Database(join(directory, "results", readdirSync(join(directory, "results"))[0]!, "store.db"), {
    readonly: true,
  });
  const row = db.query("SELECT value FROM run").get() as { value: string };
  db.close();
  return JSON.parse(row.value);
}

async function readArms(): Promise<Arm[]> {
  const runs = await readdir(join(directory, "results"));
  const runDirectory = join(directory, "results", runs[0]!);
  const db = new Database(join(runDirectory, "store.db"), { readonly: true });
  const rows = (db.query("SELECT value FROM eval_runs ORDER BY rowid").all() as { value: string }[]).map((row) =>
    JSON.parse(row.value),
  );
  db.close();
  return Promise.all(
    rows.map(async (row) => {
      const folder = join(runDirectory, row.evidence.directory, "native", "sessions");
      const sessions = (
        await Promise.all((await readdir(folder)).map((name) => readFile(join(folder, name), "utf8")))
      ).join("\n");
      const agents = [...sessions.matchAll(/"agent":\s*"([^"]+)"/g)].map((match) => match[1]!);
      // The row as stored: current's slot has no variant there.
      return { variant: row.slot.variant ?? "current", sessions, agents: [...new Set(agents)] };
    }),
  );
}

describe("agent variants", () => {
  it("runs current and both variants; each arm's recorded session shows its own setup and not the others'", async () => {
    const run = await runCli(["run", "--benchmark", directory, "--json"], { timeoutMs: 300_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; summary?: RunSummary });
    const summary = events.find((event) => event.type === "run.finished")!.summary!;
    expect(summary.models.map((row) => [row.model, row.variant ?? "current", row.score.value])).toEqual([
      ["control/positive", "current", 100],
      ["control/positive", "terse", 100],
      ["control/positive", "locked", 50],
    ]);
    expect(summary.models.every((row) => row.costTime.executed === 1 && row.elapsedMs !== null)).toBe(true);
    const comparisons = summary.variantComparisons.map((entry) => [
      entry.variant,
      entry.comparison.a,
      entry.comparison.b,
      entry.comparison.counts.regression,
      entry.comparison.evals[0]!.difference,
    ]);
    expect(comparisons).toEqual([
      ["terse", "control/positive", "control/positive [terse]", 0, 0],
      ["locked", "control/positive", "control/positive [locked]", 1, -0.5],
    ]);
    const arms = await readArms();
    expect(arms.map((arm) => arm.variant).sort()).toEqual(["current", "locked", "terse"]);
    expect(readRunRecord().variants).toEqual(["terse", "locked"]);
    const arm = (name: string) => arms.find((candidate) => candidate.variant === name)!;

    expect(arm("terse").sessions).toContain("TERSE-INSTRUCTIONS-MARKER");
    expect(arm("terse").sessions).toContain("terse-skill");
    expect(arm("terse").agents).toEqual(["openeval-variant"]);

    expect(arm("locked").sessions).toContain("LOCKED-INSTRUCTIONS-MARKER");
    // Its config denies bash: OpenCode offered no bash tool, so the scripted call was recorded as unavailable.
    expect(arm("locked").sessions).toContain(BASH_UNAVAILABLE);
    expect(arm("locked").agents).toEqual(["build"]);

    expect(arm("current").sessions).toContain("listed");
    expect(arm("current").agents).toEqual(["build"]);
    const foreignMarkers = {
      current: ["TERSE-INSTRUCTIONS-MARKER", "LOCKED-INSTRUCTIONS-MARKER", "terse-skill", BASH_UNAVAILABLE],
      terse: ["LOCKED-INSTRUCTIONS-MARKER", BASH_UNAVAILABLE],
      locked: ["TERSE-INSTRUCTIONS-MARKER", "terse-skill"],
    };
    for (const [name, foreign] of Object.entries(foreignMarkers)) {
      for (const marker of foreign) expect(arm(name).sessions, `${name} shows ${marker}`).not.toContain(marker);
    }
  });

  it("after editing one variant's instructions file, plans candidate for that variant only and reuses the rest", async () => {
    await writeFile(join(directory, "variants", "terse.md"), "TERSE-INSTRUCTIONS-MARKER, edited\n");
    const plan = await runCli(["plan", "--benchmark", directory, "--json"]);
    expect(plan.exitCode, plan.stderr).toBe(0);
    const work = (JSON.parse(plan.stdout) as { work: { variant: string; action: string }[] }).work;
    expect(work.map((slot) => `${slot.variant}:${slot.action}`)).toEqual([
      "current:reuse",
      "terse:candidate",
      "locked:reuse",
    ]);
    const typo = await runCli(["plan", "--benchmark", directory, "--only-variant", "trese"]);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain(
      '--only-variant "trese" matches no variant (current or one of benchmark.ts); the valid values are: current, terse, locked',
    );
  });

  it("baseline set --variant promotes that arm only; a name that is no variant is refused", async () => {
    const runs = await readdir(join(directory, "results"));
    const runDirectory = join(directory, "results", runs[0]!);
    await writeFile(join(directory, "variants", "terse.md"), "TERSE-INSTRUCTIONS-MARKER\n"); // as recorded: the run is complete again
    const set = await runCli(["baseline", "set", runDirectory, "--benchmark", directory, "--variant", "locked"]);
    expect(set.exitCode, set.stderr).toBe(0);
    const baseline = JSON.parse(await readFile(join(directory, "baseline.json"), "utf8")) as {
      entries: { model: string; variant?: string; criteria: Record<string, number> }[];
    };
    expect(baseline.entries).toMatchObject([
      { model: "control/positive", variant: "locked", criteria: { done: 1, ran_bash: 0 } },
    ]);
    const typo = await runCli(["baseline", "set", runDirectory, "--benchmark", directory, "--variant", "lockd"]);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('--variant "lockd" matches no variant; the valid values are: current, terse, locked');
  });

  it("OpenCode sends a variant's instructions and agent prompt in its system prompt", async () => {
    // The recording keeps no system prompt: a proxy in front of the control server keeps each request's body.
    const control = await startControlServer({ controls: { setup: { positive: { turns: [{ text: "DONE" }] } } } });
    const bodies: string[] = [];
    const proxy = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (request) => {
        const body = request.method === "POST" ? await request.text() : undefined;
        if (body) bodies.push(body);
        return fetch(control.url + new URL(request.url).pathname, {
          method: request.method,
          headers: request.headers,
          ...(body ? { body } : {}),
        });
      },
    });
    try {
      const scratch = await makeTempDir();
      const isolation = await prepareIsolation(join(scratch, "opencode"));
      await createGitWorkspace(join(scratch, "workspace"), null);
      const variant = {
        name: "terse",
        instructions: "TERSE-SYSTEM-MARKER",
        agent: { prompt: "AGENT-PROMPT-MARKER" },
        config: null,
        files: {},
      };
      await layVariant(variant, {
        workspace: join(scratch, "workspace"),
        configDir: join(isolation.paths.config, "opencode"),
      });
      const session = variantConfig(variant, {
        provider: buildProviderConfig("control/positive", {}, `http://127.0.0.1:${proxy.port}/setup/v1`),
      });
      const outcome = await runOpenCode({
        scratchDir: join(scratch, "opencode"),
        workspace: join(scratch, "workspace"),
        prompt: "hi",
        model: "control/positive",
        config: session.config,
        ...(session.agent ? { agent: session.agent } : {}),
        credentials: { env: {}, auth: null },
        timeoutMs: 60_000,
        eventsFile: join(scratch, "events.jsonl"),
        stderrFile: join(scratch, "stderr.log"),
        secrets: [],
      });
      expect(outcome.state).toBe("completed");
      const systems = bodies.map((body) =>
        JSON.stringify(
          (JSON.parse(body) as { messages: { role: string }[] }).messages.filter(
            (message) => message.role === "system",
          ),
        ),
      );
      expect(systems.length).toBeGreaterThan(0);
      for (const system of systems) {
        expect(system).toContain("TERSE-SYSTEM-MARKER");
        expect(system).toContain("AGENT-PROMPT-MARKER");
      }
    } finally {
      await proxy.stop(true);
      await control.close();
    }
  });
});

describe("retry and rejudge by eval-run id with a variant", () => {
  let benchmark: string;
  const evalRuns = (evalId: string, variant: string) =>
    readEvalRuns(onlyRunDirectory(benchmark)).filter(
      (run) => run.slot.evalId === evalId && run.slot.variant === variant,
    );
  /** Eval-run id → how many judge runs graded it. */
  const judgings = () => {
    const store = ResultsStore.open(onlyRunDirectory(benchmark), { readonly: true });
    try {
      return Object.fromEntries(
        [...Map.groupBy(store.judgeRuns(), (run) => run.evalRunId)].map(([id, runs]) => [id, runs.length]),
      );
    } finally {
      store.close();
    }
  };
  const output = (result: { stdout: string; stderr: string }) => `${result.stdout}\n${result.stderr}`;

  beforeAll(async () => {
    // `broken`'s prepare step fails (a preparation error, retryable) until the test fixes its script.
    const evalFiles = (id: string) => ({
      [`evals/${id}/prompt.md`]: "Say DONE.\n",
      [`evals/${id}/judge.ts`]: `export default ({ response }) => ({ scores: { done: response.text.trim() === "DONE" } });\n`,
      [`evals/${id}/controls/positive.json`]: JSON.stringify({ turns: [{ text: "DONE" }] }),
    });
    benchmark = await writeTree({
      "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1, variants: { concise: { instructions: "Be brief." } } };\n`,
      ...evalFiles("answer"),
      ...evalFiles("broken"),
      "evals/broken/eval.ts": `export default { prepare: [{ argv: ["sh", "setup.sh"] }] };\n`,
      "evals/broken/workspace/setup.sh": "exit 7\n",
    });
    const run = await runCli(["run", "--benchmark", benchmark], { timeoutMs: 540_000 });
    // Incomplete: both arms of `broken` failed to prepare.
    expect(run.exitCode, output(run)).toBe(3);
    for (const variant of ["current", "concise"]) {
      expect(evalRuns("answer", variant).map((evalRun) => evalRun.state)).toEqual(["completed"]);
      expect(evalRuns("broken", variant).map((evalRun) => [evalRun.state, evalRun.preparationError?.exitCode])).toEqual(
        [["failed", 7]],
      );
    }
  });

  it("rejudge grades exactly the named eval run of the current arm, then of the variant arm, by the viewer's short id or in full", async () => {
    const [current] = evalRuns("answer", "current");
    const [concise] = evalRuns("answer", "concise");
    expect(judgings()).toEqual({ [current!.id]: 1, [concise!.id]: 1 });
    const first = await runCli(["rejudge", shortId(current!.id), "--benchmark", benchmark]);
    // Still incomplete (`broken` waits for a retry), and never "superseded".
    expect(first.exitCode, output(first)).toBe(3);
    expect(judgings()).toEqual({ [current!.id]: 2, [concise!.id]: 1 });
    const second = await runCli(["rejudge", concise!.id, "--benchmark", benchmark]);
    expect(second.exitCode, output(second)).toBe(3);
    expect(judgings()).toEqual({ [current!.id]: 2, [concise!.id]: 2 });
    const ambiguous = await runCli(["rejudge", "eval_", "--benchmark", benchmark]);
    expect(ambiguous.exitCode).toBe(2);
    expect(ambiguous.stderr).toContain("rejudge eval_: 4 eval runs start with it (");
    expect(ambiguous.stderr).toContain("); give more of the id");
  });

  it("retry executes exactly the named eval run's slot of the current arm, then of the variant arm", async () => {
    await writeFile(join(benchmark, "evals", "broken", "workspace", "setup.sh"), "echo fixed\n");
    const [current] = evalRuns("broken", "current");
    const [concise] = evalRuns("broken", "concise");
    const first = await runCli(["retry", shortId(current!.id), "--benchmark", benchmark], { timeoutMs: 540_000 });
    // Still incomplete: the variant arm's `broken` slot is not part of this retry.
    expect(first.exitCode, output(first)).toBe(3);
    expect(evalRuns("broken", "current").map((evalRun) => evalRun.state)).toEqual(["failed", "completed"]);
    expect(evalRuns("broken", "concise").map((evalRun) => evalRun.id)).toEqual([concise!.id]);
    const second = await runCli(["retry", concise!.id, "--benchmark", benchmark], { timeoutMs: 540_000 });
    expect(second.exitCode, output(second)).toBe(0);
    expect(evalRuns("broken", "concise").map((evalRun) => evalRun.state)).toEqual(["failed", "completed"]);
    expect(evalRuns("broken", "current")).toHaveLength(2);
  });
});
