import { describe, expect, it } from "vitest";
import { minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "./load-benchmark.ts";
import { loadProblems } from "./fixtures/load-problems.ts";

function benchmarkWith(variants: string, files: Record<string, string> = {}) {
  return writeTree(
    minimalBenchmark({
      "benchmark.ts": `export default { models: ["provider/model"], repetitions: 1, variants: ${variants} };\n`,
      ...files,
    }),
  );
}

async function problemsOf(variants: string): Promise<string[]> {
  return loadProblems(await benchmarkWith(variants));
}

describe("benchmark.ts variants", () => {
  it("reads each variant's files, so their contents are part of its definition", async () => {
    const directory = await benchmarkWith(
      `{ terse: { instructions: { file: "variants/terse.md" }, agent: { prompt: "Be brief.", steps: 5 }, config: { tools: { webfetch: false } },
         files: { "config/skills/plan/SKILL.md": { file: "variants/skill.md" }, "workspace/NOTES.md": "inline" } }, plain: { instructions: "Say less." } }`,
      { "variants/terse.md": "Answer tersely.\n", "variants/skill.md": "---\nname: plan\n---\n" },
    );
    const benchmark = await loadBenchmark(directory);
    expect(benchmark.variants).toEqual([
      {
        name: "terse",
        instructions: "Answer tersely.\n",
        agent: { prompt: "Be brief.", steps: 5 },
        config: { tools: { webfetch: false } },
        files: { "config/skills/plan/SKILL.md": "---\nname: plan\n---\n", "workspace/NOTES.md": "inline" },
      },
      { name: "plain", instructions: "Say less.", agent: null, config: null, files: {} },
    ]);
  });

  it("has no variants unless benchmark.ts lists some", async () => {
    expect((await loadBenchmark(await writeTree(minimalBenchmark()))).variants).toEqual([]);
  });

  it("refuses reserved names, unknown keys and unreadable files, naming the variant and the key", async () => {
    expect(await problemsOf(`{ current: {}, baseline: {}, "bad name": {} }`)).toEqual([
      'benchmark.ts: variants.current: "current" is a reserved variant name (current runs without overrides, baseline is an accepted run); rename the variant',
      'benchmark.ts: variants.baseline: "baseline" is a reserved variant name (current runs without overrides, baseline is an accepted run); rename the variant',
      'benchmark.ts: variants.bad name: variant names use only letters, digits, ".", "_" and "-"',
    ]);
    expect(await problemsOf(`{ terse: { instruction: "x" } }`)).toEqual([
      'benchmark.ts: variants.terse: unknown key "instruction"; remove or correct it',
    ]);
    expect(await problemsOf(`{ terse: { instructions: { file: "missing.md" } } }`)).toEqual([
      'benchmark.ts: variants.terse.instructions: cannot read "missing.md" (ENOENT); give a readable file, relative to the benchmark folder',
    ]);
    expect(await problemsOf(`{ terse: { files: { "home/.bashrc": "x", "workspace/../out": "y" } } }`)).toEqual([
      'benchmark.ts: variants.terse.files.home/.bashrc: each path must start with "workspace/" or "config/" and hold no empty, "." or ".." segment',
      'benchmark.ts: variants.terse.files.workspace/../out: each path must start with "workspace/" or "config/" and hold no empty, "." or ".." segment',
    ]);
  });

  it("refuses overlays that would change the provider, credentials, model or isolation", async () => {
    expect(
      await problemsOf(`{ sneaky: { config: { provider: {}, share: "auto", plugin: ["x"], instructions: ["~/notes.md"], mcp: {} }, agent: { model: "other/model" },
      files: { "workspace/.git/config": "x", "config/opencode.json": "{}", "config/AGENTS.md": "x", "workspace/.opencode/package.json": "{}" } } }`),
    ).toEqual([
      'benchmark.ts: variants.sneaky.config.provider: a variant cannot set "provider": providers and their credentials come from candidate.providers and the user\'s credentials',
      'benchmark.ts: variants.sneaky.config.share: a variant cannot set "share": the harness enforces it for isolation and recording',
      'benchmark.ts: variants.sneaky.config.plugin: a variant cannot set "plugin": candidates run with --pure: no external plugins are loaded or installed while a candidate runs',
      "benchmark.ts: variants.sneaky.config.instructions: a variant cannot set \"instructions\": its paths would reach outside the candidate's isolation; use the variant's instructions",
      "benchmark.ts: variants.sneaky.agent.model: a variant cannot change the model: list models in models (a candidate is model × variant)",
      "benchmark.ts: variants.sneaky.files.workspace/.git/config: the harness writes this file (isolation, OpenCode config or instructions); use the variant's config or instructions instead",
      "benchmark.ts: variants.sneaky.files.config/opencode.json: the harness writes this file (isolation, OpenCode config or instructions); use the variant's config or instructions instead",
      "benchmark.ts: variants.sneaky.files.config/AGENTS.md: the harness writes this file (isolation, OpenCode config or instructions); use the variant's config or instructions instead",
      "benchmark.ts: variants.sneaky.files.workspace/.opencode/package.json: the harness writes this file (isolation, OpenCode config or instructions); use the variant's config or instructions instead",
    ]);
  });
});
