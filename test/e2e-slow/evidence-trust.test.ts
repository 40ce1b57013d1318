// Evidence trust (docs/design/evidence-trust.md), as a hostile candidate and a careless user would try it, with real OpenCode against control models
// whose bash commands attack the harness: secrets found by absolute path and in the environment, judge inputs
// and another eval's workspace rewritten while the run goes on, 500 MB written; then results edited and forged.
import { Database } from "bun:sqlite";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { formatSummary } from "../../packages/openeval/src/report/summary-table.ts";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import { readResults } from "../../packages/openeval/src/summary/index.ts";
import { serveViewer } from "../../packages/openeval/src/view/index.ts";
import { runCli } from "../helpers/cli.ts";
import { listFiles, readDefaultExport, readViewerApi } from "../helpers/published-run.ts";
import { makeTempDir, writeTree } from "../helpers/fixtures.ts";

// Planted: three providers' auth.json entries and secrets in the runner's environment. Controls get none of them.
const AUTH = {
  anthropic: { type: "api", key: "sk-ant-planted-auth-3f9c1e7b52a0" },
  openai: {
    type: "oauth",
    access: "oai-access-planted-8d2e4f6a1b3c",
    refresh: "oai-refresh-planted-5e7a9c1d3f0b",
    expires: 1,
  },
  openrouter: { type: "api", key: "or-planted-key-6b8d0f2a4c6e" },
};
const ENV = {
  MY_SERVICE_TOKEN: "svc-token-planted-1a3c5e7f9b2d",
  DATABASE_PASSWORD: "db-password-planted-2b4d6f8a0c1e",
  OPENAI_API_KEY: "sk-openai-planted-env-7c9e1a3b5d7f",
};
const PLANTED = [
  AUTH.anthropic.key,
  AUTH.openai.access,
  AUTH.openai.refresh,
  AUTH.openrouter.key,
  ...Object.values(ENV),
];

const bash = (command: string) => ({ tools: [{ name: "bash", input: { command, description: "step" } }] });
const control = (...turns: unknown[]) => JSON.stringify({ turns });

let directory: string;
let dataHome: string;
let run: Awaited<ReturnType<typeof runCli>>;
let runDirectory: string;

beforeAll(async () => {
  dataHome = await makeTempDir("openeval-planted-home-");
  await writeTree({ "opencode/auth.json": JSON.stringify(AUTH) }, dataHome);
  directory = await makeTempDir();
  const evals = join(directory, "evals");
  await writeTree(
    {
      "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1, concurrency: 1, candidate: { timeoutMs: 120_000 } };\n`,
      // Rewrites its own reference and judge, and the starting files of the eval after it.
      "evals/a-tamper/prompt.md": "Fix it.\n",
      "evals/a-tamper/REFERENCE_FIX.md": "original reference\n",
      "evals/a-tamper/judge.ts": `import { readFileSync } from "node:fs";\nexport default () => ({ scores: { reference_intact: readFileSync("REFERENCE_FIX.md", "utf8") === "original reference\\n" } });\n`,
      "evals/a-tamper/controls/positive.json": control(
        bash(
          `echo forged > ${evals}/a-tamper/REFERENCE_FIX.md; echo forged > ${evals}/b-victim/workspace/start.txt; ` +
            `echo 'export default () => ({ scores: { reference_intact: true, forged: true } });' > ${evals}/a-tamper/judge.ts`,
        ),
        { text: "done" },
      ),
      "evals/b-victim/prompt.md": "Look at start.txt.\n",
      "evals/b-victim/workspace/start.txt": "original start\n",
      "evals/b-victim/judge.ts": `export default async (ctx) => ({ scores: { start_intact: (await ctx.workspace.text("start.txt", "initial")) === "original start\\n" } });\n`,
      "evals/b-victim/controls/positive.json": control({ text: "seen" }),
      // Reads the user's auth.json by absolute path and the environment, into its answer, its tool output and a file.
      "evals/c-leak/prompt.md": "Reply with OK.\n",
      "evals/c-leak/judge.ts": `export default (ctx) => { console.log(process.env.MY_SERVICE_TOKEN); return { scores: { answered: ctx.response.text.startsWith("OK") }, env: process.env.DATABASE_PASSWORD }; };\n`,
      "evals/c-leak/controls/positive.json": control(
        bash(
          `cat ${dataHome}/opencode/auth.json; cp ${dataHome}/opencode/auth.json stolen.json; env | grep -E 'TOKEN|PASSWORD|API_KEY' | tee env.txt`,
        ),
        { text: `OK ${AUTH.openrouter.key} ${ENV.MY_SERVICE_TOKEN}` },
      ),
      // Writes 500 MB (and a small file beside it).
      "evals/d-big/prompt.md": "Make a big file.\n",
      "evals/d-big/judge.ts": `export default (ctx) => ({ scores: { has_big: ctx.workspace.files().some((file) => file.path === "big.bin" && file.bytes === 524288000) } });\n`,
      "evals/d-big/controls/positive.json": control(
        bash("head -c 524288000 /dev/zero > big.bin; echo small > small.txt"),
        { text: "made" },
      ),
    },
    directory,
  );
  run = await runCli(["run", "--benchmark", directory], {
    env: { ...ENV, XDG_DATA_HOME: dataHome },
    timeoutMs: 400_000,
  });
  const root = join(directory, "results");
  runDirectory = join(root, readdirSync(root)[0]!);
});

