// The tree is the data's journey (STYLE §1–2): stages import each other only through index.ts, dependencies
// point one way, stages never import the CLI or the viewer, and judges never reach into candidate/.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SOURCE = import.meta.dirname;

/** What each stage may import at run time (type-only imports may also point back one layer). */
const ALLOWED: Record<string, string[]> = {
  util: [],
  sandbox: ["util"],
  opencode: ["util", "sandbox"],
  load: ["util"],
  results: ["util", "load"],
  recording: ["util", "results", "opencode"],
  judge: ["util", "load", "results", "recording", "opencode", "sandbox"],
  candidate: ["util", "load", "results", "recording", "opencode", "sandbox"],
  plan: ["util", "load", "results"],
  run: ["util", "load", "results", "recording", "judge", "candidate", "plan", "opencode", "sandbox"],
  report: ["util", "results", "plan", "run"],
  view: ["util", "sandbox", "opencode", "load", "results", "recording", "judge", "plan", "run", "report"],
  cli: ["util", "sandbox", "load", "results", "recording", "judge", "candidate", "plan", "run", "report", "view"],
};

interface Import {
  file: string;
  stage: string;
  target: string;
  typeOnly: boolean;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

function crossStageImports(): Import[] {
  const imports: Import[] = [];
  for (const file of sourceFiles(SOURCE)) {
    const relative = file.slice(SOURCE.length + 1);
    const stage = relative.split("/")[0]!;
    if (!relative.includes("/")) continue;
    for (const match of readFileSync(file, "utf8").matchAll(/^(?:import|export)(\s+type)?[^;]*?from\s+"(\.\.\/[^"]+)"/gms)) {
      const depth = relative.split("/").length - 2;
      const parts = match[2]!.split("/");
      const target = parts.slice(parts.filter((part) => part === "..").length).join("/");
      if (parts.filter((part) => part === "..").length !== depth + 1) continue; // within the stage
      imports.push({ file: relative, stage, target, typeOnly: Boolean(match[1]) });
    }
  }
  return imports;
}

describe("the import graph", () => {
  const imports = crossStageImports();

  it("finds the stages' imports (the check below would catch nothing otherwise)", () => {
    expect(imports.length).toBeGreaterThan(30);
    const stages = readdirSync(SOURCE, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(stages.filter((stage) => !(stage in ALLOWED))).toEqual([]);
  });

  it("lets each stage import only the stages below it, never the CLI or the viewer", () => {
    const violations = imports
      .filter((entry) => !entry.typeOnly)
      .filter((entry) => !(ALLOWED[entry.stage] ?? []).includes(entry.target.split("/")[0]!))
      .map((entry) => `${entry.file} imports ${entry.target}`);
    expect(violations).toEqual([]);
  });

  it("goes through a stage's index.ts (util, a toolbox, is imported file by file)", () => {
    const violations = imports
      .filter((entry) => !entry.target.startsWith("util/") && !entry.target.endsWith("/index.ts"))
      .map((entry) => `${entry.file} imports ${entry.target}`);
    expect(violations).toEqual([]);
  });

  it("keeps judges away from candidate/", () => {
    expect(imports.filter((entry) => entry.stage === "judge" && entry.target.startsWith("candidate/"))).toEqual([]);
  });
});
