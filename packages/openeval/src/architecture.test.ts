// The tree is the data's journey: stages import each other only through index.ts, dependencies
// point one way, stages never import the CLI or the viewer, and judges never reach into candidate/.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SOURCE = import.meta.dirname;

/** What each stage may import, types included: an arrow never points back up. */
const ALLOWED: Record<string, string[]> = {
  util: [],
  sandbox: ["util"],
  opencode: ["util", "sandbox"],
  load: ["util"],
  records: ["util", "load"],
  recording: ["util", "records", "opencode"],
  judge: ["util", "load", "records", "recording", "opencode", "sandbox"],
  candidate: ["util", "load", "records", "recording", "opencode", "sandbox"],
  plan: ["util", "load", "records"],
  results: ["util", "load", "records"],
  summary: ["util", "load", "records", "recording", "plan", "results"],
  run: [
    "util",
    "load",
    "records",
    "recording",
    "judge",
    "candidate",
    "plan",
    "results",
    "summary",
    "opencode",
    "sandbox",
  ],
  report: ["util", "records", "results", "plan", "summary"],
  ci: ["util"],
  scaffold: ["util", "load"],
  view: [
    "util",
    "sandbox",
    "opencode",
    "load",
    "records",
    "recording",
    "judge",
    "plan",
    "results",
    "summary",
    "report",
  ],
  cli: [
    "util",
    "sandbox",
    "load",
    "records",
    "recording",
    "judge",
    "candidate",
    "plan",
    "results",
    "summary",
    "run",
    "report",
    "view",
    "ci",
    "scaffold",
  ],
};

interface Import {
  file: string;
  stage: string;
  target: string;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !/[.-]test\.ts$/.test(entry.name) ? [path] : [];
  });
}

function crossStageImports(): Import[] {
  const imports: Import[] = [];
  for (const file of sourceFiles(SOURCE)) {
    const relative = file.slice(SOURCE.length + 1);
    const stage = relative.split("/")[0]!;
    if (!relative.includes("/")) continue;
    for (const match of readFileSync(file, "utf8").matchAll(/^(?:import|export)[^;]*?from\s+"(\.\.\/[^"]+)"/gms)) {
      const depth = relative.split("/").length - 2;
      const parts = match[1]!.split("/");
      const target = parts.slice(parts.filter((part) => part === "..").length).join("/");
      if (parts.filter((part) => part === "..").length !== depth + 1) continue; // within the stage
      imports.push({ file: relative, stage, target });
    }
  }
  return imports;
}

describe("the import graph", () => {
  const imports = crossStageImports();

  it("finds the stages' imports (the check below would catch nothing otherwise)", () => {
    expect(imports.length).toBeGreaterThan(30);
    const stages = readdirSync(SOURCE, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(stages.filter((stage) => !(stage in ALLOWED))).toEqual([]);
  });

  it("lets each stage import only the stages below it (type-only imports too), never the CLI or the viewer", () => {
    const violations = imports
      .filter((entry) => !(ALLOWED[entry.stage] ?? []).includes(entry.target.split("/")[0]!))
      .map((entry) => `${entry.file} imports ${entry.target}`);
    expect(violations).toEqual([]);
  });

  it("goes through a stage's own index.ts, not a sub-folder's (util, a toolbox, is imported file by file)", () => {
    const violations = imports
      .filter((entry) => !entry.target.startsWith("util/") && !/^[a-z-]+\/index\.ts$/.test(entry.target))
      .map((entry) => `${entry.file} imports ${entry.target}`);
    expect(violations).toEqual([]);
  });

  it("keeps judges away from candidate/", () => {
    expect(imports.filter((entry) => entry.stage === "judge" && entry.target.startsWith("candidate/"))).toEqual([]);
  });
});

const VIEWER = join(SOURCE, "..", "..", "viewer");
/** The one entry of this package the viewer's front end may import (declared in package.json `exports`). */
const VIEWER_ENTRY = "openeval/viewer-api";

function viewerImports(): { file: string; specifier: string }[] {
  const walk = (directory: string): string[] =>
    readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? walk(join(directory, entry.name))
        : /\.tsx?$/.test(entry.name)
          ? [join(directory, entry.name)]
          : [],
    );
  return walk(join(VIEWER, "src")).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gms)].map((match) => ({
      file: relative(VIEWER, file),
      specifier: match[1]!,
    })),
  );
}

describe("the viewer's imports", () => {
  const imports = viewerImports();
  const packageJson = JSON.parse(readFileSync(join(SOURCE, "..", "package.json"), "utf8")) as {
    exports: Record<string, string>;
  };

  it("finds them (the checks below would catch nothing otherwise)", () => {
    expect(imports.filter((entry) => entry.specifier === VIEWER_ENTRY).length).toBeGreaterThan(10);
    expect(packageJson.exports["./viewer-api"]).toBe("./src/view/viewer-api.ts");
  });

  it("never reach out of packages/viewer by a relative path", () => {
    const outside = imports.filter(
      (entry) =>
        entry.specifier.startsWith(".") &&
        relative(VIEWER, resolve(VIEWER, dirname(entry.file), entry.specifier)).startsWith(".."),
    );
    expect(outside.map((entry) => `${entry.file} imports ${entry.specifier}`)).toEqual([]);
  });

  it("take this package only through its declared viewer entry", () => {
    const other = imports.filter(
      (entry) =>
        (entry.specifier === "openeval" || entry.specifier.startsWith("openeval/")) && entry.specifier !== VIEWER_ENTRY,
    );
    expect(other.map((entry) => `${entry.file} imports ${entry.specifier}`)).toEqual([]);
  });
});

describe("engines", () => {
  const sources = sourceFiles(SOURCE).map((file) => ({
    file: file.slice(SOURCE.length + 1),
    text: readFileSync(file, "utf8"),
  }));
  /** The container engine's own code, and the map that opens every engine. */
  const engineCode = (file: string) => file.startsWith("sandbox/container/") || file === "sandbox/engines.ts";

  it("are constructed or connected only in the engine code; everything else opens one through the map", () => {
    const connecting = sources.filter(
      (source) =>
        !engineCode(source.file) && /\bconnect(Container)?Engine\b|\bdockerode\b|new Docker\(/.test(source.text),
    );
    expect(connecting.map((source) => source.file)).toEqual([]);
    expect(
      sources.filter((source) => /openSandboxEngine\(/.test(source.text) && !engineCode(source.file)).length,
    ).toBeGreaterThan(1);
  });

  it("are chosen per candidate by the runtime map, never by a branch in candidate execution", () => {
    const execute = sources.find((source) => source.file === "candidate/execute-candidate.ts")!;
    expect(execute.text).not.toMatch(/isolation === "(container|process)"|\bcontainer\s*\?/);
  });
});
