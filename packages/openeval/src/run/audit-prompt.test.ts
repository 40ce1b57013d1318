import { describe, expect, it } from "vitest";
import { isFilePath, readPromptClaims } from "./audit-prompt.ts";

describe("readPromptClaims", () => {
  it("splits the quoted spans into file paths and stated text, each once, in order", () => {
    expect(
      readPromptClaims(
        'Count the `ERROR` lines of `server.log` and write the count to `out/count.txt`, then "say done". Put `ERROR` in `/app`.',
      ),
    ).toEqual({ paths: ["server.log", "out/count.txt"], literals: ["ERROR", "say done"] });
  });

  it("reads a Harbor instruction: absolute paths are paths, folders are neither paths nor text", () => {
    expect(
      readPromptClaims(
        "Create a file named `hello.txt` in the current directory (`/app`) whose only line is `Hello, world!`.",
      ),
    ).toEqual({ paths: ["hello.txt"], literals: ["Hello, world!"] });
    expect(readPromptClaims("Write the report to `/app/report.json`.").paths).toEqual(["/app/report.json"]);
  });

  it("finds nothing in a prompt without quoted spans", () => {
    expect(readPromptClaims("Reply with exactly APPLE.")).toEqual({ paths: [], literals: [] });
  });
});

describe("isFilePath", () => {
  it.each([
    ["count.txt", true],
    ["./src/app.ts", true],
    [".env", true],
    ["Makefile", true],
    ["/app/out.json", true],
    ["node --test", false],
    ["median(values)", false],
    ["1.5", false],
    ["v2.0", false],
    ["../secret.txt", false],
    ["https://example.com/a.txt", false],
    ["src/", false],
    ["~/notes.md", false],
  ])("%s → %s", (span, expected) => {
    expect(isFilePath(span)).toBe(expected);
  });
});
