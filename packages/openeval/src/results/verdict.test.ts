import { describe, expect, it } from "vitest";
import type { Baseline } from "./baseline-schema.ts";
import { resolveGate } from "./gate-selection.ts";
import type { SlotObservation } from "./statistics.ts";
import { decideVerdict, type CriterionRef, type VerdictInput } from "./verdict.ts";
import type { InvariantStanding } from "./invariants-contributor.ts";

const observe = (
  evalId: string,
  repetition: number,
  scores: SlotObservation["scores"],
  model = "m/a",
): SlotObservation => ({
  evalId,
  model,
  variant: "current",
  repetition,
  scores,
  costUSD: 0.1,
  elapsedMs: 1000,
  executed: scores !== null,
  fresh: true,
});
// e: code-judged `tests` and rubric-judged `style`.
const criteria: Record<string, CriterionRef[]> = {
  e: [
    { id: "tests", source: "judge.ts" },
    { id: "style", source: "judge.md" },
  ],
};
/** A baseline in which e/m/a passed both criteria. */
const passingBaseline: Baseline = {
  format: "openeval.baseline",
  version: 1,
  runId: "old",
  createdAt: "2026-01-01T00:00:00.000Z",
  verdict: "pass",
  acceptedFailing: false,
  gate: [],
  entries: [
    { evalId: "e", model: "m/a", candidateFingerprints: [], judgeFingerprints: [], criteria: { tests: 1, style: 1 } },
  ],
};
const verdictOf = (observations: SlotObservation[], extra: Partial<VerdictInput> = {}) =>
  decideVerdict({ observations, criteria, ...extra });
const contributor = (verdict: ReturnType<typeof decideVerdict>, id: string) =>
  verdict.contributors.find((outcome) => outcome.id === id)!;

