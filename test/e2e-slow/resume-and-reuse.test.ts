// Journeys through interruption and reuse: a runner killed with SIGKILL midway loses nothing and repeats no
// finished candidate; an edited judge.ts re-judges only; --offline makes no model call and reports gaps.
import { Database } from "bun:sqlite";
import { cp, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const CLI_MAIN = join(ROOT, "packages", "openeval", "src", "cli", "main.ts");
let directory: string;

interface Row {
  id: string;
  eval_id: string;
  model: string;
  repetition: number;
  state: string;
  value: string;
}

async function storeFile(): Promise<string> {
  const runs = await readdir(join(directory, "results"));
  return join(directory, "results", runs[0]!, "store.db");
}

async function evalRunRows(): Promise<Row[]> {
  const db = new Database(await storeFile(), { readonly: true });
  try {
    return db.query("SELECT id, eval_id, model, repetition, state, value FROM eval_runs ORDER BY rowid").all() as Row[];
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  directory = await makeTempDir();
  await cp(join(ROOT, "evals", "exact-answer"), join(directory, "evals", "exact-answer"), { recursive: true });
  await cp(join(ROOT, "evals", "fix-slugify"), join(directory, "evals", "fix-slugify"), { recursive: true });
  await writeFile(
    join(directory, "benchmark.ts"),
    `export default { models: ["control/positive", "control/negative"], repetitions: 2, concurrency: 2 };\n`,
  );
});

describe("interrupted and repeated runs", () => {
  it("survives a SIGKILL of the runner midway: finished work kept byte for byte, nothing finished runs twice", async () => {
    const runner = Bun.spawn([process.execPath, CLI_MAIN, "run", "--benchmark", directory], {
      stdout: "ignore",
      stderr: "ignore",
      stdin: "ignore",
    });
    // Kill once some eval runs have finished and others are running.
    for (let waited = 0; waited < 240_000; waited += 250) {
      await Bun.sleep(250);
      const rows = await evalRunRows().catch(() => []);
      if (rows.filter((row) => row.state === "completed").length >= 2 && rows.some((row) => row.state === "running"))
        break;
    }
    runner.kill("SIGKILL");
    await runner.exited;
    const before = await evalRunRows();
    const finalizedBefore = before.filter((row) => row.state !== "running");
    expect(finalizedBefore.length).toBeGreaterThanOrEqual(2);
    expect(before.some((row) => row.state === "running")).toBe(true);

    const rerun = await runCli(["run", "--benchmark", directory], { timeoutMs: 400_000 });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const after = await evalRunRows();
    for (const row of finalizedBefore)
      expect(after.find((candidate) => candidate.id === row.id)?.value).toBe(row.value);
    const interrupted = after.filter((row) => row.state === "interrupted");
    expect(interrupted.map((row) => row.id).sort()).toEqual(
      before
        .filter((row) => row.state === "running")
        .map((row) => row.id)
        .sort(),
    );
    const finished = after.filter((row) => row.state !== "interrupted");
    const perSlot = new Map<string, number>();
    for (const row of finished)
      perSlot.set(
        `${row.eval_id}|${row.model}|${row.repetition}`,
        (perSlot.get(`${row.eval_id}|${row.model}|${row.repetition}`) ?? 0) + 1,
      );
    expect(perSlot.size).toBe(8);
    expect([...perSlot.values()].every((count) => count === 1)).toBe(true);
  });

  it("after an edit of one judge.ts, plans judging for that eval only and re-runs no candidate", async () => {
    const judge = join(directory, "evals", "exact-answer", "judge.ts");
    await writeFile(
      judge,
      `export default ({ response }) => ({ scores: { correct_answer: response.text.trim() === "APPLE" } });\n`,
    );
    const plan = await runCli(["plan", "--benchmark", directory, "--json"]);
    expect(plan.exitCode).toBe(0);
    const work = (
      JSON.parse(plan.stdout) as { work: { eval: string; action: string }[]; estimate: { usd: number | null } }
    ).work;
    expect(work.filter((slot) => slot.eval === "exact-answer").map((slot) => slot.action)).toEqual([
      "judge",
      "judge",
      "judge",
      "judge",
    ]);
    expect(work.filter((slot) => slot.eval === "fix-slugify").map((slot) => slot.action)).toEqual([
      "reuse",
      "reuse",
      "reuse",
      "reuse",
    ]);
    const rowsBefore = (await evalRunRows()).length;
    const rerun = await runCli(["run", "--benchmark", directory]);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect((await evalRunRows()).length).toBe(rowsBefore);
    expect(rerun.stderr).not.toContain("candidate ");
    expect(rerun.stderr.match(/^judge {5}exact-answer/gm)).toHaveLength(4);
  });

  it("--offline on a fully recorded run exits 0 with no model call; with gaps it reports them and exits 3", async () => {
    const rowsBefore = (await evalRunRows()).length;
    const complete = await runCli(["run", "--benchmark", directory, "--offline"]);
    expect(complete.exitCode, complete.stdout).toBe(0);
    const gaps = await runCli([
      "run",
      "--benchmark",
      directory,
      "--offline",
      "--model",
      "control/positive",
      "--model",
      "provider/some-model",
    ]);
    expect(gaps.exitCode).toBe(3);
    expect(gaps.stdout).toContain(
      "exact-answer × provider/some-model #1: deferred — --offline: new eval/model/repetition, which needs a model call",
    );
    expect((await evalRunRows()).length).toBe(rowsBefore);
  });
});
