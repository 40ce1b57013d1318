import { existsSync } from "node:fs";
import { cp, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { makeTempDir, writeTree } from "../../../../test/helpers/fixtures.ts";
import { bundleCodeJudge } from "./code-judge-bundle.ts";

describe("bundleCodeJudge", () => {
  it("inlines local imports, keeps packages external with their versions, and never executes the judge", async () => {
    const marker = join(await makeTempDir(), "executed.txt");
    const directory = await writeTree({
      "judge.ts": `import { writeFileSync } from "node:fs";\nimport * as z from "zod";\nimport { expected } from "./helper.ts";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default ({ response }) => ({ scores: { ok: z.string().parse(response.text) === expected } });\n`,
      "helper.ts": `export const expected = "APPLE";\n`,
      // Installed beside the judge, as a benchmark installs what its judges import.
      "node_modules/zod": { symlink: dirname(fileURLToPath(import.meta.resolve("zod/package.json"))) },
    });
    const bundle = await bundleCodeJudge(join(directory, "judge.ts"), directory);
    expect(existsSync(marker)).toBe(false);
    expect(bundle.source).toContain(`"APPLE"`);
    expect(bundle.source).not.toContain('./helper.ts"');
    const zodVersion = (await import("zod/package.json")).version;
    // Builtins (node:fs) need no version; packages are recorded with the version installed.
    expect(bundle.dependencies).toEqual([{ name: "zod", version: zodVersion }]);
    expect(bundle.criteria).toBeNull();
  });

  it("gives the same identity from another checkout path, and a new one when a local import changes", async () => {
    const files = {
      "judge.ts": `import { expected } from "./helper.ts";\nexport default () => ({ scores: { ok: expected } });\n`,
      "helper.ts": "export const expected = true;\n",
    };
    const first = await writeTree(files);
    const second = await makeTempDir();
    await cp(first, second, { recursive: true });
    const a = await bundleCodeJudge(join(first, "judge.ts"), first);
    const b = await bundleCodeJudge(join(second, "judge.ts"), second);
    expect(b.identity).toBe(a.identity);
    await writeTree({ "helper.ts": "export const expected = false;\n" }, second);
    expect((await bundleCodeJudge(join(second, "judge.ts"), second)).identity).not.toBe(a.identity);
  });

  it("reads `export const criteria` without executing it", async () => {
    const directory = await writeTree({
      "judge.ts": `export const criteria = { json_shape: "JSON shape", other: { label: "Other" } } as const;\nexport default () => ({ scores: {} });\n`,
    });
    expect((await bundleCodeJudge(join(directory, "judge.ts"), directory)).criteria).toEqual([
      { id: "json_shape", label: "JSON shape", categories: [] },
      { id: "other", label: "Other", categories: [] },
    ]);
    const computed = await writeTree({
      "judge.ts": `const ids = ["a"];\nexport const criteria = ids.map((id) => id);\nexport default () => ({});\n`,
    });
    await expect(bundleCodeJudge(join(computed, "judge.ts"), computed)).rejects.toThrow(/must be a plain literal/);
  });

  it("reads criteria categories as keys and cuts them from the bundle, so they never change the identity", async () => {
    const judge = (categories: string) =>
      `export const criteria = {\n  ok: { label: "OK"${categories} },\n  other: { categories: ["x"], name: "Other" },\n} as const;\nexport default () => ({ scores: { ok: true } });\n`;
    const plain = await bundleCodeJudge(
      join(await writeTree({ "judge.ts": judge("").replace('categories: ["x"], ', "") }), "judge.ts"),
      null,
    );
    const categorized = await bundleCodeJudge(
      join(await writeTree({ "judge.ts": judge(`, categories: [" Speed", "speed", "Cost"] /* why */`) }), "judge.ts"),
      null,
    );
    expect(categorized.criteria).toEqual([
      { id: "ok", label: "OK", categories: ["speed", "cost"] },
      { id: "other", label: "Other", categories: ["x"] },
    ]);
    expect(categorized.source).not.toContain("categories");
    expect(categorized.identity).toBe(plain.identity);
  });

  it("refuses criteria categories that are not a list of allowed names, saying what is allowed", async () => {
    const notList = await writeTree({
      "judge.ts": `export const criteria = { ok: { categories: "speed" } };\nexport default () => ({});\n`,
    });
    await expect(bundleCodeJudge(join(notList, "judge.ts"), notList)).rejects.toThrow(
      'criterion "ok" in `export const criteria`: categories must be an array of names, e.g. ["speed"]',
    );
    const badName = await writeTree({
      "judge.ts": `export const criteria = { ok: { categories: ["a*b"] } };\nexport default () => ({});\n`,
    });
    await expect(bundleCodeJudge(join(badName, "judge.ts"), badName)).rejects.toThrow(
      'criterion "ok" in `export const criteria`: category "a*b" is not allowed; a category is 1–64 characters',
    );
  });

  it("reports a missing default export, a syntax error and a macro import", async () => {
    const noDefault = await writeTree({ "judge.ts": "export const grade = () => ({});\n" });
    await expect(bundleCodeJudge(join(noDefault, "judge.ts"), noDefault)).rejects.toThrow(/has no default export/);
    const syntax = await writeTree({ "judge.ts": "export default () => ({ scores: { ok: true } ;\n" });
    await expect(bundleCodeJudge(join(syntax, "judge.ts"), syntax)).rejects.toThrow(/does not compile: judge.ts:1:/);
    const macro = await writeTree({
      "judge.ts": `import { now } from "./m.ts" with { type: "macro" };\nexport default () => ({ scores: { t: now() > 0 } });\n`,
      "m.ts": "export const now = () => Date.now();\n",
    });
    await expect(bundleCodeJudge(join(macro, "judge.ts"), macro)).rejects.toThrow(/macro/);
  });

  describe("the bundle cache (loading a large benchmark)", () => {
    const helperJudge = {
      "judge.ts": `import { expected } from "./helper.ts";\nexport default () => ({ scores: { ok: expected } });\n`,
      "helper.ts": "export const expected = true;\n",
    };

    it("bundles unchanged files once: a second load takes the cached bundle, identical", async () => {
      const directory = await writeTree({
        ...helperJudge,
        "judge.ts": `${helperJudge["judge.ts"]}// ${Math.random()}\n`,
      });
      const build = vi.spyOn(Bun, "build");
      try {
        const first = await bundleCodeJudge(join(directory, "judge.ts"), directory);
        const second = await bundleCodeJudge(join(directory, "judge.ts"), directory);
        expect(build).toHaveBeenCalledTimes(1);
        expect(second).toEqual(first);
      } finally {
        build.mockRestore();
      }
    });

    it("never serves a bundle whose inlined file is gone", async () => {
      const directory = await writeTree(helperJudge);
      await bundleCodeJudge(join(directory, "judge.ts"), directory);
      await rm(join(directory, "helper.ts"));
      await expect(bundleCodeJudge(join(directory, "judge.ts"), directory)).rejects.toThrow(/does not compile/);
    });

    it("reads package versions again on a hit: a new version is a new identity", async () => {
      const pkg = (version: string) => ({
        "node_modules/leftpad-fixture/package.json": JSON.stringify({
          name: "leftpad-fixture",
          version,
          main: "index.js",
        }),
        "node_modules/leftpad-fixture/index.js": "export const pad = 1;\n",
      });
      const directory = await writeTree({
        "judge.ts": `import { pad } from "leftpad-fixture";\nexport default () => ({ scores: { ok: pad === 1 } });\n`,
        ...pkg("1.0.0"),
      });
      const before = await bundleCodeJudge(join(directory, "judge.ts"), directory);
      await writeTree(pkg("1.0.1"), directory);
      const after = await bundleCodeJudge(join(directory, "judge.ts"), directory);
      expect(before.dependencies).toEqual([{ name: "leftpad-fixture", version: "1.0.0" }]);
      expect(after.dependencies).toEqual([{ name: "leftpad-fixture", version: "1.0.1" }]);
      expect(after.source).toBe(before.source);
      expect(after.identity).not.toBe(before.identity);
    });
  });
});

describe("bundleCodeJudge: package imports", () => {
  it("refuses a package that does not resolve from the eval folder, naming the package and the importing file", async () => {
    const directory = await writeTree({
      "judge.ts": `import { grade } from "./lib/grade.ts";\nexport default grade;\n`,
      "lib/grade.ts": `import leftPad from "left-pad-not-installed-anywhere";\nexport const grade = () => ({ scores: { ok: leftPad("a", 2) === " a" } });\n`,
    });
    await expect(bundleCodeJudge(join(directory, "judge.ts"), directory)).rejects.toThrow(
      /imports "left-pad-not-installed-anywhere" \(imported by lib\/grade\.ts\), which cannot be resolved from .*; install it in the benchmark folder \(npm install left-pad-not-installed-anywhere\)/,
    );
  });

  it("accepts builtins and openeval itself (the grading harness provides it)", async () => {
    const directory = await writeTree({
      "judge.ts": `import { readFileSync } from "fs";\nimport { Database } from "bun:sqlite";\nimport { exactMatch } from "openeval/scorers";\nexport default (ctx) => ({ scores: { ok: exactMatch(ctx, "x").value === 1 && typeof readFileSync === "function" && typeof Database === "function" } });\n`,
    });
    expect(
      (await bundleCodeJudge(join(directory, "judge.ts"), directory)).dependencies.map((dependency) => dependency.name),
    ).toEqual(["openeval"]);
  });

  it("records openeval at the grading harness's version, also for an eval folder with no node_modules", async () => {
    const directory = await writeTree({
      "judge.ts": `import { exactMatch } from "openeval/scorers";\nexport default (ctx) => ({ scores: { ok: exactMatch(ctx, "x") } });\n`,
    });
    const harness = (await import("../../package.json")).version;
    expect((await bundleCodeJudge(join(directory, "judge.ts"), directory)).dependencies).toEqual([
      { name: "openeval", version: harness },
    ]);
  });

  it("refuses an openeval entry point that does not exist, naming the ones there are", async () => {
    const directory = await writeTree({
      "judge.ts": `import { exactMatch } from "openeval/scorer";\nexport default (ctx) => ({ scores: { ok: exactMatch(ctx, "x") } });\n`,
    });
    await expect(bundleCodeJudge(join(directory, "judge.ts"), directory)).rejects.toThrow(
      'imports "openeval/scorer" (imported by judge.ts), which openeval does not provide; import from openeval or openeval/scorers or openeval/viewer-api',
    );
  });
});
