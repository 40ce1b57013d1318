// One eval run: what it was (slot, state, timing, cost), how it was judged, and its evidence — the transcript,
// the workspace diff and files, metrics, native events and process logs. `tab` and `focus` come from the URL.
import type { EvalRunDetail } from "../../../openeval/src/view/api-types.ts";
import { Await, ControlBadge, Credit, ErrorBox, StateBadge, Tabs } from "../components/common.tsx";
import { formatDate, formatDuration, formatUSD, shortId } from "../format.ts";
import { useApi, useLiveVersion, useLoad } from "../hooks.tsx";
import { href, withQuery, type Location } from "../route.ts";
import { DiffView } from "./diff-view.tsx";
import { EventsView } from "./events-view.tsx";
import { FilesView, LogsView } from "./files-view.tsx";
import { MetricsView } from "./metrics-view.tsx";
import { Transcript } from "./transcript.tsx";

const TABS = ["transcript", "diff", "files", "metrics", "events", "logs"] as const;

export function EvalRunPage({ run, evalRun, location }: { run: string; evalRun: string; location: Location }) {
  const api = useApi();
  const version = useLiveVersion();
  const detail = useLoad(() => api.evalRun(run, evalRun), [run, evalRun], version);
  const requested = location.query.get("tab");
  const tab = TABS.find((candidate) => candidate === requested) ?? "transcript";
  return (
    <Await state={detail}>
      {(data) => (
        <>
          <EvalRunHeader run={run} detail={data} />
          {data.evalRun.error ? <div className="error-box">{data.evalRun.error}</div> : null}
          {data.evidenceError ? <ErrorBox error={new Error(data.evidenceError)} /> : null}
          <Tabs
            current={tab}
            tabs={[
              { id: "transcript", label: "Transcript", href: withQuery(location, { tab: "transcript", focus: null }), count: data.tools.length > 0 ? data.tools.length : null },
              { id: "diff", label: "Diff", href: withQuery(location, { tab: "diff", focus: null }), count: data.diff.length },
              { id: "files", label: "Files", href: withQuery(location, { tab: "files", focus: null }), count: data.files.length },
              { id: "metrics", label: "Metrics", href: withQuery(location, { tab: "metrics", focus: null }) },
              { id: "events", label: "Events", href: withQuery(location, { tab: "events", focus: null }) },
              { id: "logs", label: "Logs", href: withQuery(location, { tab: "logs", focus: null }), count: data.logs.length },
            ]}
          />
          {tab === "transcript" ? <Transcript run={run} detail={data} location={location} /> : null}
          {tab === "diff" ? <DiffView diff={data.diff} focus={location.query.get("path")} /> : null}
          {tab === "files" ? <FilesView run={run} detail={data} location={location} /> : null}
          {tab === "metrics" ? <MetricsView metrics={data.metrics} focus={location.query.get("focus")} /> : null}
          {tab === "events" ? <EventsView run={run} evalRun={evalRun} focus={location.query.get("focus")} /> : null}
          {tab === "logs" ? <LogsView run={run} detail={data} location={location} /> : null}
        </>
      )}
    </Await>
  );
}

function EvalRunHeader({ run, detail }: { run: string; detail: EvalRunDetail }) {
  const { evalRun, judgeRuns } = detail;
  return (
    <div className="page-title">
      <div>
        <h1>
          {evalRun.slot.evalId} <span className="muted">×</span> {evalRun.slot.model} <span className="muted">#{evalRun.slot.repetition}</span> {evalRun.control ? <ControlBadge /> : null}
        </h1>
        <div className="muted">
          Eval run <code>{evalRun.id}</code> · started {formatDate(evalRun.startedAt)} · {formatDuration(evalRun.elapsedMs)} · {formatUSD(evalRun.metrics?.cost.usd)}{" "}
          · <StateBadge state={evalRun.state} />
          {evalRun.infrastructureError ? <StateBadge state="failed" label="infrastructure error" /> : null}
        </div>
      </div>
      <div className="judgments" data-testid="judgments">
        {judgeRuns.length === 0 ? <span className="muted">Not judged yet</span> : null}
        {judgeRuns.map((judgeRun) => (
          <a key={judgeRun.id} className={`judgment-card ${judgeRun.active ? "active" : ""}`} href={href({ page: "judge-run", run, judgeRun: judgeRun.id })} data-judge-run={judgeRun.id}>
            <div className="judgment-title">
              Judgment <span className="mono">{shortId(judgeRun.id)}</span>
            </div>
            <div>
              <Credit value={judgeRun.value} /> <StateBadge state={judgeRun.state} /> <span className="muted small">{judgeRun.kind}</span>
            </div>
            <div className="muted small">{judgeRun.active ? "counts for the score" : "superseded"}</div>
          </a>
        ))}
      </div>
    </div>
  );
}
