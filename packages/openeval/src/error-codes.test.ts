// Every error code a user or a script can act on is namespaced (OE_…) and declared by one family only: the same code
// in two families' unions would let two situations, with two wordings, answer to one code.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const PACKAGES = join(import.meta.dirname, "..", "..");
const ERRORS_DOC = join(PACKAGES, "..", "docs", "errors.md");

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "fixtures" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/[.-]test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const isCode = (node: ts.Node): node is ts.StringLiteral =>
  ts.isStringLiteral(node) && /^[A-Z][A-Z0-9_]+$/.test(node.text);

/**
 * The codes a file declares: the string literals of a `…Code` type alias, a class's `code = "…"`, and in an
 * errors.ts a situation table's `code: "…"` or a union member's `{ code: "…" }`.
 */
function declaredCodes(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const codes: string[] = [];
  const collectLiterals = (node: ts.Node): void => {
    if (isCode(node)) codes.push(node.text);
    // `Extract<OtherCode, "…">` picks another family's code: a reference, not a declaration.
    if (!ts.isTypeReferenceNode(node)) ts.forEachChild(node, collectLiterals);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isTypeAliasDeclaration(node) && /Code$/.test(node.name.text)) collectLiterals(node.type);
    // A class's `code = "…"` anywhere; an object's `code: "…"` only in errors.ts, where it declares (elsewhere it uses).
    const declaring = ts.isPropertyDeclaration(node) || (ts.isPropertyAssignment(node) && file.endsWith("/errors.ts"));
    if (declaring && node.name.getText(source) === "code" && node.initializer && isCode(node.initializer))
      codes.push(node.initializer.text);
    // A discriminated union's `{ code: "…"; …facts }` member in errors.ts declares a code with its data.
    if (
      ts.isPropertySignature(node) &&
      file.endsWith("/errors.ts") &&
      node.name.getText(source) === "code" &&
      node.type &&
      ts.isLiteralTypeNode(node.type) &&
      isCode(node.type.literal)
    )
      codes.push(node.type.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...new Set(codes)];
}

function codesByFile(): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  for (const packageName of readdirSync(PACKAGES)) {
    for (const file of sourceFiles(join(PACKAGES, packageName, "src"))) {
      const codes = declaredCodes(file);
      if (codes.length > 0) byFile.set(relative(PACKAGES, file), codes);
    }
  }
  return byFile;
}

describe("error codes", () => {
  const byFile = codesByFile();

  it("finds the families' declarations (a union, a class's code, a situation table, a union member)", () => {
    expect(byFile.get("control-model/src/errors.ts")).toContain("OE_CONTROL_FILE_INVALID");
    expect(byFile.get("openeval/src/cli/errors.ts")).toEqual(["OE_USAGE"]);
    expect(byFile.get("openeval/src/recording/errors.ts")).toContain("OE_NOT_AVAILABLE");
    expect([...byFile.values()].flat().length).toBeGreaterThan(40);
  });

  it("each code is namespaced with OE_", () => {
    const bare = [...byFile].flatMap(([file, codes]) =>
      codes.filter((code) => !code.startsWith("OE_")).map((code) => `${file}: ${code}`),
    );
    expect(bare).toEqual([]);
  });

  it("each code is declared by one file only", () => {
    const files = new Map<string, string[]>();
    for (const [file, codes] of byFile) for (const code of codes) files.set(code, [...(files.get(code) ?? []), file]);
    const duplicated = [...files]
      .filter(([, declaring]) => declaring.length > 1)
      .map(([code, declaring]) => `${code}: ${declaring.join(", ")}`);
    expect(duplicated).toEqual([]);
  });

  it("docs/errors.md lists each code", () => {
    const documented = readFileSync(ERRORS_DOC, "utf8");
    expect([...byFile.values()].flat().filter((code) => !documented.includes(`\`${code}\``))).toEqual([]);
  });
});
