// Test and benchmark fixtures: a run directory written through the library's own writers (ResultsStore,
// recordEvidence), with judge runs that carry reasons, citations, logs and a verification receipt with a PNG, and
// optionally an eval run an earlyStop check stopped.
// Large runs share one recording between many eval runs, so 10,000 of them are written in seconds.
import { mkdir, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { recordEvidence, type EvidenceRef } from "../recording/index.ts";
import { newRunId, ResultsStore, type EvalRun, type JudgeRun } from "../results/index.ts";
import { isControlModel } from "../util/control-model.ts";

export interface ViewerFixtureOptions {
  evals: number;
  models: string[];
  repetitions: number;
  /** Planted in the response, a tool output, the workspace and the judge's logs (for scrubbing tests). */
  secret?: string;
  /** Recordings to write; eval runs cycle through them (default 1 per eval run up to 4). */
  recordings?: number;
  /** The last eval run was stopped by its second earlyStop check, whose judgment is the slot's judge run. */
  decidedEarly?: boolean;
}

export interface ViewerFixture {
  /** The benchmark folder (holds results/<run-id>). */
  benchmarkDirectory: string;
  runDirectory: string;
  runId: string;
  evalRuns: EvalRun[];
  judgeRuns: JudgeRun[];
}

/** A 1×1 PNG. */
export const PNG_PIXEL = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (char) => char.charCodeAt(0),
);

export async function writeViewerFixture(root: string, options: ViewerFixtureOptions): Promise<ViewerFixture> {
  const runId = newRunId(new Date("2026-11-29T12:00:00.000Z"));
  const runDirectory = join(root, "results", runId);
  const store = ResultsStore.open(runDirectory, { create: true });
  const evalIds = Array.from({ length: options.evals }, (_, index) => `eval-${String(index + 1).padStart(4, "0")}`);
  store.writeRun({
    id: runId,
    name: "fixture",
    benchmarkDirectory: root,
    createdAt: "2026-11-29T12:00:00.000Z",
    opencodeVersion: "1.18.33",
    models: options.models,
    repetitions: options.repetitions,
    evals: evalIds,
  });
  const recordings: EvidenceRef[] = [];
  const recordingCount = options.recordings ?? Math.min(4, options.evals * options.models.length * options.repetitions);
  for (let index = 0; index < recordingCount; index++) recordings.push(await writeRecording(join(runDirectory, "eval-runs", `recording-${index}`, "evidence"), index, root, options.secret));

  const evalRuns: EvalRun[] = [];
  const judgeRuns: JudgeRun[] = [];
  const slots = evalIds.length * options.models.length * options.repetitions;
  let count = 0;
  for (const evalId of evalIds) {
    for (const [modelIndex, model] of options.models.entries()) {
      for (let repetition = 1; repetition <= options.repetitions; repetition++) {
        const n = count++;
        const evidence = recordings[n % recordings.length]!;
        let evalRun = makeEvalRun(runId, n, { evalId, model, repetition }, relative(runDirectory, evidence.directory), evidence.hash);
        // The first model passes everything, the others pass the first criterion only.
        let judgeRun = makeJudgeRun(runId, n, evalRun, modelIndex === 0);
        if (options.decidedEarly && n === slots - 1) [evalRun, judgeRun] = await stopEarly(runDirectory, evalRun, judgeRun, root, options.secret);
        else await writeJudgeFolder(join(runDirectory, judgeRun.directory), n, options.secret, root, n < 4);
        store.saveEvalRun(evalRun);
        evalRuns.push(evalRun);
        store.saveJudgeRun(judgeRun);
        judgeRuns.push(judgeRun);
      }
    }
  }
  store.close();
  return { benchmarkDirectory: root, runDirectory, runId, evalRuns, judgeRuns };
}