describe("decideVerdict", () => {
  it("passes when every enabled contributor passes (regression skipped without a baseline)", () => {
    const verdict = verdictOf([observe("e", 1, { tests: 1, style: 1 }), observe("e", 2, { tests: 1, style: 1 })]);
    expect(verdict).toMatchObject({ status: "pass", complete: true, unjudged: [] });
    expect(verdict.contributors.map((outcome) => [outcome.id, outcome.status])).toEqual([
      ["code-judge", "pass"],
      ["llm-judge", "pass"],
      ["gates", "pass"],
      ["regression", "skipped"],
      ["integrity", "pass"],
      ["invariants", "skipped"],
    ]);
  });

  it("AND over no enabled contributor passes, and says that nothing was gated", () => {
    const verdict = verdictOf([observe("e", 1, { tests: 0, style: 0 })], { enabled: [] });
    expect(verdict).toMatchObject({ status: "pass", gated: false });
    expect(verdict.contributors.every((outcome) => outcome.status === "skipped")).toBe(true);
  });

  it("with no real model's slot (a benchmark of controls only), passes over nothing: gated is false, no contributor counts 0 of 0", () => {
    const verdict = verdictOf([], { gates: {} });
    expect(verdict).toMatchObject({ status: "pass", complete: true, gated: false });
    expect(verdict.contributors.map((outcome) => [outcome.id, outcome.checked, outcome.word, outcome.detail])).toEqual([
      ["code-judge", 0, "nothing judged", "no judge.ts criterion of a real model to check"],
      ["llm-judge", 0, "nothing judged", "no judge.md criterion of a real model to check"],
      ["gates", 0, "nothing gated", "no gates configured"],
      ["regression", 0, "skipped", "no baseline; set one with openeval baseline set <run>"],
      ["integrity", 0, "nothing checked", "no judged slot of a real model to check"],
      ["invariants", 0, "skipped", "no invariants declared"],
    ]);
    const judged = verdictOf([observe("e", 1, { tests: 1, style: 1 })]);
    expect(judged.gated).toBe(true);
    expect(contributor(judged, "code-judge")).toMatchObject({
      checked: 1,
      detail: "1 of 1 judge.ts criterion cell(s) pass",
    });
  });

  it("keeps a judge whose criteria it learns from judgments undecided while its slots are unjudged, never a pass over nothing", () => {
    // The only slot failed before it was judged: judge.ts has told no criterion yet.
    const unjudged = decideVerdict({
      observations: [observe("e", 1, null)],
      criteria: { e: [] },
      judges: { e: ["judge.ts"] },
    });
    expect(contributor(unjudged, "code-judge")).toEqual({
      id: "code-judge",
      status: "unknown",
      word: "unknown",
      failing: [],
      unresolved: ["e/m/a#1"],
      checked: 0,
      detail: "nothing judged yet: 0 of 1 slot(s) of real models with a judge.ts judged",
      advisory: [],
    });
    expect(contributor(unjudged, "llm-judge")).toMatchObject({ status: "pass", word: "nothing judged" });
    expect(unjudged.status).toBe("unknown");
  });

  it("fails code-judge, naming <eval>/<model>/<criterion>, when a judge.ts criterion misses full credit in a repetition", () => {
    const verdict = verdictOf([observe("e", 1, { tests: 1, style: 1 }), observe("e", 2, { tests: 0, style: 1 })]);
    expect(verdict.status).toBe("fail");
    expect(contributor(verdict, "code-judge")).toMatchObject({ status: "fail", failing: ["e/m/a/tests"] });
    expect(contributor(verdict, "llm-judge")).toMatchObject({ status: "pass", failing: [] });
  });

  it("routes judge.md criteria to llm-judge, which --no-llm-judge takes out of the verdict", () => {
    const observations = [observe("e", 1, { tests: 1, style: 0.5 })];
    expect(contributor(verdictOf(observations), "llm-judge")).toMatchObject({
      status: "fail",
      failing: ["e/m/a/style"],
    });
    const without = verdictOf(observations, { enabled: resolveGate({ noLlmJudge: true }) });
    expect(without.status).toBe("pass");
    expect(contributor(without, "llm-judge").status).toBe("skipped");
  });

  it("uses gates.criteria.<id>.min as the pass mark when set", () => {
    const observations = [observe("e", 1, { tests: 1, style: 0.8 })];
    expect(verdictOf(observations, { gates: { criteria: { style: { min: 0.8 } } } }).status).toBe("pass");
    expect(verdictOf(observations, { gates: { criteria: { style: { min: 0.81 } } } }).status).toBe("fail");
  });

  it("fails the gates contributor with the failing gates, and is unknown on an undecided gate", () => {
    const observations = [observe("e", 1, { tests: 1, style: 0.5 })];
    const failing = verdictOf(observations, { gates: { score: { min: 0.8 } }, enabled: ["gates"] });
    expect(contributor(failing, "gates")).toMatchObject({ status: "fail", failing: ["score.min (m/a)"] });
    expect(failing.gates[0]).toMatchObject({ id: "score.min", status: "fail", actual: 0.75 });
    const reused = verdictOf(
      observations.map((observation) => ({ ...observation, fresh: false })),
      { gates: { latency: { p95Ms: 5000 } }, enabled: ["gates"] },
    );
    expect(reused).toMatchObject({ status: "unknown", complete: true });
    expect(contributor(reused, "gates").unresolved).toEqual(["latency.p95Ms"]);
  });

  it("reports completeness apart: an unjudged slot leaves the verdict unknown, unless a failure is already final", () => {
    const pending = verdictOf([observe("e", 1, { tests: 1, style: 1 }), observe("e", 2, null)]);
    expect(pending).toMatchObject({ status: "unknown", complete: false, unjudged: ["e/m/a#2"] });
    expect(contributor(pending, "code-judge").unresolved).toEqual(["e/m/a/tests"]);
    const lost = verdictOf([observe("e", 1, { tests: 0, style: 1 }), observe("e", 2, null)]);
    expect(lost).toMatchObject({ status: "fail", complete: false });
  });

  it("fails regression for a criterion that passed in the baseline and fails now", () => {
    const verdict = verdictOf([observe("e", 1, { tests: 0, style: 1 })], {
      baseline: passingBaseline,
      enabled: ["regression"],
    });
    expect(contributor(verdict, "regression")).toMatchObject({ status: "fail", failing: ["e/m/a/tests"] });
    expect(verdict.status).toBe("fail");
  });
  describe("unreliable criteria", () => {
    const unreliable = [{ evalId: "e", criterionId: "style" }];
    const failingStyle = [observe("e", 1, { tests: 1, style: 0 }), observe("e", 2, { tests: 1, style: 0 })];

    it("a failing unreliable criterion is advisory: it does not fail llm-judge, and the verdict says what it changed", () => {
      const verdict = verdictOf(failingStyle, { unreliable });
      expect(verdict.status).toBe("pass");
      expect(contributor(verdict, "llm-judge")).toMatchObject({
        status: "pass",
        failing: [],
        advisory: ["e/m/a/style"],
        detail: "0 of 1 judge.md criterion cell(s) pass; 1 advisory failure(s) of unreliable criteria",
      });
      expect(verdict.agreement).toEqual({
        unreliable: ["e/style"],
        strict: false,
        changed: { gates: 0, cells: 1, regressions: 0 },
      });
    });

    it("a cell a person reviewed is not advisory: the review, not the disagreeing judges, decided it", () => {
      const reviewed = failingStyle.map((slot, index) => (index === 0 ? { ...slot, reviewed: ["style"] } : slot));
      const verdict = verdictOf(reviewed, { unreliable });
      expect(verdict.status).toBe("fail");
      expect(contributor(verdict, "llm-judge")).toMatchObject({ failing: ["e/m/a/style"], advisory: [] });
    });

    it("with judge.strict it fails as any criterion does, and changes nothing", () => {
      const verdict = verdictOf(failingStyle, { unreliable, strict: true });
      expect(verdict.status).toBe("fail");
      expect(contributor(verdict, "llm-judge").failing).toEqual(["e/m/a/style"]);
      expect(verdict.agreement!.changed).toEqual({ gates: 0, cells: 0, regressions: 0 });
    });

    it("a gate that fails only through an unreliable criterion is advisory; one that fails anyway still fails", () => {
      const gates = { score: { min: 0.75 }, criteria: { style: { min: 0.5 } } };
      const verdict = verdictOf(failingStyle, { unreliable, gates, enabled: ["gates"] });
      expect(verdict.gates.map((gate) => [gate.id, gate.status, gate.advisory ?? false])).toEqual([
        ["score.min", "pass", true],
        ["criteria.style.min", "pass", true],
      ]);
      expect(verdict.status).toBe("pass");
      expect(verdict.agreement!.changed.gates).toBe(2);
      const failingBoth = [observe("e", 1, { tests: 0, style: 0 })];
      const still = verdictOf(failingBoth, { unreliable, gates: { score: { min: 0.75 } }, enabled: ["gates"] });
      expect(still.gates[0]).toMatchObject({ status: "fail" });
      expect(still.gates[0]!.advisory).toBeUndefined();
      expect(still.status).toBe("fail");
    });

    it("a regression of an unreliable criterion is advisory", () => {
      const verdict = verdictOf(failingStyle, { baseline: passingBaseline, unreliable, enabled: ["regression"] });
      expect(contributor(verdict, "regression")).toMatchObject({
        status: "pass",
        failing: [],
        advisory: ["e/m/a/style"],
      });
      expect(verdict.agreement!.changed.regressions).toBe(1);
    });
  });

  describe("integrity", () => {
    const protectedEdit = {
      kind: "protected_path_changed" as const,
      subject: "tests/test_app.py",
      detail: "changed tests/test_app.py, which the eval protects (tests/**)",
      citation: { kind: "tool" as const, id: "call_1" },
    };
    const refused = {
      kind: "network_refused" as const,
      subject: "answers.example.invalid:443",
      detail: "tried to reach answers.example.invalid:443; the egress proxy refused it",
      citation: { kind: "egress" as const, index: 0 },
    };
    const checkedSlot = (repetition: number, integrityFindings: SlotObservation["integrityFindings"]) => ({
      ...observe("e", repetition, { tests: 1, style: 1 }),
      integrityFindings,
    });

    it("fails on a finding of a failing kind, naming the slot and the finding, while the scores still pass", () => {
      const verdict = verdictOf([checkedSlot(1, [protectedEdit]), checkedSlot(2, [])]);
      expect(verdict.status).toBe("fail");
      expect(contributor(verdict, "code-judge").status).toBe("pass");
      expect(contributor(verdict, "integrity")).toMatchObject({
        status: "fail",
        failing: ["e/m/a#1: protected_path_changed tests/test_app.py"],
        checked: 2,
        detail: "1 of 2 judged slot(s) without a failing finding",
      });
    });

    it("only warns for the other kinds by default, and fails on them when benchmark.ts says so", () => {
      const slots = [checkedSlot(1, [refused])];
      expect(contributor(verdictOf(slots), "integrity")).toMatchObject({
        status: "pass",
        detail: "1 of 1 judged slot(s) without a failing finding; 1 warning finding(s)",
      });
      const strict = verdictOf(slots, { integrity: { fail: ["network_refused"] } });
      expect(contributor(strict, "integrity")).toMatchObject({
        status: "fail",
        failing: ["e/m/a#1: network_refused answers.example.invalid:443"],
      });
      const lenient = verdictOf([checkedSlot(1, [protectedEdit])], { integrity: { warn: ["protected_path_changed"] } });
      expect(contributor(lenient, "integrity").status).toBe("pass");
    });

    it("counts slots graded before the check apart, and is skipped with --no-integrity", () => {
      const verdict = verdictOf([observe("e", 1, { tests: 1, style: 1 }), checkedSlot(2, [])]);
      expect(contributor(verdict, "integrity")).toMatchObject({
        status: "pass",
        checked: 1,
        detail: "1 of 1 judged slot(s) without a failing finding; 1 graded before the integrity check",
      });
      const off = verdictOf([checkedSlot(1, [protectedEdit])], { enabled: resolveGate({ noIntegrity: true }) });
      expect(off.status).toBe("pass");
      expect(contributor(off, "integrity").status).toBe("skipped");
    });
  });

  describe("invariants", () => {
    const judged = [observe("e", 1, { tests: 1, style: 1 })];
    const standing = (id: string, status: InvariantStanding["status"], extra: Partial<InvariantStanding> = {}) => ({
      id,
      status,
      exitCode: status === "holds" ? 0 : status === "violated" ? 1 : null,
      reason: null,
      ...extra,
    });

    it("fails naming the violated and unevaluable invariants, with why in its detail", () => {
      const verdict = verdictOf(judged, {
        invariants: {
          standings: [
            standing("cost-cap", "holds"),
            standing("no-todo", "violated", { exitCode: 3 }),
            standing("hangs", "unevaluable", { reason: "it did not finish within its timeoutMs (1000 ms)" }),
          ],
          manifestProblem: null,
        },
      });
      expect(verdict.status).toBe("fail");
      expect(contributor(verdict, "invariants")).toMatchObject({
        status: "fail",
        failing: ["no-todo", "hangs"],
        checked: 3,
        detail:
          "1 of 3 invariant(s) hold; no-todo violated (exit code 3); hangs unevaluable: it did not finish within its timeoutMs (1000 ms)",
      });
    });

    it("passes when every invariant holds, and stays undecided while one is not evaluated", () => {
      const holding = verdictOf(judged, {
        invariants: { standings: [standing("a", "holds"), standing("b", "holds")], manifestProblem: null },
      });
      expect(contributor(holding, "invariants")).toMatchObject({ status: "pass", word: "pass", checked: 2 });
      expect(holding.status).toBe("pass");
      const offline = verdictOf(judged, {
        invariants: {
          standings: [standing("a", "holds"), standing("b", "not-evaluated", { reason: "--offline" })],
          manifestProblem: null,
        },
      });
      expect(contributor(offline, "invariants")).toMatchObject({ status: "unknown", unresolved: ["b"] });
      expect(offline.status).toBe("unknown");
    });

    it("fails when the manifest cannot be loaded, and is skipped when not enabled or none is declared", () => {
      const broken = verdictOf(judged, { invariants: { standings: [], manifestProblem: "[0].argv: empty" } });
      expect(contributor(broken, "invariants")).toMatchObject({
        status: "fail",
        failing: ["manifest"],
        detail: "the invariants manifest could not be loaded: [0].argv: empty",
      });
      const violated = { standings: [standing("a", "violated")], manifestProblem: null };
      const off = verdictOf(judged, { invariants: violated, enabled: resolveGate({ noInvariants: true }) });
      expect(contributor(off, "invariants")).toMatchObject({ status: "skipped", detail: "not enabled" });
      expect(off.status).toBe("pass");
      expect(
        contributor(verdictOf(judged, { invariants: { standings: [], manifestProblem: null } }), "invariants"),
      ).toMatchObject({ status: "skipped", detail: "no invariants declared" });
    });
  });
});
