import { describe, expect, it } from "vitest";
import { minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "./load-benchmark.ts";
import { parsePrompt } from "./prompt.ts";

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))));

describe("prompt.md must be UTF-8 text", () => {
  it("drops one leading byte-order mark and keeps the text", () => {
    expect(parsePrompt(bytes([0xef, 0xbb, 0xbf], "Reply with APPLE.\n")).text).toBe("Reply with APPLE.\n");
  });

  it("refuses NUL bytes, invalid UTF-8, UTF-16 and a second byte-order mark, saying what to do", () => {
    expect(() => parsePrompt(bytes("Reply", [0], "with APPLE.\n"))).toThrow(
      "holds U+0000 at character 6, which text does not (a binary file?); save the task as plain UTF-8 text",
    );
    expect(() => parsePrompt(bytes("Reply ", [0xc3, 0x28], "\n"))).toThrow(
      "is not UTF-8 text (a binary file, or another encoding such as UTF-16); save the task as UTF-8 text",
    );
    expect(() => parsePrompt(bytes([0xff, 0xfe], "R\0e\0"))).toThrow("is not UTF-8 text");
    expect(() => parsePrompt(bytes([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], "Reply\n"))).toThrow(
      "holds U+FEFF at character 1",
    );
  });

  it("a binary prompt.md is a load error naming the file", async () => {
    const directory = await writeTree(minimalBenchmark());
    await Bun.write(`${directory}/evals/answer/prompt.md`, bytes([0x89], "PNG\r\n", [0x1a, 0x0a, 0, 0, 0, 0x0d]));
    await expect(loadBenchmark(directory)).rejects.toThrow("evals/answer/prompt.md: is not UTF-8 text");
  });
});