async function writeRecording(directory: string, index: number, root: string, secret = "no-secret"): Promise<EvidenceRef> {
  return recordEvidence({
    directory,
    prompt: `Fix the bug in slugify.js (recording ${index}).`,
    response: `Fixed slugify.js. Key used: ${secret}. Worked in ${root}/workspace.`,
    tools: [
      { id: "tool_1", name: "bash", input: { command: "node --test" }, output: `# fail 1\nat ${root}/workspace/slugify.test.js:5`, status: "completed" },
      { id: "tool_2", name: "edit", input: { filePath: "slugify.js" }, output: "Edit applied successfully." },
      { id: "tool_3", name: "bash", input: { command: "cat missing.txt" }, error: "cat: missing.txt: No such file or directory" },
    ],
    workspace: {
      initial: { "slugify.js": 'export const slugify = (s) => s.replace(/[^a-z0-9]+/, "-");\n', "README.md": "# slugify\n" },
      final: { "slugify.js": 'export const slugify = (s) => s.replace(/[^a-z0-9]+/g, "-");\n', "README.md": "# slugify\n", ".env": `OPENAI_API_KEY=${secret}\n` },
    },
  });
}

function makeEvalRun(runId: string, n: number, slot: EvalRun["slot"], directory: string, hash: string): EvalRun {
  const started = new Date(Date.UTC(2026, 10, 29, 12, 0, 0) + n * 1_000);
  return {
    id: `eval_${hex(n)}-0000-4000-8000-000000000000`,
    runId,
    slot,
    control: isControlModel(slot.model),
    state: "completed",
    infrastructureError: false,
    error: null,
    startedAt: started.toISOString(),
    completedAt: new Date(started.getTime() + 5_000).toISOString(),
    elapsedMs: 4_000 + (n % 7) * 250,
    input: { candidateFingerprint: "f".repeat(64), prompt: "Fix the bug in slugify.js.", timeoutMs: 120_000, maxCostUSD: null, opencodeVersion: "1.18.33" },
    evidence: { directory, hash },
    metrics: {
      version: 1,
      cost: { usd: 0.0125 },
      tokens: { input: 1200, output: 80, reasoning: 0, cacheRead: 0, cacheWrite: 0 },
      tools: { calls: 3, succeeded: 2, failed: 1, unfinished: 0, errorRate: 1 / 3 },
      requests: { started: 3, succeeded: 3, failed: 0, retries: null },
      compactions: 0,
      timing: { elapsedMs: 4_000, modelActiveMs: 1_500, outputTokensPerSecond: 53.3 },
    },
  };
}

function makeJudgeRun(runId: string, n: number, evalRun: EvalRun, passes: boolean): JudgeRun {
  const id = `judge_${hex(n)}-0000-4000-8000-000000000000`;
  return {
    id,
    runId,
    evalRunId: evalRun.id,
    slot: evalRun.slot,
    kind: "hybrid",
    state: "completed",
    judgeFingerprint: "j".repeat(64),
    startedAt: evalRun.completedAt!,
    completedAt: evalRun.completedAt!,
    elapsedMs: 300,
    scores: {
      tests_pass: { value: 1, source: "judge.ts" },
      focused_fix: {
        value: passes ? 1 : 0,
        source: "judge.md",
        reason: passes ? "Only slugify.js changed and the tests were run." : "The agent never re-ran the tests after its edit.",
        evidence: [
          { kind: "tool", id: "tool_1", quote: "# fail 1" },
          { kind: "file", path: "slugify.js", quote: "/g" },
          { kind: "response" },
          { kind: "metric", id: "tools.errorRate" },
          { something: "not a citation" },
        ],
      },
    },
    unscored: false,
    output: { scores: { tests_pass: true }, changedFiles: ["slugify.js"] },
    error: null,
    directory: `judge-runs/${id}`,
  };
}

/**
 * The eval run stopped early: check 1 continued, check 2 decided. The judgment lives in checks/2 (its rubric/ archive)
 * beside the snapshot it judged (evidence/, a recording holding the secret too).
 */
