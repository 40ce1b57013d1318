import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { DEFAULT_ENVIRONMENT_BUILD_TIMEOUT_MS } from "./environment.ts";
import { loadBenchmark } from "./load-benchmark.ts";
import { loadProblems } from "./fixtures/load-problems.ts";

const EVAL = "evals/answer";

async function problemsOf(files: Record<string, string>): Promise<string[]> {
  return loadProblems(await writeTree(minimalBenchmark(files)));
}

describe("an eval's environment/", () => {
  it("is loaded as the eval's environment, a candidate input rather than judge-only material", async () => {
    const directory = await writeTree(
      minimalBenchmark({
        [`${EVAL}/environment/Dockerfile`]: "FROM debian:bookworm-slim\nWORKDIR /app\n",
        [`${EVAL}/environment/requirements.txt`]: "pytest\n",
        [`${EVAL}/REFERENCE.md`]: "the answer\n",
      }),
    );
    const [evaluation] = (await loadBenchmark(directory)).evals;
    expect(evaluation!.environment).toEqual({
      directory: join(directory, EVAL, "environment"),
      buildTimeoutMs: DEFAULT_ENVIRONMENT_BUILD_TIMEOUT_MS,
      limits: {},
    });
    expect(evaluation!.judgeFiles.map((file) => file.path)).toEqual(["REFERENCE.md"]);
  });

  it("is null without the folder", async () => {
    const [evaluation] = (await loadBenchmark(await writeTree(minimalBenchmark({})))).evals;
    expect(evaluation!.environment).toBeNull();
  });

  it("needs a Dockerfile and refuses compose environments, saying what to do", async () => {
    expect(await problemsOf({ [`${EVAL}/environment/setup.sh`]: "true\n" })).toEqual([
      `${EVAL}/environment: has no Dockerfile; the eval's candidates run in the image built from environment/Dockerfile`,
    ]);
    expect(
      await problemsOf({
        [`${EVAL}/environment/Dockerfile`]: "FROM debian\n",
        [`${EVAL}/environment/docker-compose.yaml`]: "services: {}\n",
      }),
    ).toEqual([
      `${EVAL}/environment: holds docker-compose.yaml: multi-container (compose) environments are not supported; build one image from environment/Dockerfile`,
    ]);
  });

  it("refuses a workspace or prepare steps beside it: the candidate starts from the image", async () => {
    const problems = await problemsOf({
      [`${EVAL}/environment/Dockerfile`]: "FROM debian\n",
      [`${EVAL}/workspace/a.txt`]: "a\n",
      [`${EVAL}/eval.ts`]: `export default { prepare: [{ argv: ["true"] }] };\n`,
    });
    expect(problems).toEqual([
      `${EVAL}/workspace: the candidate starts from environment/'s image, so bake it into environment/Dockerfile (COPY the files, RUN the steps) under its WORKDIR`,
      `${EVAL}/eval.ts: prepare: the candidate starts from environment/'s image; bake it into environment/Dockerfile (COPY the files, RUN the steps) under its WORKDIR`,
    ]);
  });

  it("gives the eval the built-in nop control, and the oracle when it has solution/solve.sh", async () => {
    const load = async (files: Record<string, string>) =>
      (await loadBenchmark(await writeTree(minimalBenchmark(files)))).evals[0]!.controls;
    const dockerfile = { [`${EVAL}/environment/Dockerfile`]: "FROM debian\nWORKDIR /app\n" };
    expect(Object.keys(await load(dockerfile))).toEqual(["nop"]);
    const withSolution = await load({ ...dockerfile, [`${EVAL}/solution/solve.sh`]: "echo solved > answer.txt\n" });
    expect(withSolution.oracle?.turns[0]?.tools?.[0]).toMatchObject({
      name: "bash",
      input: { command: "bash /solution/solve.sh" },
    });
    expect(withSolution.nop?.turns).toEqual([
      { text: "Nothing done: the nop control leaves the workspace as it found it." },
    ]);
    // An eval without an environment has neither: its controls are its control files.
    expect(await load({ [`${EVAL}/solution/solve.sh`]: "true\n" })).toEqual({});
  });

  it("refuses a variant's workspace files, which an environment's workspace has no place for", async () => {
    const problems = await problemsOf({
      "benchmark.ts": `export default { models: ["provider/model"], variants: { notes: { files: { "workspace/NOTES.md": "x" } } } };\n`,
      [`${EVAL}/environment/Dockerfile`]: "FROM debian\n",
    });
    expect(problems).toEqual([
      "benchmark.ts: variants.notes.files: workspace/NOTES.md cannot be laid in answer, whose workspace is its environment image's working directory; put the file in the environment's Dockerfile, or use the variant's instructions or config/ files",
    ]);
  });
});
