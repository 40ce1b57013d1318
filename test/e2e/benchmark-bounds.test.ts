// Journeys: a careless user's benchmark reaches outside its folder, or holds a key, and the real `openeval` refuses it
// before any spend: links out of the benchmark are validation errors naming each entry, and inputs holding a secret the
// runner knows are never frozen into results/. The "home" here is a fake one in a temp folder, never the real one.
import { existsSync, readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { fakeHome, linkedOutside, minimalBenchmark, writeTree } from "../helpers/fixtures.ts";

const AUTH_KEY = "sk-planted-auth-key-0123456789";
const ENV_KEY = "sk-planted-env-key-0123456789";

/** Every file under `directory` (none when it does not exist), read as bytes. */
async function filesUnder(directory: string): Promise<string[]> {
  if (!existsSync(directory)) return [];
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), "latin1"));
}

function expectNoKey(texts: string[]): void {
  for (const key of [AUTH_KEY, ENV_KEY]) {
    for (const form of [key, Buffer.from(key).toString("base64")])
      expect(texts.some((text) => text.includes(form))).toBe(false);
  }
}

describe("a benchmark whose eval entries lead outside its folder", () => {
  it("validate and run exit 2 naming each linked entry and where it points, read nothing from it and create no results", async () => {
    const home = await fakeHome(AUTH_KEY);
    const env = { XDG_DATA_HOME: join(home, ".local", "share") };
    const directory = await writeTree(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1 };\n`,
        ...linkedOutside(home),
        "evals/answer/controls/positive.json": JSON.stringify({ turns: [{ text: "APPLE" }] }),
      }),
    );
    for (const command of ["validate", "run"]) {
      const result = await runCli([command, "--benchmark", directory], { env });
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toContain("The benchmark has 4 problems:");
      for (const [entry, target] of [
        ["evals/answer/workspace", home],
        ["evals/judge/judge.ts", join(home, "judge.ts")],
        ["evals/prompt/prompt.md", join(home, "notes.txt")],
        ["evals/reference/REFERENCE_FIX.md", join(home, "notes.txt")],
      ]) {
        expect(result.stderr).toContain(
          `  ${entry}: [OE_LINK_OUTSIDE_BENCHMARK] is a symlink to ${target}, outside the benchmark folder`,
        );
      }
      expect(result.stderr).toContain(
        "Copy what the eval needs into the benchmark folder, or point the link inside it",
      );
      expectNoKey([result.stdout, result.stderr]);
      expect(existsSync(join(directory, "results"))).toBe(false);
    }
  });
});

describe("a benchmark whose inputs hold a secret the runner knows", () => {
  it("run exits 2 naming each file and whose key it holds, before any candidate starts, and no key lands under results/", async () => {
    const home = await fakeHome(AUTH_KEY);
    const directory = await writeTree(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1 };\n`,
        "evals/answer/workspace/config.json": JSON.stringify({ apiKey: AUTH_KEY }),
        "evals/answer/workspace/.env": `SERVICE_TOKEN=${ENV_KEY}\n`,
        "evals/answer/workspace/src/app.js": "export const app = 1;\n",
        "evals/answer/controls/positive.json": JSON.stringify({ turns: [{ text: "APPLE" }] }),
      }),
    );
    const result = await runCli(["run", "--benchmark", directory], {
      env: { XDG_DATA_HOME: join(home, ".local", "share"), OPENEVAL_TEST_PLANTED_TOKEN: ENV_KEY },
    });
    expect(result.exitCode, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      "error OE_INPUT_HOLDS_SECRET: The benchmark's inputs hold secrets this runner knows, so no candidate was started and these files were not frozen into results/:\n" +
        "  evals/answer/workspace/.env: the value of env OPENEVAL_TEST_PLANTED_TOKEN\n" +
        "  evals/answer/workspace/config.json: the value of auth.json anthropic.key\n" +
        "A benchmark's files are handed to candidates and judges and kept with the run: remove the secret from each file, then run again",
    );
    expect(result.stderr).not.toContain("Unexpected error");
    const results = await filesUnder(join(directory, "results"));
    expect(results.length).toBeGreaterThan(0);
    expectNoKey([result.stdout, result.stderr, ...results]);
    // The clean inputs were frozen; the two holding a key were not.
    const names = (await readdir(join(directory, "results"), { recursive: true })).map(String);
    expect(names.some((name) => name.endsWith("inputs/objects"))).toBe(true);
  });
});
