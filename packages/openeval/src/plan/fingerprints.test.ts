import { afterEach, describe, expect, it, vi } from "vitest";
import { minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "../load/index.ts";
import { candidateFingerprint, judgeFingerprint, judgmentFingerprint } from "./fingerprints.ts";

const withScorers = `import { exactMatch } from "openeval/scorers";\nexport default (ctx) => ({ scores: { correct: exactMatch(ctx.response.text, "APPLE") } });\n`;

/** judgeFingerprint as a given SCORERS_VERSION would compute it, for an eval whose judge.ts is `judge`. */
async function fingerprintWith(scorersVersion: string, judge: string): Promise<string> {
  vi.resetModules();
  vi.doMock("../util/versions.ts", async (importOriginal) => ({
    ...(await importOriginal<object>()),
    SCORERS_VERSION: scorersVersion,
  }));
  const { judgeFingerprint } = await import("./fingerprints.ts");
  const benchmark = await loadBenchmark(await writeTree(minimalBenchmark({ "evals/answer/judge.ts": judge })));
  return judgeFingerprint(benchmark.evals[0]!, benchmark.settings);
}

afterEach(() => {
  vi.doUnmock("../util/versions.ts");
  vi.resetModules();
});

describe("judgeFingerprint", () => {
  it("changes with the built-in scorers' version only for judges that import openeval/scorers", async () => {
    expect(await fingerprintWith("1.0.0", withScorers)).not.toBe(await fingerprintWith("2.0.0", withScorers));
    const plain = minimalBenchmark()["evals/answer/judge.ts"] as string;
    expect(await fingerprintWith("1.0.0", plain)).toBe(await fingerprintWith("2.0.0", plain));
  });
});

describe("judge panels", () => {
  async function benchmarkJudgedBy(judge: string) {
    return loadBenchmark(
      await writeTree(
        minimalBenchmark({
          "benchmark.ts": `export default { models: ["p/a"], judge: ${judge} };\n`,
          "evals/answer/judge.md": "## Criterion: clear — Clear\nThe answer is clear.\n",
        }),
      ),
    );
  }

  it("adding a judge changes the slot's judge fingerprint, not the judgment fingerprint of the judges it had", async () => {
    const one = await benchmarkJudgedBy(`{ model: "a/judge" }`);
    const two = await benchmarkJudgedBy(`{ model: "a/judge", models: ["b/judge"] }`);
    const sameOne = await benchmarkJudgedBy(`{ models: ["a/judge"] }`);
    const [evaluation] = one.evals;
    expect(judgeFingerprint(two.evals[0]!, two.settings)).not.toBe(judgeFingerprint(evaluation!, one.settings));
    // One model in judge.models is judge.model: recorded judgments stay reusable.
    expect(judgeFingerprint(sameOne.evals[0]!, sameOne.settings)).toBe(judgeFingerprint(evaluation!, one.settings));
    expect(judgmentFingerprint(two.evals[0]!, two.settings, "a/judge")).toBe(
      judgmentFingerprint(evaluation!, one.settings, "a/judge"),
    );
    expect(judgmentFingerprint(evaluation!, one.settings, "b/judge")).not.toBe(
      judgmentFingerprint(evaluation!, one.settings, "a/judge"),
    );
  });

  it("the combine rule changes a panel's fingerprint", async () => {
    const mean = await benchmarkJudgedBy(`{ models: ["a/judge", "b/judge"] }`);
    const min = await benchmarkJudgedBy(`{ models: ["a/judge", "b/judge"], combine: "min" }`);
    expect(judgeFingerprint(mean.evals[0]!, mean.settings)).not.toBe(judgeFingerprint(min.evals[0]!, min.settings));
  });
});

describe("candidateFingerprint", () => {
  async function fingerprintOf(evalTs: string | null): Promise<string> {
    const benchmark = await loadBenchmark(
      await writeTree(minimalBenchmark(evalTs === null ? {} : { "evals/answer/eval.ts": evalTs })),
    );
    return candidateFingerprint(benchmark.evals[0]!, "provider/model", benchmark.settings);
  }

  it("holds the prepare steps (their output is the starting state), and no steps hash as before prepare existed", async () => {
    const none = await fingerprintOf(null);
    expect(await fingerprintOf("export default { prepare: [] };\n")).toBe(none);
    const install = await fingerprintOf('export default { prepare: [{ argv: ["npm", "install"] }] };\n');
    expect(install).not.toBe(none);
    expect(await fingerprintOf('export default { prepare: [{ cwd: "./", argv: ["npm", "install"] }] };\n')).toBe(
      install,
    );
    expect(await fingerprintOf('export default { prepare: [{ cwd: "app", argv: ["npm", "install"] }] };\n')).not.toBe(
      install,
    );
    expect(await fingerprintOf('export default { prepare: [{ argv: ["npm", "ci"] }] };\n')).not.toBe(install);
  });

  it("holds a repository workspace's commit, layout and overlay tree, not where the repository is", async () => {
    const repository = (location: string, commit: string, overlay = "") =>
      `export default { workspace: { repository: "${location}", commit: "${commit}", ref: "main"${overlay} } };\n`;
    const base = await fingerprintOf(repository("/src/a", "a".repeat(40)));
    expect(await fingerprintOf(repository("/elsewhere/a", "a".repeat(40)))).toBe(base);
    expect(await fingerprintOf(repository("/src/a", "b".repeat(40)))).not.toBe(base);
    expect(
      await fingerprintOf(repository("/src/a", "a".repeat(40)).replace('ref: "main"', 'ref: "main", checkout: "repo"')),
    ).not.toBe(base);
    const overlaid = async (text: string) => {
      const benchmark = await loadBenchmark(
        await writeTree(
          minimalBenchmark({
            "evals/answer/eval.ts": repository("/src/a", "a".repeat(40), ', overlay: "extra"'),
            "evals/answer/extra/NOTES.md": text,
          }),
        ),
      );
      return candidateFingerprint(benchmark.evals[0]!, "provider/model", benchmark.settings);
    };
    expect(await overlaid("one\n")).not.toBe(await overlaid("two\n"));
  });
});

describe("candidate limits", () => {
  async function fingerprintWith(candidate: string): Promise<string> {
    const benchmark = await loadBenchmark(
      await writeTree(
        minimalBenchmark({
          "benchmark.ts": `export default { models: ["provider/model"], repetitions: 1, candidate: ${candidate} };\n`,
        }),
      ),
    );
    return candidateFingerprint(benchmark.evals[0]!, "provider/model", benchmark.settings);
  }

  it("maxTokens and maxSteps cut a session short: each value is its own candidate; unset hashes as before them", async () => {
    const unlimited = await fingerprintWith("{}");
    const fingerprints = await Promise.all(
      ["{ maxTokens: 1000 }", "{ maxTokens: 2000 }", "{ maxSteps: 10 }", "{ maxSteps: 20 }"].map(fingerprintWith),
    );
    expect(new Set([unlimited, ...fingerprints]).size).toBe(5);
    // The two limits are different keys: the same number as either is not the same candidate.
    expect(await fingerprintWith("{ maxTokens: 10 }")).not.toBe(fingerprints[2]);
    expect(await fingerprintWith("{ maxSteps: 10, maxTokens: 1000 }")).not.toBe(fingerprints[0]);
  });
});

describe("an eval without cases", () => {
  it("keeps the fingerprints it had before evals could have cases, so its recorded work stays reusable", async () => {
    const benchmark = await loadBenchmark(
      await writeTree({
        "benchmark.ts": `export default { models: ["provider/model"], repetitions: 1, judge: { model: "a/judge" } };\n`,
        "evals/answer/prompt.md": "Reply with exactly APPLE.\n",
        "evals/answer/judge.ts": `export default ({ response }) => ({ scores: { correct: response.text === "APPLE" } });\n`,
        "evals/answer/judge.md": "## Criterion: clear — Clear\nThe answer is clear.\n",
        "evals/answer/workspace/a.txt": "a\n",
      }),
    );
    const [evaluation] = benchmark.evals;
    // Computed by the harness before cases existed; a version in util/versions.ts that moves changes them on purpose.
    expect(candidateFingerprint(evaluation!, "p/m", benchmark.settings)).toBe(
      "55be9b07c76180898180d880ac20119b47a79fc2580ebdaafa0a6d33f298e20a",
    );
    expect(judgeFingerprint(evaluation!, benchmark.settings)).toBe(
      "88bd0ad02c47255ce47a8cd547406ec3c1621d9be465e5a8c4eb57240c115571",
    );
  });
});