async function stopEarly(runDirectory: string, evalRun: EvalRun, judgeRun: JudgeRun, root: string, secret?: string): Promise<[EvalRun, JudgeRun]> {
  const checks = join("eval-runs", evalRun.id, "checks");
  const decided = join(checks, "2");
  const snapshot = await writeRecording(join(runDirectory, decided, "evidence"), 99, root, secret);
  const checkpoint = { directory: relative(runDirectory, snapshot.directory), hash: snapshot.hash };
  await mkdir(join(runDirectory, decided, "rubric"), { recursive: true });
  await writeFile(join(runDirectory, decided, "rubric", "job.json"), JSON.stringify({ checkpoint: checkpoint.directory, earlyCheck: true }));
  await writeFile(join(runDirectory, decided, "rubric", "submission.json"), JSON.stringify({ scores: { focused_fix: { value: 0, final: true, reason: judgeRun.scores?.focused_fix?.reason } } }));
  const check = (number: number, outcome: "continue" | "decided", reason: string | null) => ({
    check: number,
    startedAt: new Date(Date.parse(evalRun.startedAt) + number * 1_000).toISOString(),
    elapsedMs: 900,
    outcome,
    reason,
    costUSD: 0.002,
    directory: join(checks, String(number)),
    checkpoint: number === 2 ? checkpoint : { directory: join(checks, String(number), "evidence"), hash: "0".repeat(64) },
  });
  const stopped: EvalRun = { ...evalRun, state: "stopped", earlyStop: { checks: [check(1, "continue", "The tests have not been re-run yet."), check(2, "decided", null)] } };
  const judgment: JudgeRun = { ...judgeRun, kind: "rubric", output: undefined, directory: decided, decidedEarly: { check: 2, checkpoint } };
  return [stopped, judgment];
}

/** code/ (frozen judge, logs) and, for the first few, a verification receipt with a screenshot. */
async function writeJudgeFolder(directory: string, n: number, secret = "no-secret", root: string, withVerification: boolean): Promise<void> {
  await mkdir(join(directory, "code"), { recursive: true });
  await writeFile(join(directory, "code", "judge.js"), `// judge.ts\nexport default ({ response }) => ({ scores: { tests_pass: true } });\n`);
  await writeFile(join(directory, "code", "output.json"), JSON.stringify({ scores: { tests_pass: true } }));
  await writeFile(join(directory, "code", "stdout.log"), `judging ${n} in ${root}\nAuthorization: Bearer ${secret}\n`);
  await writeFile(join(directory, "code", "stderr.log"), "");
  if (!withVerification) return;
  const verification = join(directory, "verification", `ver_${hex(n)}`);
  await mkdir(join(verification, "artifacts"), { recursive: true });
  await writeFile(join(verification, "artifacts", "shot.png"), PNG_PIXEL);
  await writeFile(join(verification, "stdout.log"), '{"loaded":true,"initial":"0","afterClicks":"3","errors":[]}\n');
  await writeFile(join(verification, "stderr.log"), "");
  await writeFile(
    join(verification, "receipt.json"),
    JSON.stringify({
      format: "openeval.verification-receipt",
      version: 1,
      result: {
        id: `ver_${hex(n)}`,
        state: "completed",
        exitCode: 0,
        commands: [{ argv: ["bun", "/verification/check-page.mjs", "counter.html", "shot.png"], exitCode: 0, elapsedMs: 1_234 }],
        stdout: '{"loaded":true}\n',
        stderr: "",
        logsTruncated: false,
        artifacts: [{ path: "shot.png", bytes: PNG_PIXEL.length, sha256: "0".repeat(64) }],
        missingArtifacts: [],
        refusedArtifacts: [],
      },
      imageId: `sha256:${"a".repeat(64)}`,
      request: { revision: "final", timeoutMs: 90_000, commands: [["bun", "/verification/check-page.mjs", "counter.html", "shot.png"]], artifacts: ["shot.png"] },
      limits: { cpus: 1, memoryMiB: 1024, pids: 256, logBytes: 1_000_000, artifactBytes: 10_000_000, tmpMiB: 256 },
      startedAt: "2026-11-29T12:00:00.000Z",
      elapsedMs: 2_000,
    }),
  );
}

function hex(n: number): string {
  return n.toString(16).padStart(8, "0");
}
