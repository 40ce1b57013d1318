import { describe, expect, it } from "vitest";
import { canonicalJson, fingerprint } from "./hash.ts";
import { diffLines, unifiedDiff } from "./line-diff.ts";
import { toSafeRelativePath } from "./relative-path.ts";

describe("fingerprint", () => {
  it("ignores key order at every depth but not array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(fingerprint({ a: 1, b: 2 })).toBe(fingerprint({ b: 2, a: 1 }));
    expect(fingerprint([1, 2])).not.toBe(fingerprint([2, 1]));
  });
});

describe("line diffs", () => {
  it("finds a minimal edit script", () => {
    expect(diffLines("a\nb\nc\n", "a\nc\nd\n").map((line) => `${line.kind[0]}${line.text}`)).toEqual(["sa", "rb", "sc", "ad"]);
  });

  it("renders unified hunks with context and merges nearby changes", () => {
    const before = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`).join("\n") + "\n";
    const after = before.replace("line 2\n", "line two\n").replace("line 18\n", "");
    const patch = unifiedDiff("f.txt", before, after);
    expect(patch.split("\n").filter((line) => line.startsWith("@@"))).toEqual(["@@ -1,5 +1,5 @@", "@@ -15,6 +15,5 @@"]);
    expect(unifiedDiff("new.txt", null, "x\n")).toBe("--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+x\n");
    expect(unifiedDiff("same.txt", "x\n", "x\n")).toBe("");
  });
});

describe("toSafeRelativePath", () => {
  it("normalizes and refuses escapes", () => {
    expect(toSafeRelativePath("./a/b/../c.txt")).toBe("a/c.txt");
    expect(toSafeRelativePath("a\\b.txt")).toBe("a/b.txt");
    for (const bad of ["", "..", "../x", "a/../../x", "/etc/passwd", "C:/x", "a\0b", "."]) expect(() => toSafeRelativePath(bad)).toThrow(/Refused path/);
  });
});
