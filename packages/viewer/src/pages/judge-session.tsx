// The rubric judge's own OpenCode session on its judge-run page, shown as a candidate's transcript is — what it read,
// each submission it made and why a rejected one was rejected, its final answer — with the session's metrics.
import type { JudgeRunDetail, JudgeSessionView } from "openeval/viewer-api";
import { Section } from "../components/common.tsx";
import { formatCost, formatDuration, formatNumber } from "../format.ts";
import type { Location } from "../route.ts";
import { MetricsView } from "./metrics-view.tsx";
import { judgeSessionTranscript, Transcript } from "./transcript.tsx";

export function JudgeSessionSection({
  detail,
  session,
  location,
}: {
  detail: JudgeRunDetail;
  session: JudgeSessionView;
  location: Location;
}) {
  const { metrics } = detail.judgeRun;
  // A panel's page shows the session in the judge run's own rubric/ folder: the first judgment graded by it.
  const judge = detail.panel.find((judgment) => judgment.gradedBy === detail.judgeRun.id);
  return (
    <>
      <Section
        title={judge ? `Judge session of ${judge.model}` : "Judge session"}
        id="judge-session"
        actions={metrics ? <SessionSummary metrics={metrics} /> : null}
      >
        <Transcript source={judgeSessionTranscript(detail.judgeRun.id, session)} location={location} />
      </Section>
      <Section title="Judge metrics" id="judge-metrics">
        <MetricsView
          metrics={metrics ?? null}
          focus={null}
          none="No metrics were recorded for this judge session: its database could not be read, or an older openeval judged it."
        />
      </Section>
    </>
  );
}

/** Requests, tokens, cost and model-active time in one line beside the title. */
function SessionSummary({ metrics }: { metrics: NonNullable<JudgeRunDetail["judgeRun"]["metrics"]> }) {
  const requests = metrics.requests;
  return (
    <span className="muted small" data-testid="judge-session-summary">
      {requests ? `${formatNumber(requests.started)} requests (${formatNumber(requests.failed)} failed) · ` : ""}
      {formatNumber(metrics.tokens.input)} in / {formatNumber(metrics.tokens.output)} out tokens ·{" "}
      {formatCost(metrics.cost.usd)} · model active {formatDuration(metrics.timing.modelActiveMs)}
    </span>
  );
}
