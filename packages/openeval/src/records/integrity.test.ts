import { Database } from "bun:sqlite";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { checkJudgeRunFile, checkRecords, JUDGE_FILES_MANIFEST } from "./integrity.ts";
import * as hash from "../util/hash.ts";
import { EvalRunSchema, JudgeRunSchema, type EvalRun, type JudgeRun } from "./schema.ts";
import { ResultsStore, STORE_FILE } from "./store.ts";

const slot = { evalId: "e", model: "p/m", variant: "current", repetition: 1 };

async function finishedRun() {
  const directory = await makeTempDir();
  const store = ResultsStore.open(directory, { create: true });
  await mkdir(join(directory, "eval-runs", "eval_1", "evidence"), { recursive: true });
  writeFileSync(
    join(directory, "eval-runs", "eval_1", "evidence", "manifest.json"),
    '{"format":"openeval.evidence"}\n',
  );
  const manifestHash = new Bun.CryptoHasher("sha256")
    .update(readFileSync(join(directory, "eval-runs", "eval_1", "evidence", "manifest.json")))
    .digest("hex");
  const evalRun: EvalRun = {
    id: "eval_1",
    runId: "r",
    slot,
    control: false,
    state: "completed",
    infrastructureError: false,
    error: null,
    startedAt: "2026-12-01T00:00:00.000Z",
    completedAt: "2026-12-01T00:01:00.000Z",
    elapsedMs: 60_000,
    input: { candidateFingerprint: "c", prompt: "p", timeoutMs: 1, maxCostUSD: null, opencodeVersion: "x" },
    evidence: { directory: "eval-runs/eval_1/evidence", hash: manifestHash },
    metrics: null,
  };
  store.saveEvalRun(evalRun);
  await mkdir(join(directory, "judge-runs", "judge_1", "code"), { recursive: true });
  writeFileSync(
    join(directory, "judge-runs", "judge_1", "code", "output.json"),
    '{"ok":true,"output":{"scores":{"correct":false}}}\n',
  );
  writeFileSync(join(directory, "judge-runs", "judge_1", "code", "stdout.log"), "graded\n");
  const judgeRun: JudgeRun = {
    id: "judge_1",
    runId: "r",
    evalRunId: "eval_1",
    slot,
    kind: "code",
    state: "completed",
    judgeFingerprint: "j",
    startedAt: "2026-12-01T00:01:00.000Z",
    completedAt: "2026-12-01T00:01:01.000Z",
    elapsedMs: 1000,
    scores: { correct: { value: 0, source: "judge.ts" } },
    unscored: false,
    error: null,
    directory: "judge-runs/judge_1",
  };
  store.saveJudgeRun(judgeRun);
  return { directory, store, judgeRun };
}

