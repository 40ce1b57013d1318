import { afterEach, describe, expect, it, vi } from "vitest";
import { minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "../load/index.ts";

const withScorers = `import { exactMatch } from "openeval/scorers";\nexport default (ctx) => ({ scores: { correct: exactMatch(ctx.response.text, "APPLE") } });\n`;

/** judgeFingerprint as a given SCORERS_VERSION would compute it, for an eval whose judge.ts is `judge`. */
async function fingerprintWith(scorersVersion: string, judge: string): Promise<string> {
  vi.resetModules();
  vi.doMock("../util/versions.ts", async (importOriginal) => ({ ...(await importOriginal<object>()), SCORERS_VERSION: scorersVersion }));
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