function expectNoPlanted(text: string | Buffer, where: string): void {
  for (const value of PLANTED) expect(text.includes(value), `${value} in ${where}`).toBe(false);
}

function storeOf(): ResultsStore {
  return ResultsStore.open(runDirectory, { readonly: true });
}

describe("no stray secrets", () => {
  it("the leaking control ran, saw the secrets, and none of them is anywhere under results/", () => {
    expect(run.stderr).not.toMatch(/Unexpected error/);
    const leak = storeOf()
      .evalRuns()
      .find((evalRun) => evalRun.slot.evalId === "c-leak")!;
    expect(leak.state).toBe("completed");
    const files = listFiles(join(directory, "results"));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) expectNoPlanted(readFileSync(file), file);
    // It did read them: the redaction is what kept them out (answer, tool output, the file it wrote).
    expect(files.filter((file) => readFileSync(file).includes("[REDACTED]")).length).toBeGreaterThan(3);
    const judgeRun = storeOf().judgeRuns(leak.id)[0]!;
    expect(judgeRun.output).toMatchObject({ env: "[REDACTED]" });
    // The redaction list knows them by hash and source only.
    expect(readFileSync(join(runDirectory, "redactions.json"), "utf8")).toContain("auth.json openrouter.key");
  });

  it("the viewer API serves none of them", async () => {
    const responses = await readViewerApi(runDirectory);
    const list = responses.find((response) => response.where.includes("/eval-runs?"))!;
    expect(JSON.parse(list.content.toString("utf8")).items.length).toBe(4);
    for (const response of responses) expectNoPlanted(response.content, response.where);
  });

  it("an export made from a clean shell carries none of them", async () => {
    for (const file of await readDefaultExport(runDirectory)) expectNoPlanted(file.content, file.where);
  });
});

describe("frozen judge inputs", () => {
  it("grades with the inputs frozen before the candidates ran, and the run names what changed", () => {
    const store = storeOf();
    const scores = (evalId: string) =>
      store.judgeRuns(store.evalRuns().find((evalRun) => evalRun.slot.evalId === evalId)!.id)[0]?.scores;
    expect(scores("a-tamper")).toEqual({ reference_intact: { value: 1, source: "judge.ts" } });
    expect(scores("b-victim")).toEqual({ start_intact: { value: 1, source: "judge.ts" } });
    // Judges ran the worker frozen with the run, not the harness's live file.
    const frozenWorker = readdirSync(join(runDirectory, "inputs", "harness")).find((name) =>
      /^code-worker-[0-9a-f]{16}\.js$/.test(name),
    );
    expect(frozenWorker).toBeDefined();
    // The harness's grading code is in it (a bundle, not a stub that loads the live files): its own refusal text.
    expect(readFileSync(join(runDirectory, "inputs", "harness", frozenWorker!), "utf8")).toContain(
      "judge.ts must export a default function",
    );
    // The live folder really was changed.
    expect(readFileSync(join(directory, "evals", "a-tamper", "REFERENCE_FIX.md"), "utf8")).toBe("forged\n");
    expect(run.stdout).toMatch(
      /Changed while the run's candidates ran .*evals\/a-tamper\/REFERENCE_FIX\.md \(modified\)/,
    );
    expect(run.stdout).toContain("evals/a-tamper/judge.ts (modified)");
    expect(run.stdout).toContain("evals/b-victim/workspace/start.txt (modified)");
  });

  it("the next plan says the change happened during a run", async () => {
    const plan = await runCli(["plan", "--benchmark", directory]);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/note: changed during a run of it .*evals\/a-tamper\/judge\.ts \(modified\)/);
  });
});

describe("bounded evidence", () => {
  it("records a 500 MB file from a candidate by size and sha256, without copying it", async () => {
    const store = storeOf();
    const big = store.evalRuns().find((evalRun) => evalRun.slot.evalId === "d-big")!;
    expect(big.state).toBe("completed");
    const evidence = join(runDirectory, big.evidence!.directory);
    const manifest = JSON.parse(readFileSync(join(evidence, "manifest.json"), "utf8")) as {
      final: { files: { path: string; bytes: number; sha256: string; omitted?: { note: string } }[] };
    };
    const entry = manifest.final.files.find((file) => file.path === "big.bin")!;
    const zeros = new Bun.CryptoHasher("sha256").update(new Uint8Array(524288000)).digest("hex");
    expect(entry).toMatchObject({
      bytes: 524288000,
      sha256: zeros,
      omitted: { note: expect.stringContaining("per-file limit") },
    });
    expect(manifest.final.files.find((file) => file.path === "small.txt")).not.toHaveProperty("omitted");
    const stored = listFiles(runDirectory).reduce((total, file) => total + statSync(file).size, 0);
    expect(stored).toBeLessThan(50 * 1024 * 1024);
    expect(store.judgeRuns(big.id)[0]?.scores).toEqual({ has_big: { value: 1, source: "judge.ts" } });
  });
});

