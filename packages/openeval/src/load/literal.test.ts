import { describe, expect, it } from "vitest";
import { readLiteral } from "./literal.ts";

describe("readLiteral", () => {
  it("reads nested plain literals with comments and trailing commas", () => {
    const source = `x = { a: "A", 'b': { name: 'B \\'q\\'', list: [1, -2.5, true, null,], }, /* c */ c: \`C\` };`;
    expect(readLiteral(source, 4)).toEqual({ a: "A", b: { name: "B 'q'", list: [1, -2.5, true, null] }, c: "C" });
  });

  it("refuses anything that would need evaluation", () => {
    expect(() => readLiteral("compute()", 0)).toThrow(/expected a literal value/);
    expect(() => readLiteral("{ a: `${x}` }", 0)).toThrow(/template strings/);
    expect(() => readLiteral("{ a: b }", 0)).toThrow(/expected a literal value/);
  });
});
