import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeTree } from "../../../../test/helpers/fixtures.ts";
import { bundleCodeJudge } from "./code-judge-bundle.ts";
import { readLiteral } from "./literal.ts";

describe("readLiteral", () => {
  it("reads nested plain literals with comments and trailing commas", () => {
    const source = `x = { a: "A", 'b': { name: 'B \\'q\\'', list: [1, -2.5, true, null,], }, /* c */ c: \`C\` };`;
    expect(readLiteral(source, 4)).toEqual({ a: "A", b: { name: "B 'q'", list: [1, -2.5, true, null] }, c: "C" });
  });

  it("reads strings with embedded quotes and every kind of escape exactly as JavaScript does", () => {
    const strings = [
      `'say "hi" ""'`,
      `"say \\"hi\\" \\"\\""`,
      `'it\\'s' `,
      `"tab\\tnew\\nline\\r\\\\ back\\b\\f\\v\\0"`,
      `"\\x41\\u0042\\u{1F600}\\u{43}"`,
      `'a\\
b'`,
      `"\\q\\%unknown escapes stay"`,
      "`multi\nline \\`tick\\` $ {not} \\u0041`",
    ];
    for (const literal of strings) expect(readLiteral(literal, 0)).toBe(new Function(`return ${literal};`)());
  });

  it("refuses anything that would need evaluation, and malformed strings", () => {
    expect(() => readLiteral("compute()", 0)).toThrow(/expected a literal value/);
    expect(() => readLiteral("{ a: `${x}` }", 0)).toThrow(/template strings/);
    expect(() => readLiteral("{ a: b }", 0)).toThrow(/expected a literal value/);
    expect(() => readLiteral(`"open`, 0)).toThrow(/unterminated string/);
    expect(() => readLiteral(`"bad \\x4"`, 0)).toThrow(/invalid escape sequence/);
    expect(() => readLiteral(`"octal \\12"`, 0)).toThrow(/invalid escape sequence/);
  });

  it("reads judge.ts's `export const criteria` labels with quotes; an unreadable one is an error naming the export", async () => {
    const directory = await writeTree({
      "ok/judge.ts": `export const criteria = { x: { label: 'say "hi" ""' }, y: "it's \\"fine\\"" };\nexport default () => ({ scores: {} });\n`,
      "bad/judge.ts": `export const criteria = { x: { label: "a" + "b" } };\nexport default () => ({ scores: {} });\n`,
    });
    expect((await bundleCodeJudge(join(directory, "ok", "judge.ts"), directory)).criteria).toEqual([
      { id: "x", label: 'say "hi" ""', categories: [] },
      { id: "y", label: `it's "fine"`, categories: [] },
    ]);
    await expect(bundleCodeJudge(join(directory, "bad", "judge.ts"), directory)).rejects.toThrow(
      /`export const criteria` must be a plain literal: expected "," or "}"/,
    );
  });
});