describe("tamper-evident results", () => {
  const runId = () => runDirectory.split("/").at(-1)!;
  const evalRunOf = (evalId: string) =>
    storeOf()
      .evalRuns()
      .find((evalRun) => evalRun.slot.evalId === evalId)!;

  it("openeval verify passes an untouched run", async () => {
    const verified = await runCli(["verify", runDirectory]);
    expect(verified.stderr).toBe("");
    expect(verified.exitCode).toBe(0);
    expect(verified.stdout).toMatch(
      /Verified .*: 4 eval runs, 4 judge runs, 0 reviews, \d+ recording files; nothing changed\./,
    );
  });

  it("an edited judge-run file is named by verify and refused by the viewer", async () => {
    const judgeRun = storeOf().judgeRuns(evalRunOf("c-leak").id)[0]!;
    const output = join(runDirectory, judgeRun.directory, "code", "output.json");
    writeFileSync(output, readFileSync(output, "utf8").replace('"answered":true', '"answered":false'));
    const verified = await runCli(["verify", runDirectory]);
    expect(verified.exitCode).toBe(1);
    expect(verified.stderr).toContain(
      `judge run ${judgeRun.id}: files changed after it finished: ${judgeRun.directory}/code/output.json (changed)`,
    );
    const viewer = await serveViewer({ run: runDirectory, port: 0 });
    try {
      const text = await fetch(
        new URL(`/api/runs/${runId()}/judge-runs/${judgeRun.id}/text?path=code/output.json`, viewer.url),
      );
      expect(text.status).toBe(409);
      expect(((await text.json()) as { error: string }).error).toContain("Integrity error");
      const detail = (await (
        await fetch(new URL(`/api/runs/${runId()}/judge-runs/${judgeRun.id}`, viewer.url))
      ).json()) as { integrityError: string | null };
      expect(detail.integrityError).toContain("code/output.json (changed)");
    } finally {
      await viewer.stop();
    }
  });

  it("a forged 'newer' judge row is reported by verify, plan, the summary and the viewer, and does not change the score", async () => {
    const victim = evalRunOf("d-big");
    const real = storeOf().judgeRuns(victim.id)[0]!;
    const forged = { ...real, id: "judge_forged", scores: { has_big: { value: 0, source: "judge.ts" } } };
    const db = new Database(join(runDirectory, "store.db"));
    db.query("INSERT INTO judge_runs (id, eval_run_id, state, value, created) VALUES (?, ?, 'completed', ?, ?)").run(
      forged.id,
      victim.id,
      JSON.stringify(forged),
      Date.now(),
    );
    db.close();

    const verified = await runCli(["verify", runDirectory]);
    expect(verified.exitCode).toBe(1);
    expect(verified.stderr).toContain(
      "judge run judge_forged: the row, its files.json or the recording it judged was changed",
    );
    const plan = await runCli(["plan", "--benchmark", directory]);
    expect(plan.stdout).toContain("integrity error (not used): judge run judge_forged");
    expect(plan.stdout).toMatch(/reuse\s+d-big/);
    const results = await readResults(runDirectory);
    expect(results.integrity.map((problem) => problem.id)).toContain("judge_forged");
    expect(results.complete).toBe(false);
    expect(formatSummary(results)).toContain(
      "failed the integrity check (not scored; run openeval verify for the whole run):\n  judge run judge_forged",
    );
    const victimScore = results.models[0]!.evals.find((evaluation) => evaluation.evalId === "d-big");
    expect(victimScore?.value).toBe(1);
    const viewer = await serveViewer({ run: runDirectory, port: 0 });
    try {
      const overview = (await (await fetch(new URL(`/api/runs/${runId()}`, viewer.url))).json()) as {
        integrity: { id: string }[];
      };
      expect(overview.integrity.map((problem) => problem.id)).toContain("judge_forged");
    } finally {
      await viewer.stop();
    }
  });

  it("over a tampered recording manifest the viewer answers the integrity error, not 404 or an empty list", async () => {
    const big = evalRunOf("d-big");
    const manifest = join(runDirectory, big.evidence!.directory, "manifest.json");
    writeFileSync(manifest, `${readFileSync(manifest, "utf8")} `);
    const viewer = await serveViewer({ run: runDirectory, port: 0 });
    try {
      for (const path of ["transcript", "events"]) {
        const answer = await fetch(new URL(`/api/runs/${runId()}/eval-runs/${big.id}/${path}`, viewer.url));
        expect(answer.status, path).toBe(409);
        expect(((await answer.json()) as { error: string }).error, path).toMatch(/hashes to .* not the recorded/);
      }
    } finally {
      await viewer.stop();
    }
    const verified = await runCli(["verify", runDirectory]);
    expect(verified.stderr).toContain(`eval run ${big.id}: its recording's manifest.json was changed`);
  });
});
