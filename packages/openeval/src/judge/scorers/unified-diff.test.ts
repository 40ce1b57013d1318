import { describe, expect, it } from "vitest";
import { DiffSyntaxError, parseUnifiedDiff } from "./unified-diff.ts";

const lines = (...text: string[]) => text.join("\n") + "\n";

describe("parseUnifiedDiff", () => {
  it("reads git diffs: a/ b/ prefixes, added and deleted files via /dev/null, several hunks and files", () => {
    const diff = lines(
      "diff --git a/store/pricing.py b/store/pricing.py",
      "index 3b18e51..a2c1f0d 100644",
      "--- a/store/pricing.py",
      "+++ b/store/pricing.py",
      "@@ -1,3 +1,3 @@ def price():",
      " import rates",
      "-TAX = 1",
      "+TAX = rates.tax()",
      " ",
      "@@ -10,2 +10,3 @@",
      " def total(x):",
      "+    x = round(x, 2)",
      "     return x",
      "diff --git a/store/new.py b/store/new.py",
      "new file mode 100644",
      "index 0000000..e69de29",
      "--- /dev/null",
      "+++ b/store/new.py",
      "@@ -0,0 +1 @@",
      "+NEW = True",
      "diff --git a/old.py b/old.py",
      "deleted file mode 100644",
      "--- a/old.py",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-OLD = True",
    );
    expect(parseUnifiedDiff(diff)).toEqual([
      {
        path: "store/pricing.py",
        status: "modified",
        addedLines: ["TAX = rates.tax()", "    x = round(x, 2)"],
        binary: false,
      },
      { path: "store/new.py", status: "added", addedLines: ["NEW = True"], binary: false },
      { path: "old.py", status: "deleted", addedLines: [], binary: false },
    ]);
  });

  it("reads hunk bodies by their counts, so removed '-- ' and added '++ ' lines are not file headers", () => {
    const diff = lines(
      "--- a/schema.sql",
      "+++ b/schema.sql",
      "@@ -1,2 +1,2 @@",
      "--- old comment",
      "+++ new comment",
      " SELECT 1;",
    );
    expect(parseUnifiedDiff(diff)).toEqual([
      { path: "schema.sql", status: "modified", addedLines: ["++ new comment"], binary: false },
    ]);
  });

  it("reads diff -u output (tab and timestamp after the path, no prefixes) and git's quoted paths", () => {
    const plain = lines(
      "--- pricing.py.orig\t2024-05-01 10:00:00.000000000 +0200",
      "+++ pricing.py\t2024-05-01 10:05:00.000000000 +0200",
      "@@ -1 +1 @@",
      "-a",
      "+b",
    );
    expect(parseUnifiedDiff(plain)).toEqual([
      { path: "pricing.py", status: "modified", addedLines: ["b"], binary: false },
    ]);
    const quoted = lines(
      'diff --git "a/caf\\303\\251 menu.txt" "b/caf\\303\\251 menu.txt"',
      '--- "a/caf\\303\\251 menu.txt"',
      '+++ "b/caf\\303\\251 menu.txt"',
      "@@ -1 +1 @@",
      "-a",
      "+b",
    );
    expect(parseUnifiedDiff(quoted)[0]!.path).toBe("café menu.txt");
  });

  it("takes paths with spaces from the diff --git line when there are no ---/+++ lines (binary, empty new file)", () => {
    const diff = lines(
      "diff --git a/docs/my logo.png b/docs/my logo.png",
      "index 1..2 100644",
      "Binary files a/docs/my logo.png and b/docs/my logo.png differ",
      "diff --git a/empty.txt b/empty.txt",
      "new file mode 100644",
      "index 0000000..e69de29",
    );
    expect(parseUnifiedDiff(diff)).toEqual([
      { path: "docs/my logo.png", status: "modified", addedLines: [], binary: true },
      { path: "empty.txt", status: "added", addedLines: [], binary: false },
    ]);
  });

  it("turns a rename into its old path deleted and its new path added, as a workspace diff shows it", () => {
    const diff = lines(
      "diff --git a/a.py b/b.py",
      "similarity index 90%",
      "rename from a.py",
      "rename to b.py",
      "--- a/a.py",
      "+++ b/b.py",
      "@@ -1 +1 @@",
      "-x",
      "+y",
    );
    expect(parseUnifiedDiff(diff)).toEqual([
      { path: "a.py", status: "deleted", addedLines: [], binary: false },
      { path: "b.py", status: "added", addedLines: ["y"], binary: false },
    ]);
  });

  it("accepts hand-written bare @@ headers, CRLF line ends and 'No newline' markers, and skips prose", () => {
    const diff =
      "Some notes first.\r\n--- a/x.js\r\n+++ b/x.js\r\n@@\r\n const a = 1;\r\n-const b = 1;\r\n+const b = 2;\r\n\\ No newline at end of file\r\nMore prose.\r\n";
    expect(parseUnifiedDiff(diff)).toEqual([
      { path: "x.js", status: "modified", addedLines: ["const b = 2;"], binary: false },
    ]);
  });

  it("accepts a hunk whose trailing blank context lines an editor trimmed", () => {
    expect(parseUnifiedDiff("--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-a\n+b\n")[0]!.addedLines).toEqual(["b"]);
  });

  it("refuses hunks that contradict their counts, naming the line and the hunk", () => {
    expect(() => parseUnifiedDiff("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+c\n")).toThrow(
      /line 6: hunk "@@ -1 \+1 @@" \(line 3\) has more/,
    );
    expect(() => parseUnifiedDiff("--- a/x\n+++ b/x\n@@ -1,2 +1,1 @@\n-a\n+b\nprose\n")).toThrow(DiffSyntaxError);
    expect(() => parseUnifiedDiff("@@ -1 +1 @@\n-a\n+b\n")).toThrow(/no file header/);
  });

  it("finds nothing in text without a diff", () => {
    expect(parseUnifiedDiff("# Reference fix\n\nChange the rate to a fraction.\n")).toEqual([]);
  });
});
