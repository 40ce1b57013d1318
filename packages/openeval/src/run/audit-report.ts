// What an audit concludes for one eval from its controls' results: an eval is hackable when an attack earns as much
// as its reference (a positive control or the oracle, a real solution), and robust when every attack earns less.
// Without a judged reference it is never called robust. docs/guide/audit.md.
import type { IntegrityFindingKind, IntegritySeverity } from "../load/index.ts";
import type { AttackName, PlannedAttack } from "./audit-attacks.ts";

/** What the audit runs for one eval, decided before anything runs. */
export interface EvalAuditPlan {
  evalId: string;
  /** Why the eval is not audited (its judge cannot grade attacks); null when it is. */
  notAudited: string | null;
  /** Its reference controls (control/positive…, control/oracle), as models. */
  references: string[];
  attacks: PlannedAttack[];
}

/** A control's result on one eval: its mean credit and what the integrity check found in its recording. */
export interface ControlResult {
  score: number | null;
  criteria: Record<string, number | null>;
  findings: AuditFinding[];
}

export interface AuditFinding {
  kind: IntegrityFindingKind;
  severity: IntegritySeverity;
  subject: string;
  detail: string;
}

export const AUDIT_STATUSES = [
  "hackable",
  "robust",
  "no-reference",
  "reference-failed",
  "incomplete",
  "not-audited",
] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];

export interface AttackOutcome {
  /** `control/attack-…` */
  model: string;
  description: string;
  applicable: boolean;
  /** Why it does not apply; null when it does. */
  reason: string | null;
  /** Mean credit over the eval's criteria; null when not applicable or not judged. */
  score: number | null;
  criteria: Record<string, number | null>;
  findings: AuditFinding[];
  /** A finding that fails the verdict was found: the integrity check would have caught it. */
  caught: boolean;
  /** It earned as much as the reference. */
  hacks: boolean;
}

export interface EvalAudit {
  evalId: string;
  status: AuditStatus;
  /** One sentence saying why. */
  note: string;
  /** The best reference score (null: none judged), and each reference control's. */
  reference: { score: number | null; controls: { model: string; score: number | null }[] };
  attacks: AttackOutcome[];
  /** The attacks that earned as much as the reference, as models. */
  hackedBy: string[];
}

/** Credits are means of fractions: equal within this. */
const EPSILON = 1e-9;

export function attackModel(name: AttackName): string {
  return `control/${name}`;
}

/**
 * @example decideEvalAudit(plan, (model) => results.get(model) ?? null)
 * // { evalId: "weak", status: "hackable", hackedBy: ["control/attack-prompt-output"], … }
 */
export function decideEvalAudit(plan: EvalAuditPlan, resultOf: (model: string) => ControlResult | null): EvalAudit {
  const controls = plan.references.map((model) => ({ model, score: resultOf(model)?.score ?? null }));
  const judged = controls.flatMap((control) => (control.score === null ? [] : [control.score]));
  const reference = { score: judged.length > 0 ? Math.max(...judged) : null, controls };
  // Nothing can earn more than full credit: an attack that earns it hacks the eval whatever the reference.
  const bar = reference.score !== null && reference.score > 0 ? reference.score : 1;
  const attacks = plan.attacks.map((attack) =>
    outcomeOf(attack, attack.applicable ? resultOf(attackModel(attack.name)) : null, bar),
  );
  const hackedBy = attacks.filter((attack) => attack.hacks).map((attack) => attack.model);
  const status = (status: AuditStatus, note: string): EvalAudit => ({
    evalId: plan.evalId,
    status,
    note,
    reference,
    attacks,
    hackedBy,
  });
  if (plan.notAudited !== null) return status("not-audited", plan.notAudited);
  if (hackedBy.length > 0) return status("hackable", describeHacks(attacks, reference.score));
  if (plan.references.length === 0)
    return status(
      "no-reference",
      "no reference: add controls/positive.json (a real solution) to compare the attacks with",
    );
  if (reference.score === null) return status("incomplete", "the reference control was not judged; run audit again");
  if (reference.score === 0)
    return status(
      "reference-failed",
      "the reference earned no credit, so no attack can be measured against it; check it with `openeval calibrate`",
    );
  const unjudged = attacks.filter((attack) => attack.applicable && attack.score === null);
  if (unjudged.length > 0)
    return status(
      "incomplete",
      `${unjudged.map((attack) => attack.model).join(", ")} ${unjudged.length === 1 ? "was" : "were"} not judged; run audit again`,
    );
  return status("robust", `every attack earned less than the reference (${reference.score.toFixed(2)})`);
}

function outcomeOf(attack: PlannedAttack, result: ControlResult | null, bar: number): AttackOutcome {
  const score = result?.score ?? null;
  const findings = result?.findings ?? [];
  return {
    model: attackModel(attack.name),
    description: attack.description,
    applicable: attack.applicable,
    reason: attack.applicable ? null : attack.reason,
    score,
    criteria: result?.criteria ?? {},
    findings,
    caught: findings.some((finding) => finding.severity === "fail"),
    hacks: score !== null && score >= bar - EPSILON,
  };
}

function describeHacks(attacks: readonly AttackOutcome[], reference: number | null): string {
  const against = reference === null ? "full credit" : `as much as the reference (${reference.toFixed(2)})`;
  return attacks
    .filter((attack) => attack.hacks)
    .map((attack) => {
      const failing = [
        ...new Set(attack.findings.filter((finding) => finding.severity === "fail").map((finding) => finding.kind)),
      ];
      const caught = attack.caught
        ? `caught by the integrity check (${failing.join(", ")})`
        : "not caught by the integrity check (no failing finding)";
      return `${attack.model} earned ${attack.score!.toFixed(2)}, ${against}; ${caught}`;
    })
    .join("; ");
}
