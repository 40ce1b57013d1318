import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../../test/helpers/fixtures.ts";
import { normalizeJudgeOutput } from "../normalize.ts";
import { toStrictJson } from "../strict-json.ts";
import { ScorerError } from "./errors.ts";
import { workspaceContext } from "./fixtures/context.ts";
import { referenceFix } from "./reference-fix.ts";

/** REFERENCE_FIX.md as authors write it: prose around a ```diff block. */
function referenceMarkdown(diff: string): string {
  return `# Reference fix\n\nThe rate must be a fraction.\n\n\`\`\`diff\n${diff}\`\`\`\n\n- The tests pass after this.\n`;
}

const A_AND_B = [
  "diff --git a/a.py b/a.py",
  "--- a/a.py",
  "+++ b/a.py",
  "@@ -1 +1 @@",
  "-x = 0",
  "+x = 1",
  "diff --git a/b.py b/b.py",
  "--- a/b.py",
  "+++ b/b.py",
  "@@ -1 +1 @@",
  "-y = 0",
  "+y = 1",
  "",
].join("\n");

const INITIAL = { "a.py": "x = 0\n", "b.py": "y = 0\n", "c.py": "z = 0\n" };

describe("referenceFix", () => {
  it("scores a known pair by hand: reference a.py + b.py, candidate a.py + c.py", async () => {
    await using ctx = await workspaceContext(INITIAL, { ...INITIAL, "a.py": "x = 2\n", "c.py": "z = 1\n" });
    const score = await referenceFix(ctx, { referenceText: referenceMarkdown(A_AND_B) });
    // structural: matched {a.py} / union {a.py, b.py, c.py} = 1/3.
    // textual: "x = 1" vs "x = 2" share "x = " (4 characters): 2·4 / (5 + 5) = 0.8, the mean over one matched file.
    // value: 0.6 · 1/3 + 0.4 · 0.8 = 0.2 + 0.32 = 0.52.
    expect(score.structural).toBeCloseTo(1 / 3, 12);
    expect(score.textual).toBeCloseTo(0.8, 12);
    expect(score.value).toBeCloseTo(0.52, 12);
    expect(score).toMatchObject({ matched_files: ["a.py"], missing_files: ["b.py"], extra_files: ["c.py"] });
    expect(score.reason).toBe(
      "touched 1 of the reference's 2 files; missing b.py; extra c.py: structural 0.333; textual 0.8 (added lines, mean over 1 matched file); value 0.52",
    );
    expect(score.measurements.files).toEqual([
      { path: "a.py", similarity: 0.8, reference_chars: 5, candidate_chars: 5, truncated: false },
    ]);
  });

  it("averages textual over matched files and normalizes the weights by their sum", async () => {
    await using ctx = await workspaceContext(INITIAL, { ...INITIAL, "a.py": "x = 2\n", "b.py": "y = 1\n" });
    // a.py 0.8, b.py identical 1 → textual 0.9; structural 2/2 = 1.
    const score = await referenceFix(ctx, { referenceText: A_AND_B });
    expect([score.structural, score.textual, score.value]).toEqual([
      1,
      expect.closeTo(0.9, 12),
      expect.closeTo(0.6 + 0.4 * 0.9, 12),
    ]);
    const even = await referenceFix(ctx, { referenceText: A_AND_B, weights: { structural: 1, textual: 1 } });
    expect(even.value).toBeCloseTo((1 + 0.9) / 2, 12);
    const textualOnly = await referenceFix(ctx, { referenceText: A_AND_B, weights: { structural: 0, textual: 3 } });
    expect(textualOnly.value).toBeCloseTo(0.9, 12);
  });

  it("gives exactly 1 when the candidate makes the reference change", async () => {
    await using ctx = await workspaceContext(INITIAL, { ...INITIAL, "a.py": "x = 1\n", "b.py": "y = 1\n" });
    const score = await referenceFix(ctx, { referenceText: referenceMarkdown(A_AND_B) });
    expect(score).toMatchObject({
      value: 1,
      structural: 1,
      textual: 1,
      matched_files: ["a.py", "b.py"],
      missing_files: [],
      extra_files: [],
    });
  });

  it("gives structural 0 (and value 0) to a fix in other files, and to no change at all", async () => {
    await using elsewhere = await workspaceContext(INITIAL, { ...INITIAL, "c.py": "x = 1\ny = 1\n" });
    expect(await referenceFix(elsewhere, { referenceText: A_AND_B })).toMatchObject({
      value: 0,
      structural: 0,
      textual: 0,
      matched_files: [],
      missing_files: ["a.py", "b.py"],
      extra_files: ["c.py"],
    });
    await using untouched = await workspaceContext(INITIAL, INITIAL);
    const score = await referenceFix(untouched, { referenceText: A_AND_B });
    expect(score).toMatchObject({
      value: 0,
      structural: 0,
      textual: 0,
      missing_files: ["a.py", "b.py"],
      extra_files: [],
    });
    expect(score.reason).toContain("textual 0 (no file in common)");
  });

  it("limitation (seed): an equivalent rewrite of the fix scores low on textual similarity", async () => {
    const initial = { "pricing.js": "export function discounted(price, pct) {\n  return price * pct;\n}\n" };
    const reference = [
      "--- a/pricing.js",
      "+++ b/pricing.js",
      "@@ -1,3 +1,3 @@",
      " export function discounted(price, pct) {",
      "-  return price * pct;",
      "+  return price * (1 - pct);",
      " }",
      "",
    ].join("\n");
    const rewrite =
      "export function discounted(price, pct) {\n  const discount = price * pct;\n  return price - discount;\n}\n";
    // The two fixes behave the same…
    const body = (source: string) =>
      new Function("price", "pct", source.split("\n").slice(1, -2).join("\n")) as (
        price: number,
        pct: number,
      ) => number;
    for (const [price, pct] of [
      [100, 0.1],
      [80, 0.25],
      [19.99, 0],
    ]) {
      expect(body(rewrite)(price!, pct!)).toBeCloseTo(body("x\n  return price * (1 - pct);\n}\n")(price!, pct!), 12);
    }
    // …but "  return price * (1 - pct);" and the two rewritten lines share only 24 characters: 2·24 / (27 + 75) ≈ 0.47.
    await using ctx = await workspaceContext(initial, { "pricing.js": rewrite });
    const score = await referenceFix(ctx, { referenceText: reference });
    expect(score.structural).toBe(1);
    expect(score.textual).toBeCloseTo(48 / 102, 12);
    expect(score.value).toBeCloseTo(0.6 + 0.4 * (48 / 102), 12);
  });

  it("limitation (seed): order-sensitive within a file, with all hunks of a file compared as one text", async () => {
    const initial = { "m.js": "start();\nmiddle();\nend();\n" };
    const reference = [
      "--- a/m.js",
      "+++ b/m.js",
      "@@ -1,2 +1,3 @@",
      " start();",
      "+alpha();",
      " middle();",
      "@@ -3 +4,2 @@",
      " end();",
      "+beta();",
      "",
    ].join("\n");
    await using same = await workspaceContext(initial, { "m.js": "start();\nalpha();\nmiddle();\nend();\nbeta();\n" });
    expect((await referenceFix(same, { referenceText: reference })).textual).toBe(1);
    // The same two lines in swapped places: "alpha();\nbeta();" vs "beta();\nalpha();" has an LCS of 9 of 16 + 16.
    await using swapped = await workspaceContext(initial, {
      "m.js": "start();\nbeta();\nmiddle();\nend();\nalpha();\n",
    });
    expect((await referenceFix(swapped, { referenceText: reference })).textual).toBeCloseTo(18 / 32, 12);
  });

  it("leaves out ignored paths on both sides (byproducts such as __pycache__)", async () => {
    await using ctx = await workspaceContext(INITIAL, {
      ...INITIAL,
      "a.py": "x = 1\n",
      "b.py": "y = 1\n",
      "__pycache__/a.cpython-312.pyc": "bytecode",
    });
    expect((await referenceFix(ctx, { referenceText: A_AND_B })).extra_files).toEqual([
      "__pycache__/a.cpython-312.pyc",
    ]);
    expect(await referenceFix(ctx, { referenceText: A_AND_B, ignore: ["**/__pycache__/**"] })).toMatchObject({
      value: 1,
      extra_files: [],
    });
  });

  it("returns a valid score: normalization keeps value, reason and measurements, and it is strict JSON", async () => {
    await using ctx = await workspaceContext(INITIAL, { ...INITIAL, "a.py": "x = 2\n", "c.py": "z = 1\n" });
    const score = await referenceFix(ctx, { referenceText: A_AND_B });
    const output = { scores: { reference_fix: score } };
    expect(() => toStrictJson(output)).not.toThrow();
    const normalized = normalizeJudgeOutput(output, "judge.ts");
    expect(normalized.kind === "scored" && normalized.scores.reference_fix).toMatchObject({
      value: score.value,
      reason: score.reason,
      measurements: {
        scorer: "referenceFix@1.1.0",
        structural: score.structural,
        textual: score.textual,
        matched_files: ["a.py"],
        missing_files: ["b.py"],
        extra_files: ["c.py"],
      },
    });
  });

  describe("the reference file", () => {
    const cwd = process.cwd();
    afterEach(() => process.chdir(cwd));

    it("is REFERENCE_FIX.md in the current directory (a judge runs in its eval folder), or the path given", async () => {
      const folder = await makeTempDir();
      await writeFile(join(folder, "REFERENCE_FIX.md"), referenceMarkdown(A_AND_B));
      await writeFile(join(folder, "OTHER.md"), A_AND_B.split("diff --git a/b.py")[0]!);
      await using ctx = await workspaceContext(INITIAL, { ...INITIAL, "a.py": "x = 1\n" });
      process.chdir(folder);
      expect(await referenceFix(ctx)).toMatchObject({
        missing_files: ["b.py"],
        measurements: { reference: join(folder, "REFERENCE_FIX.md") },
      });
      expect(await referenceFix(ctx, { reference: "OTHER.md" })).toMatchObject({ value: 1 });
      process.chdir(cwd);
      expect(await referenceFix(ctx, { reference: join(folder, "OTHER.md") })).toMatchObject({ value: 1 });
    });

    it("is an error naming the file and the fix when it is missing, holds no diff, or a malformed one", async () => {
      const folder = await makeTempDir();
      await using ctx = await workspaceContext(INITIAL, INITIAL);
      const missing = join(folder, "REFERENCE_FIX.md");
      await expect(referenceFix(ctx, { reference: missing })).rejects.toMatchObject({
        code: "OE_REFERENCE_UNREADABLE",
        message: expect.stringContaining(`${missing} is unreadable: it does not exist. Create it in the eval folder`),
      });
      await writeFile(missing, "# Reference fix\n\nMake the rate a fraction.\n");
      await expect(referenceFix(ctx, { reference: missing })).rejects.toMatchObject({
        code: "OE_REFERENCE_WITHOUT_DIFF",
        message: expect.stringMatching(/REFERENCE_FIX\.md contains no unified diff; put the fix in a ```diff block/),
      });
      await writeFile(missing, referenceMarkdown("--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 0\n+x = 1\n+x = 2\n"));
      await expect(referenceFix(ctx, { reference: missing })).rejects.toThrow(
        /REFERENCE_FIX\.md, line 11: hunk "@@ -1 \+1 @@" \(line 8\) has more lines than its header counts; correct the counts, or write a bare @@ line/,
      );
      await expect(referenceFix(ctx, { reference: missing })).rejects.toBeInstanceOf(ScorerError);
    });
  });

  it("refuses invalid options: weights not finite, negative, summing to 0 or incomplete; two references; unknown keys", async () => {
    await using ctx = await workspaceContext(INITIAL, INITIAL);
    const invalid = async (options: object, message: RegExp) =>
      expect(referenceFix(ctx, { referenceText: A_AND_B, ...options } as never)).rejects.toMatchObject({
        code: "OE_INVALID_OPTIONS",
        message: expect.stringMatching(message),
      });
    await invalid(
      { weights: { structural: Number.NaN, textual: 1 } },
      /referenceFix: invalid options: weights\.structural/,
    );
    await invalid({ weights: { structural: Number.POSITIVE_INFINITY, textual: 1 } }, /weights\.structural/);
    await invalid({ weights: { structural: -0.5, textual: 1 } }, /weights\.structural: must not be negative/);
    await invalid({ weights: { structural: 0, textual: 0 } }, /must be above 0/);
    await invalid({ weights: { structural: Number.MAX_VALUE, textual: Number.MAX_VALUE } }, /must be a finite number/);
    await invalid({ weights: { structural: 1 } }, /weights\.textual/);
    await invalid({ reference: "REFERENCE_FIX.md" }, /not both/);
    await invalid({ weight: { structural: 1, textual: 1 } }, /unknown key "weight"/);
  });
});
