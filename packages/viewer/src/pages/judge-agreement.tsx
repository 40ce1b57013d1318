// How far a run's judges agree (judge panels and repeated gradings): per criterion, Krippendorff's α with its 95% CI,
// the recordings it rests on, and whether it is unreliable (its failures advisory unless judge.strict).
import type { CriterionAgreement, RunOverview } from "openeval/viewer-api";
import { Dash } from "../components/common.tsx";

export function JudgeAgreement({ overview }: { overview: RunOverview }) {
  const entries = overview.agreement ?? [];
  if (entries.length === 0) return null;
  const effect = overview.verdict?.agreement;
  return (
    <section aria-label="judge agreement">
      <h3>Judge agreement (Krippendorff's α)</h3>
      {effect && effect.unreliable.length > 0 ? (
        <p className="notice" data-testid="agreement-effect">
          {effect.strict
            ? `Unreliable criteria (${effect.unreliable.join(", ")}) block like any other: judge.strict is on.`
            : `Unreliable criteria (${effect.unreliable.join(", ")}) are advisory: that changed ${effect.changed.gates} gate decision(s), ${effect.changed.cells} criterion cell(s) and ${effect.changed.regressions} regression(s) from fail to advisory.`}
        </p>
      ) : null}
      <table className="table" data-testid="judge-agreement">
        <thead>
          <tr>
            <th>Eval</th>
            <th>Criterion</th>
            <th className="number">α</th>
            <th className="number">95% CI</th>
            <th className="number">Recordings</th>
            <th>Level</th>
            <th>Judges</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr
              key={`${entry.evalId}\u0000${entry.criterionId}`}
              data-criterion={`${entry.evalId}/${entry.criterionId}`}
              data-unreliable={entry.unreliable}
            >
              <td>{entry.evalId}</td>
              <td className="mono">{entry.criterionId}</td>
              <td className="number">{formatAlpha(entry.alpha)}</td>
              <td className="number">
                {entry.interval ? (
                  `${formatAlpha(entry.interval.lower)} – ${formatAlpha(entry.interval.upper)}`
                ) : (
                  <Dash />
                )}
              </td>
              <td className="number">{entry.units}</td>
              <td>{entry.level}</td>
              <td>{entry.judges.join(", ")}</td>
              <td>
                <UnreliableBadge entry={entry} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** "unreliable" in the warning tone, or "reliable"; its title says why. */
export function UnreliableBadge({ entry }: { entry: CriterionAgreement }) {
  if (!entry.unreliable) return <span className="badge tone-muted">reliable</span>;
  return (
    <span
      className="badge tone-warn"
      data-testid="unreliable"
      title={`Its judges agree too little (α ${formatAlpha(entry.alpha)} over ${entry.units} recordings): its failures are advisory unless judge.strict`}
    >
      unreliable
    </span>
  );
}

export function formatAlpha(value: number | null): string {
  return value === null ? "—" : value.toFixed(2);
}
