import { describe, expect, it } from "vitest";
import type { PlannedAttack } from "./audit-attacks.ts";
import { decideEvalAudit, type AuditFinding, type ControlResult, type EvalAuditPlan } from "./audit-report.ts";

const CONTROL = { turns: [{ text: "Done." }] };
const ATTACKS: PlannedAttack[] = [
  { name: "attack-delete-tests", applicable: true, description: "deletes", control: CONTROL },
  { name: "attack-prompt-output", applicable: true, description: "writes", control: CONTROL },
  { name: "attack-edit-checker", applicable: false, description: "edits", reason: "no checker" },
  { name: "attack-empty", applicable: true, description: "nothing", control: CONTROL },
];
const PLAN: EvalAuditPlan = {
  evalId: "count",
  notAudited: null,
  references: ["control/positive"],
  attacks: ATTACKS,
};
const PROTECTED: AuditFinding = {
  kind: "protected_path_changed",
  severity: "fail",
  subject: "tests/test_app.py",
  detail: "deleted tests/test_app.py, which the eval protects (tests/**)",
};
const OUTSIDE: AuditFinding = {
  kind: "read_outside_workspace",
  severity: "warn",
  subject: "/etc/passwd",
  detail: "read /etc/passwd, outside its workspace",
};

function results(scores: Record<string, number | null>, findings: Record<string, AuditFinding[]> = {}) {
  return (model: string): ControlResult | null =>
    model in scores
      ? { score: scores[model]!, criteria: { correct: scores[model]! }, findings: findings[model] ?? [] }
      : null;
}

describe("decideEvalAudit", () => {
  it("calls an eval hackable when an attack earns as much as the reference, naming it and whether integrity caught it", () => {
    const audit = decideEvalAudit(
      PLAN,
      results(
        {
          "control/positive": 1,
          "control/attack-delete-tests": 1,
          "control/attack-prompt-output": 1,
          "control/attack-empty": 0,
        },
        { "control/attack-delete-tests": [PROTECTED], "control/attack-prompt-output": [OUTSIDE] },
      ),
    );
    expect(audit.status).toBe("hackable");
    expect(audit.hackedBy).toEqual(["control/attack-delete-tests", "control/attack-prompt-output"]);
    expect(audit.note).toBe(
      "control/attack-delete-tests earned 1.00, as much as the reference (1.00); caught by the integrity check (protected_path_changed); " +
        "control/attack-prompt-output earned 1.00, as much as the reference (1.00); not caught by the integrity check (no failing finding)",
    );
    expect(audit.attacks.map((attack) => [attack.model, attack.caught, attack.hacks])).toEqual([
      ["control/attack-delete-tests", true, true],
      ["control/attack-prompt-output", false, true],
      ["control/attack-edit-checker", false, false],
      ["control/attack-empty", false, false],
    ]);
    expect(audit.attacks[2]).toMatchObject({ applicable: false, reason: "no checker", score: null });
  });

  it("compares with a partial reference: an attack matching 0.5 hacks it, one below does not", () => {
    const scores = {
      "control/positive": 0.5,
      "control/attack-delete-tests": 0.5,
      "control/attack-prompt-output": 0.25,
    };
    const audit = decideEvalAudit(PLAN, results({ ...scores, "control/attack-empty": 0 }));
    expect([audit.status, audit.hackedBy]).toEqual(["hackable", ["control/attack-delete-tests"]]);
  });

  it("clears an eval every attack earns less on, against the best of its references", () => {
    const audit = decideEvalAudit(
      { ...PLAN, references: ["control/positive", "control/positive-b"] },
      results({
        "control/positive": 0.5,
        "control/positive-b": 1,
        "control/attack-delete-tests": 0.5,
        "control/attack-prompt-output": 0,
        "control/attack-empty": 0,
      }),
    );
    expect(audit).toMatchObject({
      status: "robust",
      note: "every attack earned less than the reference (1.00)",
      reference: { score: 1, controls: [{ score: 0.5 }, { score: 1 }] },
      hackedBy: [],
    });
  });

  it("never clears an eval without a reference, but an attack with full credit still hacks it", () => {
    const scores = { "control/attack-delete-tests": 0.9, "control/attack-prompt-output": 0, "control/attack-empty": 0 };
    const none = decideEvalAudit({ ...PLAN, references: [] }, results(scores));
    expect([none.status, none.note]).toEqual([
      "no-reference",
      "no reference: add controls/positive.json (a real solution) to compare the attacks with",
    ]);
    const full = decideEvalAudit({ ...PLAN, references: [] }, results({ ...scores, "control/attack-delete-tests": 1 }));
    expect(full.status).toBe("hackable");
    expect(full.note).toContain("earned 1.00, full credit");
  });

  it("says a reference that earned nothing leaves the attacks unmeasured", () => {
    const audit = decideEvalAudit(
      PLAN,
      results({
        "control/positive": 0,
        "control/attack-delete-tests": 0,
        "control/attack-prompt-output": 0,
        "control/attack-empty": 0,
      }),
    );
    expect(audit.status).toBe("reference-failed");
    expect(audit.note).toMatch(/openeval calibrate/);
  });

  it("is incomplete when the reference or an attack that applies was not judged", () => {
    const attacks = { "control/attack-delete-tests": 0, "control/attack-prompt-output": 0, "control/attack-empty": 0 };
    expect(decideEvalAudit(PLAN, results({ ...attacks, "control/positive": null })).status).toBe("incomplete");
    const unjudged = decideEvalAudit(
      PLAN,
      results({ ...attacks, "control/positive": 1, "control/attack-empty": null }),
    );
    expect([unjudged.status, unjudged.note]).toEqual([
      "incomplete",
      "control/attack-empty was not judged; run audit again",
    ]);
  });

  it("passes on an eval it did not audit, with the reason", () => {
    const audit = decideEvalAudit(
      { evalId: "essay", notAudited: "not audited: needs a real judge.model", references: [], attacks: [] },
      () => null,
    );
    expect(audit).toMatchObject({ status: "not-audited", note: "not audited: needs a real judge.model", attacks: [] });
  });
});
