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
    expect(diffLines("a\nb\nc\n", "a\nc\nd\n").map((line) => `${line.kind[0]}${line.text}`)).toEqual([
      "sa",
      "rb",
      "sc",
      "ad",
    ]);
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

describe("line diffs at scale", () => {
  /** Longest common subsequence length by dynamic programming: what a minimal diff keeps. */
  function lcsLength(a: string[], b: string[]): number {
    let previous = new Array<number>(b.length + 1).fill(0);
    for (const line of a) {
      const row = [0];
      for (let j = 0; j < b.length; j++)
        row.push(line === b[j] ? previous[j]! + 1 : Math.max(previous[j + 1]!, row[j]!));
      previous = row;
    }
    return previous[b.length]!;
  }

  it("is a correct and minimal edit script on random files with repeated lines", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      const a = Array.from({ length: Math.floor(random() * 30) }, () => `l${Math.floor(random() * 8)}`);
      const b = a.filter(() => random() > 0.3).map((line) => (random() > 0.8 ? `l${Math.floor(random() * 12)}` : line));
      const lines = diffLines(a.map((line) => `${line}\n`).join(""), b.map((line) => `${line}\n`).join(""));
      expect(lines.filter((line) => line.kind !== "added").map((line) => line.text)).toEqual(a);
      expect(lines.filter((line) => line.kind !== "removed").map((line) => line.text)).toEqual(b);
      expect(lines.filter((line) => line.kind === "same")).toHaveLength(lcsLength(a, b));
    }
  });

  it("diffs a 20,000-line file with 10 % of its lines changed as a minimal script, and a rewrite as a whole replacement", () => {
    const lines = Array.from({ length: 20_000 }, (_, index) => `line ${index}`);
    const changed = lines.map((line, index) => (index % 10 === 3 ? `${line} changed` : line));
    const diff = diffLines(lines.join("\n"), changed.join("\n"));
    expect(diff.filter((line) => line.kind === "added")).toHaveLength(2_000);
    expect(diff.filter((line) => line.kind === "same")).toHaveLength(18_000);
    // Same lines in another order: no line is unique to a side, and the search would be long; it gives up in time.
    const shuffled = [...lines.slice(10_000), ...lines.slice(0, 10_000)].reverse();
    const replaced = diffLines(lines.join("\n"), shuffled.join("\n"));
    expect(replaced.filter((line) => line.kind !== "added").map((line) => line.text)).toEqual(lines);
    expect(replaced.filter((line) => line.kind !== "removed").map((line) => line.text)).toEqual(shuffled);
  });
});

describe("toSafeRelativePath", () => {
  it("normalizes and refuses escapes", () => {
    expect(toSafeRelativePath("./a/b/../c.txt")).toBe("a/c.txt");
    for (const bad of ["", "..", "../x", "a/../../x", "/etc/passwd", "a\0b", "."])
      expect(() => toSafeRelativePath(bad)).toThrow(/Refused path/);
  });

  it("keeps a backslash as part of a name, as Linux does", () => {
    expect(toSafeRelativePath("a\\b.txt")).toBe("a\\b.txt");
    expect(toSafeRelativePath("x\\..\\..\\y")).toBe("x\\..\\..\\y");
    expect(toSafeRelativePath("dir/back\\slash..\\..\\x")).toBe("dir/back\\slash..\\..\\x");
    expect(toSafeRelativePath("C:x")).toBe("C:x");
  });
});
