// Keeps the example eval evals/fix-discount honest without running OpenCode: its controls' edits, applied to its
// workspace, score 1 (positive: the reference fix) and 0 (negative: the proximate fix in cart.js).
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspaceContext } from "./fixtures/context.ts";
import { referenceFix } from "./reference-fix.ts";

const EVAL = join(import.meta.dirname, "../../../../../evals/fix-discount");

async function workspace(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of await readdir(join(EVAL, "workspace")))
    files[name] = await readFile(join(EVAL, "workspace", name), "utf8");
  return files;
}

/** The control's `edit` calls applied as OpenCode applies them: one exact, unique replacement each. */
async function applyControl(name: string, initial: Record<string, string>): Promise<Record<string, string>> {
  const control = JSON.parse(await readFile(join(EVAL, "controls", `${name}.json`), "utf8")) as {
    turns: Array<{
      tools?: Array<{ name: string; input: { filePath: string; oldString: string; newString: string } }>;
    }>;
  };
  const final = { ...initial };
  for (const tool of control.turns.flatMap((turn) => turn.tools ?? []).filter((tool) => tool.name === "edit")) {
    const before = final[tool.input.filePath]!;
    expect(before.split(tool.input.oldString).length - 1, `${name}: ${tool.input.oldString}`).toBe(1);
    final[tool.input.filePath] = before.replace(tool.input.oldString, tool.input.newString);
  }
  return final;
}

describe("the fix-discount example eval", () => {
  it("scores its positive control 1 and its negative (proximate) control 0", async () => {
    const initial = await workspace();
    const reference = { reference: join(EVAL, "REFERENCE_FIX.md") };
    await using positive = await workspaceContext(initial, await applyControl("positive", initial));
    expect(await referenceFix(positive, reference)).toMatchObject({
      value: 1,
      matched_files: ["rates.js", "receipt.js"],
      missing_files: [],
      extra_files: [],
    });
    await using negative = await workspaceContext(initial, await applyControl("negative", initial));
    expect(await referenceFix(negative, reference)).toMatchObject({
      value: 0,
      matched_files: [],
      missing_files: ["rates.js", "receipt.js"],
      extra_files: ["cart.js"],
    });
  });
});