describe("tamper-evident results", () => {
  it("seals finalized rows and their judge-run files; an untouched run checks out", async () => {
    const { directory, store } = await finishedRun();
    const [judgeRun] = store.judgeRuns();
    expect(judgeRun!.integrity).toMatch(/^[0-9a-f]{64}$/);
    expect(store.evalRuns()[0]!.integrity).toMatch(/^[0-9a-f]{64}$/);
    expect(
      JSON.parse(readFileSync(join(directory, "judge-runs", "judge_1", JUDGE_FILES_MANIFEST), "utf8")).files,
    ).toEqual({
      "code/output.json": expect.stringMatching(/^[0-9a-f]{64}$/),
      "code/stdout.log": expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(
      checkRecords(directory, { evalRuns: store.evalRuns(), judgeRuns: store.judgeRuns() }, { files: true }),
    ).toEqual([]);
  });

  it("reports an eval run whose recording failed its check against the event stream, naming the files and numbers", async () => {
    const { directory, store } = await finishedRun();
    const integrityError = {
      stream: "eval-runs/eval_2/logs/opencode-events.jsonl",
      database: "eval-runs/eval_2/evidence/native/opencode.db",
      mismatches: [
        { sessionID: "ses_1", quantity: "tool calls" as const, stream: 2, database: 1, missing: ["bash prt_1"] },
      ],
    };
    store.saveEvalRun({
      ...store.evalRuns()[0]!,
      id: "eval_2",
      evidence: null,
      infrastructureError: true,
      integrityError,
      integrity: undefined,
    });
    const problems = checkRecords(directory, { evalRuns: store.evalRuns(), judgeRuns: [] });
    expect(problems).toEqual([
      {
        kind: "eval-run",
        id: "eval_2",
        message: expect.stringContaining(
          "eval run eval_2: Integrity error: the recording was changed while the candidate ran",
        ),
      },
    ]);
    expect(problems[0]!.message).toContain(
      "eval-runs/eval_2/evidence/native/opencode.db records less than the harness's own event stream eval-runs/eval_2/logs/opencode-events.jsonl",
    );
    expect(problems[0]!.message).toContain("tool calls 1 recorded, 2 seen (missing bash prt_1)");
  });

  it("reports an edited judge-run file, by name", async () => {
    const { directory, store, judgeRun } = await finishedRun();
    writeFileSync(
      join(directory, "judge-runs", "judge_1", "code", "output.json"),
      '{"ok":true,"output":{"scores":{"correct":true}}}\n',
    );
    expect(
      checkRecords(directory, { evalRuns: store.evalRuns(), judgeRuns: store.judgeRuns() }, { files: true }),
    ).toEqual([
      {
        kind: "judge-run",
        id: "judge_1",
        message: "judge run judge_1: files changed after it finished: judge-runs/judge_1/code/output.json (changed)",
      },
    ]);
    expect(checkJudgeRunFile(directory, store.judgeRuns()[0]!, "code/output.json")).toMatch(
      /code\/output\.json was changed after the judge run finished/,
    );
    expect(checkJudgeRunFile(directory, store.judgeRuns()[0]!, "code/stdout.log")).toBeNull();
    expect(judgeRun.id).toBe("judge_1");
  });

  it("reports a forged judge row INSERTed by hand, and one copying another row's hash", async () => {
    const { directory, store, judgeRun } = await finishedRun();
    store.close();
    const db = new Database(join(directory, STORE_FILE));
    const forged = { ...judgeRun, id: "judge_forged", scores: { correct: { value: 1, source: "judge.ts" } } };
    db.query("INSERT INTO judge_runs (id, eval_run_id, state, value, created) VALUES (?, ?, 'completed', ?, ?)").run(
      forged.id,
      "eval_1",
      JSON.stringify(forged),
      Date.now() + 1000,
    );
    const sealed = ResultsStore.open(directory).judgeRuns()[0]!;
    const copied = { ...forged, id: "judge_copied", integrity: sealed.integrity };
    db.query("INSERT INTO judge_runs (id, eval_run_id, state, value, created) VALUES (?, ?, 'completed', ?, ?)").run(
      copied.id,
      "eval_1",
      JSON.stringify(copied),
      Date.now() + 2000,
    );
    db.close();
    const reopened = ResultsStore.open(directory, { readonly: true });
    const problems = checkRecords(directory, { evalRuns: reopened.evalRuns(), judgeRuns: reopened.judgeRuns() });
    expect(problems.map((problem) => problem.id)).toEqual(["judge_forged", "judge_copied"]);
    expect(problems[0]!.message).toContain("has no integrity hash");
    expect(problems[1]!.message).toMatch(/its files\.json is missing|integrity hash does not match/);
  });

  it("reports an eval row edited behind the store's back, and a recording manifest that changed", async () => {
    const { directory, store } = await finishedRun();
    store.close();
    const db = new Database(join(directory, STORE_FILE));
    db.run("DROP TRIGGER eval_runs_finalized_immutable");
    const row = JSON.parse((db.query("SELECT value FROM eval_runs").get() as { value: string }).value) as EvalRun;
    db.query("UPDATE eval_runs SET value = ?").run(JSON.stringify({ ...row, elapsedMs: 1 }));
    db.close();
    const reopened = ResultsStore.open(directory, { readonly: true });
    expect(checkRecords(directory, { evalRuns: reopened.evalRuns(), judgeRuns: [] })[0]!.message).toContain(
      "eval run eval_1: the row was edited after it was finalized",
    );
    writeFileSync(join(directory, "eval-runs", "eval_1", "evidence", "manifest.json"), '{"format":"forged"}\n');
    const problems = checkRecords(directory, { evalRuns: [{ ...row }], judgeRuns: reopened.judgeRuns() });
    expect(problems.map((problem) => problem.message)).toEqual([
      "eval run eval_1: its recording's manifest.json was changed (sha256 differs from the row's evidence hash)",
    ]);
  });
  it("checks a row the store sealed by its stored text: parsed without the schema, its files.json and recording still chained", async () => {
    const { directory, store } = await finishedRun();
    const schemas = [vi.spyOn(EvalRunSchema, "safeParse"), vi.spyOn(JudgeRunSchema, "safeParse")];
    const integrity = vi.spyOn(hash, "fingerprint");
    try {
      const records = { evalRuns: store.evalRuns(), judgeRuns: store.judgeRuns() };
      expect(checkRecords(directory, records)).toEqual([]);
      for (const schema of schemas) expect(schema).not.toHaveBeenCalled();
      expect(integrity).not.toHaveBeenCalled();
      // A files.json rewritten to list other hashes breaks the judge run's chained seal as it broke `integrity`.
      const files = join(directory, "judge-runs", "judge_1", JUDGE_FILES_MANIFEST);
      writeFileSync(
        files,
        readFileSync(files, "utf8").replace(
          /"code\/stdout\.log": "[0-9a-f]+"/,
          `"code/stdout.log": "${"0".repeat(64)}"`,
        ),
      );
      expect(
        checkRecords(directory, { evalRuns: store.evalRuns(), judgeRuns: store.judgeRuns() }).map(
          (problem) => problem.message,
        ),
      ).toEqual([
        "judge run judge_1: the row, its files.json or the recording it judged was changed after it was finalized (its integrity hash does not match)",
      ]);
      // A copy of a sealed row is not vouched for: it is checked in full, and still passes.
      writeFileSync(
        files,
        readFileSync(files, "utf8").replace(
          /"code\/stdout\.log": "0+"/,
          `"code/stdout.log": "${hash.sha256("graded\n")}"`,
        ),
      );
      expect(
        checkRecords(directory, {
          evalRuns: records.evalRuns.map((run) => ({ ...run })),
          judgeRuns: records.judgeRuns.map((run) => ({ ...run })),
        }),
      ).toEqual([]);
      expect(integrity).toHaveBeenCalledTimes(2);
    } finally {
      for (const spy of [...schemas, integrity]) spy.mockRestore();
    }
  });

  it("spends a seal on the check that uses it: a row checked again is hashed in full, so a change made to it since it was read is caught", async () => {
    const { directory, store } = await finishedRun();
    const records = { evalRuns: store.evalRuns(), judgeRuns: store.judgeRuns() };
    expect(checkRecords(directory, records)).toEqual([]);
    expect(checkRecords(directory, records)).toEqual([]);
    records.evalRuns[0]!.elapsedMs = 1;
    records.judgeRuns[0]!.error = "changed in memory";
    expect(checkRecords(directory, records).map((problem) => problem.message)).toEqual([
      "eval run eval_1: the row was edited after it was finalized (its integrity hash does not match)",
      "judge run judge_1: the row, its files.json or the recording it judged was changed after it was finalized (its integrity hash does not match)",
    ]);
  });

  it("stores current's rows without a variant, as rows sealed before slot keys named theirs: both read as current and check out", async () => {
    const { directory, store } = await finishedRun();
    store.saveEvalRun({
      ...store.evalRun("eval_1")!,
      id: "eval_terse",
      slot: { ...slot, variant: "terse" },
      integrity: undefined,
    });
    store.close();
    const db = new Database(join(directory, STORE_FILE));
    const stored = db.query("SELECT id, variant, value FROM eval_runs ORDER BY rowid").all() as {
      id: string;
      variant: string | null;
      value: string;
    }[];
    expect(stored.map((row) => [row.id, row.variant, JSON.parse(row.value).slot])).toEqual([
      ["eval_1", null, { evalId: "e", model: "p/m", repetition: 1 }],
      ["eval_terse", "terse", { evalId: "e", model: "p/m", variant: "terse", repetition: 1 }],
    ]);
    // A row an older openeval sealed, hashed without a variant, and without a stored-text seal: checked in full.
    const { integrity: _, ...old } = { ...(JSON.parse(stored[0]!.value) as EvalRun), id: "eval_old" };
    db.query(
      "INSERT INTO eval_runs (id, eval_id, model, repetition, state, value, created) VALUES (?, 'e', 'p/m', 1, 'completed', ?, ?)",
    ).run(old.id, JSON.stringify({ ...old, integrity: hash.fingerprint({ row: old }) }), Date.now());
    db.close();
    const reopened = ResultsStore.open(directory, { readonly: true });
    const records = { evalRuns: reopened.evalRuns(), judgeRuns: reopened.judgeRuns() };
    expect(records.evalRuns.map((run) => [run.id, run.slot.variant])).toEqual([
      ["eval_1", "current"],
      ["eval_terse", "terse"],
      ["eval_old", "current"],
    ]);
    expect(records.judgeRuns.map((run) => run.slot.variant)).toEqual(["current"]);
    expect(reopened.heads().evalRuns.map((head) => head.slot)).toEqual(records.evalRuns.map((run) => run.slot));
    // Checked twice: by the stored-text seals, then (the seals spent) by the hashes of the rows as stored.
    expect(checkRecords(directory, records)).toEqual([]);
    expect(checkRecords(directory, records)).toEqual([]);
    reopened.close();
  });

  it("reports a recording manifest or a files.json that is gone, and throws for one that cannot be read", async () => {
    const { directory, store } = await finishedRun();
    const records = { evalRuns: store.evalRuns(), judgeRuns: store.judgeRuns() };
    store.close();
    const manifest = join(directory, "eval-runs", "eval_1", "evidence", "manifest.json");
    rmSync(manifest);
    rmSync(join(directory, "judge-runs", "judge_1", JUDGE_FILES_MANIFEST));
    expect(checkRecords(directory, records).map((problem) => problem.message)).toEqual([
      "eval run eval_1: its recording's manifest.json is missing",
      "judge run judge_1: its files.json is missing",
    ]);
    // Not a missing file but an unreadable one (here a folder in its place): an error, never "it checks out".
    mkdirSync(manifest);
    expect(() => checkRecords(directory, { evalRuns: records.evalRuns, judgeRuns: [] })).toThrow(/EISDIR/);
  });
});
