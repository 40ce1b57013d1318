import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, writeTree } from "../../../../test/helpers/fixtures.ts";
import { bundleCodeJudge } from "../load/index.ts";
import { recordEvidence } from "../recording/index.ts";
import { bundleProgram } from "./bundle-program.ts";
import { CODE_JUDGE_FILES, runCodeJudge } from "./run-code-judge.ts";

const SECRET = "judge-visible-secret-0123456789";

describe("runCodeJudge", () => {
  it("redacts what the judge prints and returns: it runs with the runner's environment", async () => {
    const evidence = await recordEvidence({
      directory: join(await makeTempDir(), "evidence"),
      prompt: "p",
      response: "r",
    });
    const folder = await writeTree({
      "judge.ts": `export default () => { console.log("out ${SECRET}"); console.error("err ${SECRET}"); return { scores: { ok: true }, seen: "${SECRET}" }; };\n`,
    });
    const directory = join(await makeTempDir(), "code");
    const execution = await runCodeJudge({
      bundle: await bundleCodeJudge(join(folder, "judge.ts"), folder),
      evalDirectory: folder,
      evidence,
      run: null,
      timeoutMs: 30_000,
      directory,
      secrets: [SECRET],
    });
    expect(execution.state).toBe("completed");
    expect(execution.output).toEqual({ scores: { ok: true }, seen: "[REDACTED]" });
    for (const file of [CODE_JUDGE_FILES.stdout, CODE_JUDGE_FILES.stderr, CODE_JUDGE_FILES.output]) {
      const text = await readFile(join(directory, file), "utf8");
      expect(text, file).not.toContain(SECRET);
    }
    expect(await readFile(join(directory, CODE_JUDGE_FILES.stdout), "utf8")).toContain("out [REDACTED]");
  });
});

describe('bundleProgram("code-worker")', () => {
  it("bundles the worker with the harness code it runs, so a patched harness file cannot change a grade", async () => {
    const worker = await bundleProgram("code-worker", join(await makeTempDir(), "harness"));
    const source = readFileSync(worker, "utf8");
    // Self-contained: no import of the harness's own files is left to resolve at grading time.
    expect(source).not.toMatch(/from\s*["']\.{1,2}\//);
    const evidence = await recordEvidence({
      directory: join(await makeTempDir(), "evidence"),
      prompt: "p",
      response: "APPLE",
    });
    const folder = await writeTree({
      "judge.ts": `export default (ctx) => ({ scores: { correct: ctx.response.text === "APPLE" } });\n`,
    });
    const execution = await runCodeJudge({
      bundle: await bundleCodeJudge(join(folder, "judge.ts"), folder),
      evalDirectory: folder,
      evidence,
      run: null,
      timeoutMs: 30_000,
      directory: join(await makeTempDir(), "code"),
      worker,
    });
    expect(execution.scores).toEqual({ correct: { value: 1, source: "judge.ts" } });
  });

  it("leaves out what a grading need not load at start: zod schemas and Node's file-system modules", async () => {
    const worker = await bundleProgram("code-worker", join(await makeTempDir(), "harness"));
    const source = readFileSync(worker, "utf8");
    expect(source).not.toContain("$ZodType");
    expect(source).not.toMatch(/require\("(?:node:)?(?:fs|fs\/promises|os)"\)/);
    // Loaded on first use instead: a judge that materializes the workspace still gets a copy on disk.
    expect(source).toContain('getBuiltinModule("node:fs/promises")');
    const evidence = await recordEvidence({
      directory: join(await makeTempDir(), "evidence"),
      prompt: "p",
      response: "r",
      workspace: { initial: {}, final: { "notes.txt": "APPLE\n" } },
    });
    const folder = await writeTree({
      "judge.ts": `import { readFileSync } from "node:fs";\nexport default async (ctx) => ({ scores: { copied: readFileSync((await ctx.workspace.materialize()) + "/notes.txt", "utf8") === "APPLE\\n" } });\n`,
    });
    const execution = await runCodeJudge({
      bundle: await bundleCodeJudge(join(folder, "judge.ts"), folder),
      evalDirectory: folder,
      evidence,
      run: null,
      timeoutMs: 30_000,
      directory: join(await makeTempDir(), "code"),
      worker,
    });
    expect(execution.error).toBeUndefined();
    expect(execution.scores).toEqual({ copied: { value: 1, source: "judge.ts" } });
  });
});
