import { describe, expect, it } from "vitest";
import { minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "../load/index.ts";
import { checkScope } from "./check-scope.ts";
import { candidateFingerprint, judgeFingerprint } from "./fingerprints.ts";
import { planSlots, type PlannedSlot } from "./plan-benchmark.ts";
import { recordAll } from "./fixtures/recorded-work.ts";

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const CASES = [
  { id: "one", input: { n: 1 }, expected: 1 },
  { id: "two", input: { n: 2 }, expected: 2 },
  { id: "three", input: { n: 3 }, expected: 3 },
];

async function benchmarkWith(cases: unknown[], directory?: string, overrides: Record<string, string> = {}) {
  const root = await writeTree(
    minimalBenchmark({
      "benchmark.ts": `export default { models: ["p/a", "p/b"], repetitions: 1 };\n`,
      "evals/answer/prompt.md": "Reply with {{{input.n}}}.\n",
      "evals/answer/cases.jsonl": cases.map(line).join(""),
      "evals/plain/prompt.md": "Reply {{as written}}.\n",
      "evals/plain/judge.ts": "export default () => ({ scores: { ok: true } });\n",
      ...overrides,
    }),
    directory,
  );
  return loadBenchmark(root);
}

const actions = (slots: readonly PlannedSlot[]) =>
  slots.map((slot) => `${slot.evalId}${slot.case ? `[${slot.case}]` : ""}/${slot.model}:${slot.action}`);

describe("slots per case", () => {
  it("an eval with 3 cases gives 3 × candidates slots, each with its own case; an eval without cases keeps its keys", async () => {
    const plan = planSlots(await benchmarkWith(CASES), { evalRuns: [], judgeRuns: [] });
    expect(actions(plan.slots)).toEqual([
      "answer[one]/p/a:candidate",
      "answer[one]/p/b:candidate",
      "answer[two]/p/a:candidate",
      "answer[two]/p/b:candidate",
      "answer[three]/p/a:candidate",
      "answer[three]/p/b:candidate",
      "plain/p/a:candidate",
      "plain/p/b:candidate",
    ]);
    expect(plan.slots.filter((slot) => slot.evalId === "plain").every((slot) => !("case" in slot))).toBe(true);
    // Each case's prompt is its own: the slots of two cases never share a candidate fingerprint.
    expect(new Set(plan.slots.map((slot) => slot.candidateFingerprint)).size).toBe(8);
  });

  it("editing case two's input plans candidates for case two only; its expected value, judging for case two only", async () => {
    const original = await benchmarkWith(CASES);
    const recorded = recordAll(planSlots(original, { evalRuns: [], judgeRuns: [] }).slots);
    const inputEdited = await benchmarkWith(
      [CASES[0], { ...CASES[1], input: { n: 22 } }, CASES[2]],
      original.directory,
    );
    expect(actions(planSlots(inputEdited, recorded).slots)).toEqual([
      "answer[one]/p/a:reuse",
      "answer[one]/p/b:reuse",
      "answer[two]/p/a:candidate",
      "answer[two]/p/b:candidate",
      "answer[three]/p/a:reuse",
      "answer[three]/p/b:reuse",
      "plain/p/a:reuse",
      "plain/p/b:reuse",
    ]);
    const expectedEdited = await benchmarkWith(
      [CASES[0], { ...CASES[1], expected: 20, tags: ["hard"] }, CASES[2]],
      original.directory,
    );
    expect(actions(planSlots(expectedEdited, recorded).slots).filter((action) => !action.endsWith("reuse"))).toEqual([
      "answer[two]/p/a:judge",
      "answer[two]/p/b:judge",
    ]);
  });

  it("adding a case runs only the new one; removing one drops its slots from the plan", async () => {
    const original = await benchmarkWith(CASES);
    const recorded = recordAll(planSlots(original, { evalRuns: [], judgeRuns: [] }).slots);
    const added = await benchmarkWith([...CASES, { id: "four", input: { n: 4 } }], original.directory);
    expect(actions(planSlots(added, recorded).slots).filter((action) => !action.endsWith("reuse"))).toEqual([
      "answer[four]/p/a:candidate",
      "answer[four]/p/b:candidate",
    ]);
    const removed = await benchmarkWith([CASES[0], CASES[2]], original.directory);
    expect(actions(planSlots(removed, recorded).slots)).toEqual([
      "answer[one]/p/a:reuse",
      "answer[one]/p/b:reuse",
      "answer[three]/p/a:reuse",
      "answer[three]/p/b:reuse",
      "plain/p/a:reuse",
      "plain/p/b:reuse",
    ]);
  });

  it("editing one case's overlay re-runs that case's candidates only", async () => {
    const original = await benchmarkWith(CASES, undefined, { "evals/answer/cases/two/data.txt": "2\n" });
    const recorded = recordAll(planSlots(original, { evalRuns: [], judgeRuns: [] }).slots);
    const edited = await benchmarkWith(CASES, original.directory, { "evals/answer/cases/two/data.txt": "22\n" });
    expect(actions(planSlots(edited, recorded).slots).filter((action) => !action.endsWith("reuse"))).toEqual([
      "answer[two]/p/a:candidate",
      "answer[two]/p/b:candidate",
    ]);
  });

  it("--only-case scopes the run to those cases (the rest, evals without cases too, wait out of scope); an unknown id is an error", async () => {
    const benchmark = await benchmarkWith(CASES);
    const plan = planSlots(benchmark, { evalRuns: [], judgeRuns: [] }, { onlyCases: ["two"] });
    expect(
      plan.slots.filter((slot) => slot.action === "candidate").map((slot) => `${slot.case}/${slot.model}`),
    ).toEqual(["two/p/a", "two/p/b"]);
    expect(plan.slots.filter((slot) => slot.deferredBy === "scope")).toHaveLength(6);
    expect(() => checkScope(benchmark, { onlyCases: ["two", "twoo"] })).toThrow(
      '--only-case "twoo" matches no case; the valid values are: one, two, three',
    );
    expect(() => checkScope(benchmark, { onlyEvals: ["plain"], onlyCases: ["two"] })).toThrow(
      '--only-case "two" matches no case; the valid values are: (none)',
    );
  });
});

describe("fingerprints of a case", () => {
  it("the candidate's take the rendered prompt, the case's id, input and overlay; the judge's its id, expected value and tags", async () => {
    const benchmark = await benchmarkWith(CASES);
    const evaluation = benchmark.evals[0]!;
    const [one, two] = evaluation.cases!;
    const candidate = (item: typeof one) =>
      candidateFingerprint(evaluation, "p/a", benchmark.settings, undefined, undefined, item);
    const judge = (item: typeof one) => judgeFingerprint(evaluation, benchmark.settings, null, item);
    expect(candidate(one!)).not.toBe(candidate(two!));
    expect(candidate({ ...one!, expected: 99, tags: ["x"] })).toBe(candidate(one!));
    expect(candidate({ ...one!, input: { n: 1, extra: true } })).not.toBe(candidate(one!));
    expect(candidate({ ...one!, overlay: { path: "cases/one", hash: "h" } })).not.toBe(candidate(one!));
    expect(judge({ ...one!, input: { n: 5 } })).toBe(judge(one!));
    expect(judge({ ...one!, expected: 99 })).not.toBe(judge(one!));
    expect(judge({ ...one!, tags: ["regression"] })).not.toBe(judge(one!));
  });
});
