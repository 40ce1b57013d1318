import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, writeTree } from "../../../../test/helpers/fixtures.ts";
import { bundleCodeJudge } from "../load/index.ts";
import { recordEvidence } from "../recording/index.ts";
import { CODE_JUDGE_FILES, runCodeJudge } from "./run-code-judge.ts";

const SECRET = "judge-visible-secret-0123456789";

describe("runCodeJudge", () => {
  it("redacts what the judge prints and returns: it runs with the runner's environment (issue 14)", async () => {
    const evidence = await recordEvidence({ directory: join(await makeTempDir(), "evidence"), prompt: "p", response: "r" });
    const folder = await writeTree({
      "judge.ts": `export default () => { console.log("out ${SECRET}"); console.error("err ${SECRET}"); return { scores: { ok: true }, seen: "${SECRET}" }; };\n`,
    });
    const directory = join(await makeTempDir(), "code");
    const execution = await runCodeJudge({ bundle: await bundleCodeJudge(join(folder, "judge.ts")), evalDirectory: folder, evidence, run: null, timeoutMs: 30_000, directory, secrets: [SECRET] });
    expect(execution.state).toBe("completed");
    expect(execution.output).toEqual({ scores: { ok: true }, seen: "[REDACTED]" });
    for (const file of [CODE_JUDGE_FILES.stdout, CODE_JUDGE_FILES.stderr, CODE_JUDGE_FILES.output]) {
      const text = await readFile(join(directory, file), "utf8");
      expect(text, file).not.toContain(SECRET);
    }
    expect(await readFile(join(directory, CODE_JUDGE_FILES.stdout), "utf8")).toContain("out [REDACTED]");
  });
});
