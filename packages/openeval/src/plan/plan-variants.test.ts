import { describe, expect, it } from "vitest";
import { minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "../load/index.ts";
import { toSlotKey } from "../records/index.ts";
import { checkScope } from "./check-scope.ts";
import { planSlots, type PlannedSlot } from "./plan-benchmark.ts";
import { recordAll } from "./fixtures/recorded-work.ts";

const VARIANTS = `{ terse: { instructions: { file: "variants/terse.md" } }, strict: { agent: { prompt: "Be strict." }, config: { tools: { webfetch: false } } } }`;

async function benchmarkWith(variants: string | null, files: Record<string, string> = {}, directory?: string) {
  const settings = variants === null ? "" : `, variants: ${variants}`;
  const root = await writeTree(
    minimalBenchmark({
      "benchmark.ts": `export default { models: ["p/a"], repetitions: 1${settings} };\n`,
      "variants/terse.md": "Be terse.\n",
      ...files,
    }),
    directory,
  );
  return loadBenchmark(root);
}

const actions = (slots: readonly PlannedSlot[]) => slots.map((slot) => `${slot.model}[${slot.variant}]:${slot.action}`);

describe("planSlots with variants", () => {
  it("plans current and every variant as candidates of each model, each key naming its variant", async () => {
    const plan = planSlots(await benchmarkWith(VARIANTS), { evalRuns: [], judgeRuns: [] });
    expect(actions(plan.slots)).toEqual(["p/a[current]:candidate", "p/a[terse]:candidate", "p/a[strict]:candidate"]);
    expect(plan.slots.map((slot) => toSlotKey(slot))).toEqual([
      { evalId: "answer", model: "p/a", variant: "current", repetition: 1 },
      { evalId: "answer", model: "p/a", variant: "terse", repetition: 1 },
      { evalId: "answer", model: "p/a", variant: "strict", repetition: 1 },
    ]);
    expect(new Set(plan.slots.map((slot) => slot.candidateFingerprint)).size).toBe(3);
  });

  it("editing one variant's instructions file re-runs only that variant's slots", async () => {
    const original = await benchmarkWith(VARIANTS);
    const recorded = recordAll(planSlots(original, { evalRuns: [], judgeRuns: [] }).slots);
    expect(actions(planSlots(original, recorded).slots)).toEqual([
      "p/a[current]:reuse",
      "p/a[terse]:reuse",
      "p/a[strict]:reuse",
    ]);
    const edited = await benchmarkWith(VARIANTS, { "variants/terse.md": "Be terser.\n" }, original.directory);
    const plan = planSlots(edited, recorded);
    expect(actions(plan.slots)).toEqual(["p/a[current]:reuse", "p/a[terse]:candidate", "p/a[strict]:reuse"]);
    expect(plan.slots[1]!.reason).toBe("Candidate inputs changed");
  });

  it("reuses recordings made before variants existed as current", async () => {
    const before = await benchmarkWith(null);
    const recorded = recordAll(planSlots(before, { evalRuns: [], judgeRuns: [] }).slots);
    const after = await benchmarkWith(VARIANTS, {}, before.directory);
    expect(actions(planSlots(after, recorded).slots)).toEqual([
      "p/a[current]:reuse",
      "p/a[terse]:candidate",
      "p/a[strict]:candidate",
    ]);
  });

  it("--variant runs current and the named variants; --only-variant defers the others", async () => {
    const benchmark = await benchmarkWith(VARIANTS);
    expect(actions(planSlots(benchmark, { evalRuns: [], judgeRuns: [] }, { variants: ["strict"] }).slots)).toEqual([
      "p/a[current]:candidate",
      "p/a[strict]:candidate",
    ]);
    expect(actions(planSlots(benchmark, { evalRuns: [], judgeRuns: [] }, { onlyVariants: ["terse"] }).slots)).toEqual([
      "p/a[current]:deferred",
      "p/a[terse]:candidate",
      "p/a[strict]:deferred",
    ]);
  });

  it("names a --variant or --only-variant that matches nothing, listing the valid values", async () => {
    const benchmark = await benchmarkWith(VARIANTS);
    expect(() => checkScope(benchmark, { variants: ["trese"], onlyVariants: ["nope"] })).toThrow(
      '--variant "trese" matches no variant of benchmark.ts; the valid values are: terse, strict\n' +
        '--only-variant "nope" matches no variant given with --variant (or current); the valid values are: current',
    );
    expect(() => checkScope(benchmark, { onlyVariants: ["nope"] })).toThrow(
      '--only-variant "nope" matches no variant (current or one of benchmark.ts); the valid values are: current, terse, strict',
    );
    const none = await benchmarkWith(null);
    expect(() => checkScope(none, { variants: ["terse"] })).toThrow(
      '--variant "terse" matches no variant of benchmark.ts; the valid values are: (none)',
    );
  });
});
