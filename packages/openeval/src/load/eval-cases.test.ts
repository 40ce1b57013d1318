import { describe, expect, it } from "vitest";
import { minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { BenchmarkInvalidError } from "./errors.ts";
import { loadBenchmark } from "./load-benchmark.ts";

/** eval.ts imports zod by its path: the temporary benchmark folder has no node_modules. */
const ZOD = import.meta.resolve("zod");

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

async function problemsOf(files: Record<string, string>): Promise<string[]> {
  const error = await loadBenchmark(await writeTree(minimalBenchmark(files))).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(BenchmarkInvalidError);
  return (error as BenchmarkInvalidError).problems.map((problem) => `${problem.file}: ${problem.message}`);
}

async function casesOf(files: Record<string, string>) {
  const benchmark = await loadBenchmark(await writeTree(minimalBenchmark(files)));
  return benchmark.evals[0]!.cases;
}

describe("case files", () => {
  it("an eval without a case file has no cases, and its prompt is sent as written (no templating)", async () => {
    const benchmark = await loadBenchmark(
      await writeTree(minimalBenchmark({ "evals/answer/prompt.md": "Reply {{not a template}}\n" })),
    );
    expect(benchmark.evals[0]!.cases).toBeNull();
    expect(benchmark.evals[0]!.prompt.text).toBe("Reply {{not a template}}\n");
  });

  it("cases.jsonl and regression.cases.jsonl are loaded, each case with its prompt rendered; regression cases are tagged", async () => {
    const cases = await casesOf({
      "evals/answer/prompt.md": "Refund {{{input.amount}}} for {{case.id}}?\n",
      "evals/answer/cases.jsonl":
        line({ id: "small", input: { amount: 5 }, expected: { refund: true }, tags: ["easy"] }) +
        "\n" +
        line({ id: "large", input: { amount: 5000 } }),
      "evals/answer/regression.cases.jsonl": line({ id: "old-bug", input: { amount: 0 }, tags: ["easy"] }),
    });
    expect(
      cases?.map(({ id, prompt, tags, expected, file, line }) => ({ id, prompt, tags, expected, file, line })),
    ).toEqual([
      {
        id: "small",
        prompt: "Refund 5 for small?\n",
        tags: ["easy"],
        expected: { refund: true },
        file: "cases.jsonl",
        line: 1,
      },
      { id: "large", prompt: "Refund 5000 for large?\n", tags: [], expected: undefined, file: "cases.jsonl", line: 3 },
      {
        id: "old-bug",
        prompt: "Refund 0 for old-bug?\n",
        tags: ["easy", "regression"],
        expected: undefined,
        file: "regression.cases.jsonl",
        line: 1,
      },
    ]);
  });

  it("a line's shape is checked: each problem names the file, the line and the field", async () => {
    expect(
      await problemsOf({
        "evals/answer/cases.jsonl": [
          line({ id: "ok", input: {} }),
          "{not json\n",
          line({ id: "bad id!", input: {} }),
          line({ id: "no-input" }),
          line({ id: "extra", input: {}, note: "x" }),
          line({ id: "ok", input: { again: true } }),
        ].join(""),
        "evals/answer/regression.cases.jsonl": line({ id: "ok", input: {} }),
      }),
    ).toEqual([
      expect.stringMatching(/^evals\/answer\/cases\.jsonl:2: is not JSON \(.*\); write one JSON object a line$/),
      'evals/answer/cases.jsonl:3: id: must be an id that starts with a letter or digit and holds only letters, digits, "_", "." and "-"',
      "evals/answer/cases.jsonl:4: input: give the case's input as a JSON object",
      'evals/answer/cases.jsonl:5: unknown key "note"; remove or correct it',
      'evals/answer/cases.jsonl:6: id: "ok" is already the id of the case at cases.jsonl:1; ids are unique within the eval, give one of them another',
      'evals/answer/regression.cases.jsonl:1: id: "ok" is already the id of the case at cases.jsonl:1; ids are unique within the eval, give one of them another',
    ]);
  });

  it("eval.ts cases.input and cases.expected schemas check every line in the config worker; their output is the case's", async () => {
    const evalTs = `import * as z from "${ZOD}";\nexport default { cases: { file: "refunds.jsonl", input: z.object({ amount: z.number(), currency: z.string().default("EUR") }), expected: z.object({ refund: z.boolean() }) } };\n`;
    expect(
      await problemsOf({
        "evals/answer/eval.ts": evalTs,
        "evals/answer/refunds.jsonl":
          line({ id: "a", input: { amount: 1 }, expected: { refund: true } }) +
          line({ id: "b", input: { amount: "12" }, expected: { refund: true } }) +
          line({ id: "c", input: { amount: 3 } }),
      }),
    ).toEqual([
      "evals/answer/refunds.jsonl:2: input.amount: Invalid input: expected number, received string",
      "evals/answer/refunds.jsonl:3: expected: Invalid input: expected object, received undefined",
    ]);
    const cases = await casesOf({
      "evals/answer/eval.ts": evalTs,
      "evals/answer/refunds.jsonl": line({ id: "a", input: { amount: 1 }, expected: { refund: true } }),
    });
    expect(cases?.[0]?.input).toEqual({ amount: 1, currency: "EUR" });
  });

  it("eval.ts cases naming a file that does not exist, or a schema that is not one, is an error", async () => {
    expect(
      await problemsOf({ "evals/answer/eval.ts": `export default { cases: { file: "missing.jsonl" } };\n` }),
    ).toEqual([
      "evals/answer/eval.ts: cases: the case file missing.jsonl does not exist; create it (one JSON object a line), or remove cases",
    ]);
    expect(
      await problemsOf({
        "evals/answer/eval.ts": `export default { cases: { file: "../x.jsonl", input: { amount: "number" } } };\n`,
      }),
    ).toEqual([
      'evals/answer/eval.ts: cases.file: must be a .jsonl file of the eval, relative to its folder, without ".." or an absolute path',
      "evals/answer/eval.ts: cases.input: must be a schema (a zod schema, or another Standard Schema) every case's value is checked against",
    ]);
  });

  it("a name the template uses that a case lacks is an error naming the case and the field, never an empty string", async () => {
    expect(
      await problemsOf({
        "evals/answer/prompt.md":
          "Refund {{{input.amount}}} {{#expected}}({{{reason}}}){{/expected}} {{input.order}}\n",
        "evals/answer/cases.jsonl":
          line({ id: "full", input: { amount: 1, order: "A1" }, expected: { reason: "late" } }) +
          line({ id: "no-amount", input: { order: "A2" }, expected: { reason: "x" } }) +
          line({ id: "no-reason", input: { amount: 2, order: "A3" }, expected: { other: 1 } }) +
          line({ id: "no-expected", input: { amount: 2, order: { nested: true } } }),
      }),
    ).toEqual([
      'evals/answer/prompt.md: case "no-amount" (cases.jsonl:2): input.amount: the template names it and this case has no such field; add it to the case, or remove it from prompt.md',
      'evals/answer/prompt.md: case "no-reason" (cases.jsonl:3): reason: the template names it and this case has no such field; add it to the case, or remove it from prompt.md',
      'evals/answer/prompt.md: case "no-expected" (cases.jsonl:4): expected: the template names it and this case has no such field; add it to the case, or remove it from prompt.md',
      'evals/answer/prompt.md: case "no-expected" (cases.jsonl:4): input.order: is an object in this case, which has no text to put in the prompt; name one of its fields, or use a section ({{#input.order}}…{{/input.order}})',
    ]);
  });

  it("{{x}} HTML-escapes as Mustache does; {{{x}}} and {{&x}} give the text as it is", async () => {
    const cases = await casesOf({
      "evals/answer/prompt.md": "{{input.code}} | {{{input.code}}} | {{&input.code}}\n",
      "evals/answer/cases.jsonl": line({ id: "a", input: { code: "a < b && c" } }),
    });
    expect(cases?.[0]?.prompt).toBe("a &lt; b &amp;&amp; c | a < b && c | a < b && c\n");
  });

  it("cases/<id>/ overlays a case's workspace; a folder naming no case, or overlays without cases, is an error", async () => {
    const cases = await casesOf({
      "evals/answer/cases.jsonl": line({ id: "a", input: {} }) + line({ id: "b", input: {} }),
      "evals/answer/cases/a/data.txt": "for a\n",
    });
    expect(cases?.map((item) => item.overlay?.hash !== undefined)).toEqual([true, false]);
    expect(
      await problemsOf({
        "evals/answer/cases.jsonl": line({ id: "a", input: {} }),
        "evals/answer/cases/typo/data.txt": "x\n",
      }),
    ).toEqual(["evals/answer/cases/typo: names no case of the eval; name the folder after a case id, or remove it"]);
    expect(await problemsOf({ "evals/answer/cases/a/data.txt": "x\n" })).toEqual([
      "evals/answer/cases: holds per-case workspace overlays, and the eval has no case file; add cases.jsonl, or remove the folder",
    ]);
  });

  it("case files and overlays are candidate inputs, never judge-only files", async () => {
    const benchmark = await loadBenchmark(
      await writeTree(
        minimalBenchmark({
          "evals/answer/cases.jsonl": line({ id: "a", input: {} }),
          "evals/answer/cases/a/data.txt": "x\n",
          "evals/answer/fixture.txt": "judge only\n",
        }),
      ),
    );
    expect(benchmark.evals[0]!.judgeFiles.map((file) => file.path)).toEqual(["fixture.txt"]);
  });
});
