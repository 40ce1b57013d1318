// A panel's judgments on the judge-run page: each judge model's (and each repeated grading's) own scores, reasons and
// citations beside the combination the criteria above show, which judge run made each one, and the criteria whose
// judges agree too little across the run (unreliable).
import type { JudgeRunDetail, PanelJudgmentView } from "openeval/viewer-api";
import { Section, StateBadge } from "../components/common.tsx";
import { formatCost, shortId } from "../format.ts";
import { useApi, useLiveVersion, useLoad } from "../hooks.tsx";
import { href } from "../route.ts";
import { CriterionCard } from "./criterion-card.tsx";
import { UnreliableBadge } from "./judge-agreement.tsx";

export function JudgePanelSection({ run, detail }: { run: string; detail: JudgeRunDetail }) {
  const api = useApi();
  const version = useLiveVersion();
  const overview = useLoad(() => api.overview(run), [run], version);
  const { judgeRun, panel } = detail;
  if (panel.length === 0) return null;
  const agreement = (overview.data?.agreement ?? []).filter((entry) => entry.evalId === judgeRun.slot.evalId);
  return (
    <Section
      title="Judge panel"
      actions={
        <span className="muted small">
          {panel.length} judgments combined by {judgeRun.combine ?? "mean"}
        </span>
      }
    >
      {agreement.some((entry) => entry.unreliable) ? (
        <p className="notice" data-testid="panel-unreliable">
          Across the run, the judges agree too little on{" "}
          {agreement
            .filter((entry) => entry.unreliable)
            .map((entry) => entry.criterionId)
            .join(", ")}
          : their failures are advisory unless judge.strict.{" "}
          {agreement
            .filter((entry) => entry.unreliable)
            .map((entry) => (
              <UnreliableBadge key={entry.criterionId} entry={entry} />
            ))}
        </p>
      ) : null}
      <div className="panel-judgments" data-testid="judge-panel">
        {panel.map((judgment) => (
          <Judgment
            key={`${judgment.model}#${judgment.repeat}`}
            run={run}
            judgeRunId={judgeRun.id}
            evalRunId={judgeRun.evalRunId}
            judgment={judgment}
          />
        ))}
      </div>
    </Section>
  );
}

function Judgment({
  run,
  judgeRunId,
  evalRunId,
  judgment,
}: {
  run: string;
  judgeRunId: string;
  evalRunId: string;
  judgment: PanelJudgmentView;
}) {
  const reused = judgment.gradedBy !== judgeRunId;
  return (
    <article className="panel-judgment" data-judge={judgment.model} data-repeat={judgment.repeat}>
      <header className="criterion-header">
        <span className="mono">{judgment.model}</span>
        {judgment.repeat > 0 ? <span className="badge tone-muted">repeat {judgment.repeat}</span> : null}
        <StateBadge state={judgment.state} />
        <span className="spacer" />
        <span className="muted small">{formatCost(judgment.costUSD)}</span>
      </header>
      <p className="muted small">
        {reused ? (
          <>
            Reused from judge run{" "}
            <a href={href({ page: "judge-run", run, judgeRun: judgment.gradedBy })} className="mono">
              {shortId(judgment.gradedBy)}
            </a>{" "}
            (its inputs are unchanged)
          </>
        ) : (
          "Graded by this judge run"
        )}{" "}
        · <span className="mono">{judgment.directory}</span>
      </p>
      {judgment.error ? <div className="error-box">{judgment.error}</div> : null}
      <div className="criteria">
        {judgment.criteria.map((criterion) => (
          <CriterionCard key={criterion.id} run={run} evalRunId={evalRunId} criterion={criterion} />
        ))}
      </div>
    </article>
  );
}
