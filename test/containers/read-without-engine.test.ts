// A finished run made in containers is read from its records alone: with DOCKER_HOST naming a socket that does not
// exist, `report`, `report --compare`, `baseline set`, `verify`, `snapshot` and the viewer's leaderboard give the
// same numbers as with the engine up — the image ids its fingerprints need are the ones its runner recorded.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCandidateImage } from "../../packages/openeval/src/candidate/index.ts";
import { readRuntimeIdentity, ResultsStore } from "../../packages/openeval/src/records/index.ts";
import { isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import { BIN, runCli, type CliResult } from "../helpers/cli.ts";
import { makeTempDir, writeTree } from "../helpers/fixtures.ts";

const reachable = await isEngineReachable();
let directory: string;
let runDirectory: string;
let run: CliResult;

beforeAll(async () => {
  if (!reachable) return;
  await buildCandidateImage();
  directory = await writeTree({
    "benchmark.ts":
      'export default { models: ["control/done"], repetitions: 1, candidate: { timeoutMs: 180_000, isolation: "container" } };\n',
    "evals/answer/prompt.md": "Say done.\n",
    // Mentions ctx.verification, so the verification image id enters its judge fingerprint; it runs no check.
    "evals/answer/judge.ts":
      'export default async ({ verification, response }) => ({ scores: { done: response.text.includes("done"), offered: verification !== undefined } });\n',
    "evals/answer/controls/done.json": JSON.stringify({ turns: [{ text: "done" }] }),
  });
  run = await runCli(["run", "--benchmark", directory], { timeoutMs: 600_000 });
  runDirectory = join(directory, "results", readdirSync(join(directory, "results"))[0]!);
}, 900_000);

/** Everything a reader gives for the run, with the engine as `env` has it; times and paths that differ by design left out. */
async function readEverything(label: string, env: Record<string, string>) {
  // Each command's exit code is compared too (a run of controls alone has no verdict over real models).
  const exitCodes: Record<string, number> = {};
  const cli = async (args: string[]) => {
    const result = await runCli([...args, "--benchmark", directory], { env });
    expect(result.stderr, args.join(" ")).not.toMatch(/error/i);
    exitCodes[args[0]! + (args[1] === "--compare" ? " --compare" : "")] = result.exitCode;
    return result.stdout;
  };
  // The benchmark folder as the runner left it: the viewer serves the summary the runner recorded.
  rmSync(join(directory, "baseline.json"), { force: true });
  const recordedLeaderboard = await viewerOverview(env);
  const report = JSON.parse(await cli(["report", "--json"])) as Record<string, unknown>;
  await cli(["baseline", "set", runDirectory]);
  const { createdAt: _createdAt, ...baseline } = JSON.parse(
    readFileSync(join(directory, "baseline.json"), "utf8"),
  ) as Record<string, unknown>;
  const compared = JSON.parse(await cli(["report", "--compare", "baseline", runDirectory, "--json"])) as {
    a: { createdAt?: string };
  };
  delete compared.a.createdAt; // the baseline's, set just now
  const verified = JSON.parse(await cli(["verify", runDirectory, "--json"])) as Record<string, unknown>;
  await cli(["snapshot", runDirectory, label]);
  const snapshot = JSON.parse(
    readFileSync(join(runDirectory, "maintenance", "snapshots", `${label}.json`), "utf8"),
  ) as { payload: { scores: unknown; slots: unknown } };
  // baseline.json changed the folder's stamp: the viewer makes the summary itself now, as readResults does.
  const computedLeaderboard = await viewerOverview(env);
  return {
    exitCodes,
    recordedLeaderboard,
    report,
    baseline,
    compared,
    verified,
    snapshot: { scores: snapshot.payload.scores, slots: snapshot.payload.slots },
    computedLeaderboard,
  };
}

/**
 * The viewer's first leaderboard (`/api/runs/<id>`), from `openeval view` started with `env` and stopped again, and
 * whether it was the summary the runner recorded.
 */
async function viewerOverview(env: Record<string, string>): Promise<{ overview: unknown; recorded: boolean }> {
  const viewer = Bun.spawn(["node", BIN, "view", "--benchmark", directory, "--port", "0"], {
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  try {
    const reader = viewer.stdout.getReader();
    let output = "";
    while (!output.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`openeval view ended: ${await new Response(viewer.stderr).text()}`);
      output += new TextDecoder().decode(value);
    }
    const [, url, runId] = /openeval viewer: (\S+?)#\/runs\/(\S+)/.exec(output)!;
    const answer = await fetch(`${url}api/runs/${runId}`);
    expect(answer.status).toBe(200);
    const { summaryRecordedAt, ...overview } = (await answer.json()) as Record<string, unknown>;
    return { overview, recorded: summaryRecordedAt !== null };
  } finally {
    viewer.kill("SIGTERM");
    await viewer.exited;
  }
}

describe.skipIf(!reachable)("a finished container run read with no engine answering", () => {
  it("recorded the candidate and verification image ids its runner planned with", () => {
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    const store = ResultsStore.open(runDirectory, { readonly: true });
    try {
      expect(store.evalRuns().map((evalRun) => evalRun.input.isolation)).toEqual(["container"]);
      expect(readRuntimeIdentity(store)).toEqual({
        candidateImage: expect.stringMatching(/^sha256:/),
        verificationImage: expect.stringMatching(/^sha256:/),
      });
    } finally {
      store.close();
    }
  });

  it("gives the same report, comparison, baseline, verification, snapshot and leaderboard as with the engine up", async () => {
    const up = await readEverything("engine-up", {});
    expect(up.report).toMatchObject({ complete: true, open: [], warnings: [] });
    expect([up.recordedLeaderboard.recorded, up.computedLeaderboard.recorded]).toEqual([true, false]);
    expect(up.verified).toMatchObject({ problems: [] });
    const down = await readEverything("engine-down", {
      DOCKER_HOST: `unix://${join(await makeTempDir(), "no-engine.sock")}`,
    });
    expect(down).toEqual(up);
  }, 600_000);
});
