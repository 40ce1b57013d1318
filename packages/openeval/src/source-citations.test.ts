// The repository explains itself: no source file points at an issue number or a section of a document that is not
// in the repository. A comment gives the reason in the code's own words, or links a file under docs/.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../../..");
const SCANNED = ["packages", "bench", "test", "scripts", "images", ".ci", "docs", "README.md", "CONTRIBUTING.md"];
const SKIPPED = new Set(["node_modules", "dist", "results", ".git"]);
const SOURCE = /\.(ts|tsx|js|mjs|cjs|css|html|sh|md)$|^Dockerfile/;

/** What cites something outside the repository: issue numbers, document sections, the shared contract's files. */
const CITATIONS: RegExp[] = [
  /\bissues? #?\d+/i,
  /§\s*\d/,
  /\b(SPEC|STYLE)\.md\b/,
  /\/work\/shared\b/,
  /\bspec\/seeds\//,
  /\breference\/(opencode|openeval|containers)-[\w.-]*\.md/,
];

/** The lines of `text` that cite outside the repository, as `line: text`. */
function findCitations(text: string): string[] {
  return text
    .split("\n")
    .flatMap((line, index) =>
      CITATIONS.some((pattern) => pattern.test(line)) ? [`${index + 1}: ${line.trim()}`] : [],
    );
}

function sourceFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    const child = join(path, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : sourceFiles(child);
    return entry.isFile() && SOURCE.test(entry.name) ? [child] : [];
  });
}

describe("citations of documents outside the repository", () => {
  it("recognizes issue numbers, section signs and the shared contract's files, and not in-repository links", () => {
    // Comment texts without their markers, which the check ignores: a fixture is not a comment of this file.
    const cited = [
      "Bounded snapshots (issue 14 §3).",
      "Issue 17, item 8: a judge.ts written from OpenEval 0.5's JudgeContext.",
      "earlyStop (SPEC §8.2): while a candidate runs",
      "The name → implementation map (STYLE §8)",
      "stdout carries the protocol only (probe §9.9).",
      '(/work/shared/reference/opencode-1.18-probe.md, "Recipe checklist")',
      "Shapes: reference/opencode-1.18-probe.md, re-checked against real runs",
      "see spec/seeds/crucible-reference-fix-scorer.md",
      "as SPEC.md says",
    ];
    const clean = [
      "// See docs/design/recording-integrity.md",
      '"evals/answer/REFERENCE_FIX.md": { symlink: "../../shared/fix.md" },',
      "// The issue is that the tree is copied twice.",
      'const reference = "REFERENCE_FIX.md";',
    ];
    expect(cited.filter((line) => findCitations(line).length === 0)).toEqual([]);
    expect(clean.flatMap(findCitations)).toEqual([]);
  });

  it("finds none in the sources of packages/, bench/, test/, scripts/, images/, .ci/, nor in the documentation", () => {
    // This file's own examples above are the one exception.
    const files = SCANNED.flatMap((folder) => sourceFiles(join(ROOT, folder))).filter(
      (file) => file !== import.meta.filename,
    );
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      findCitations(readFileSync(file, "utf8")).map((line) => `${relative(ROOT, file)}:${line}`),
    );
    expect(found).toEqual([]);
  });
});
