// The example verification eval (examples/verification/evals/verify-page) graded offline with its controls, as an
// author calibrates it: each control's written files become a constructed recording, and judgeEvidence() grades it
// with judge.ts in its own process and ctx.verification bound to the real image (the pinned one by default).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { recordEvidence } from "../../recording/index.ts";
import { judgeEvidence } from "../judge-evidence.ts";
import { engineReachable, engineSuite, makeTempDirectory, verificationImage } from "./fixtures/engine.ts";

const EVAL_DIRECTORY = join(
  import.meta.dirname,
  "..",
  "..",
  "..",
  "..",
  "..",
  "examples",
  "verification",
  "evals",
  "verify-page",
);

beforeAll(async () => {
  if (engineReachable) await verificationImage();
});

interface ControlFile {
  turns: { text?: string; tools?: { name: string; input: { filePath?: string; content?: string } }[] }[];
}

/** Plays a control's `write` calls onto an empty workspace (what OpenCode would do) and grades the result. */
async function gradeControl(name: string) {
  const control = JSON.parse(await readFile(join(EVAL_DIRECTORY, "controls", `${name}.json`), "utf8")) as ControlFile;
  const final: Record<string, string> = {};
  const tools = control.turns.flatMap((turn) => turn.tools ?? []);
  for (const tool of tools) if (tool.name === "write") final[tool.input.filePath!] = tool.input.content!;
  const directory = await makeTempDirectory(`openeval-verify-page-${name}-`);
  const evidence = await recordEvidence({
    directory: join(directory, "evidence"),
    prompt: await readFile(join(EVAL_DIRECTORY, "prompt.md"), "utf8"),
    response: control.turns.at(-1)?.text ?? "",
    tools: tools.map((tool) => ({ name: tool.name, input: tool.input, output: "Wrote file successfully." })),
    workspace: { initial: {}, final },
  });
  const audit = join(directory, "audit");
  const result = await judgeEvidence({ evidence, code: join(EVAL_DIRECTORY, "judge.ts"), directory: audit });
  expect(result.state, result.error).toBe("completed");
  return { result, output: result.output as { verification: { id: string }; report: unknown }, audit };
}

describe.skipIf(!engineReachable)(engineSuite("examples/verification verify-page with its controls"), () => {
  it("scores the positive control 1 on every criterion, and returns the receipt with the screenshot kept beside it", async () => {
    const { result, output, audit } = await gradeControl("positive");
    expect(output.report).toMatchObject({ loaded: true, initial: "0", afterClicks: "3", errors: [] });
    expect(Object.fromEntries(Object.entries(result.scores).map(([id, score]) => [id, score.value]))).toEqual({
      renders: 1,
      counts_clicks: 1,
      screenshot: 1,
    });
    expect(result.value).toBe(1);
    expect(result.verification.map((receipt) => receipt.id)).toEqual([output.verification.id]);
    expect(result.verification[0]!.result.artifacts).toEqual([
      { path: "shot.png", bytes: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    const kept = JSON.parse(
      await readFile(join(audit, "verification", output.verification.id, "receipt.json"), "utf8"),
    );
    expect(kept.imageId).toBe((await verificationImage()).imageId);
  });

  it("scores the negative control (a button that never updates the page) below 1", async () => {
    const { result, output } = await gradeControl("negative");
    expect(output.report).toMatchObject({ loaded: true, initial: "0", afterClicks: "0" });
    expect(result.scores.counts_clicks!.value).toBe(0);
    expect(result.value).toBeLessThan(1);
    expect(result.verification).toHaveLength(1);
  });
});
