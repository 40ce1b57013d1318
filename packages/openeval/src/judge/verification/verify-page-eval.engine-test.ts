// The example verification eval (examples/verification/evals/verify-page) graded offline with its controls: each control's written
// files become a constructed recording, and judge.ts runs with ctx.verification bound to the real image.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createJudgeContext, openEvidence, recordEvidence, type JudgeContext } from "../../recording/index.ts";
import { criterionMean, normalizeJudgeOutput } from "../normalize.ts";
import { createVerificationApi, DEFAULT_VERIFICATION_LIMITS } from "./verification-api.ts";
import { engineReachable, engineSuite, makeTempDirectory, verificationImage } from "./verification-fixtures.ts";

const EVAL_DIRECTORY = join(import.meta.dirname, "..", "..", "..", "..", "..", "examples", "verification", "evals", "verify-page");
let imageId: string;

beforeAll(async () => {
  if (engineReachable) imageId = (await verificationImage()).imageId;
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
  const ref = await recordEvidence({
    directory: join(directory, "evidence"),
    prompt: await readFile(join(EVAL_DIRECTORY, "prompt.md"), "utf8"),
    response: control.turns.at(-1)?.text ?? "",
    tools: tools.map((tool) => ({ name: tool.name, input: tool.input, output: "Wrote file successfully." })),
    workspace: { initial: {}, final },
  });
  const evidence = await openEvidence(ref.directory, ref.hash);
  await using context = await createJudgeContext(evidence, null);
  const verification = createVerificationApi({ image: imageId, evidence, limits: DEFAULT_VERIFICATION_LIMITS, judgeRun: `jr_verify_page_${name}`, directory: join(directory, "verification") });
  const judge = (await import(join(EVAL_DIRECTORY, "judge.ts"))).default as (ctx: JudgeContext) => Promise<unknown>;
  // The judge worker runs judge.ts with the eval folder as its working directory.
  const cwd = process.cwd();
  process.chdir(EVAL_DIRECTORY);
  try {
    const output = await judge({ ...context, verification } as JudgeContext);
    const normalized = normalizeJudgeOutput(output, "judge.ts", ["renders", "counts_clicks", "screenshot"]);
    if (normalized.kind !== "scored") throw new Error("judge.ts returned no scores");
    return { output: output as { verification: { id: string }; report: unknown }, scores: normalized.scores, credit: criterionMean(normalized.scores), directory };
  } finally {
    process.chdir(cwd);
  }
}

describe.skipIf(!engineReachable)(engineSuite("examples/verification verify-page with its controls"), () => {
  it("scores the positive control 1 on every criterion, with the screenshot kept beside the receipt", async () => {
    const graded = await gradeControl("positive");
    expect(graded.output.report).toMatchObject({ loaded: true, initial: "0", afterClicks: "3", errors: [] });
    expect(Object.fromEntries(Object.entries(graded.scores).map(([id, score]) => [id, score.value]))).toEqual({ renders: 1, counts_clicks: 1, screenshot: 1 });
    expect(graded.credit).toBe(1);
    const receipt = JSON.parse(await readFile(join(graded.directory, "verification", graded.output.verification.id, "receipt.json"), "utf8"));
    expect(receipt.result.artifacts).toEqual([{ path: "shot.png", bytes: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
  });

  it("scores the negative control (a button that never updates the page) below 1", async () => {
    const graded = await gradeControl("negative");
    expect(graded.output.report).toMatchObject({ loaded: true, initial: "0", afterClicks: "0" });
    expect(graded.scores.counts_clicks!.value).toBe(0);
    expect(graded.credit).toBeLessThan(1);
  });
});
