// One eval run: what it was (slot, state, timing, cost), how it was judged (with its earlyStop checks), and its
// evidence — the transcript, the workspace diff and files, metrics, native events and process logs — with what the
// integrity check found in it. `tab` and `focus` come from the URL.
import type { EvalRunDetail } from "openeval/viewer-api";
import {
  Await,
  ControlBadge,
  Credit,
  Dash,
  Empty,
  ErrorBox,
  Section,
  StateBadge,
  Tabs,
  UnsandboxedBadge,
} from "../components/common.tsx";
import { IntegrityFlagBadge } from "../components/integrity-flag.tsx";
import { JudgeFailure } from "../components/judge-failure.tsx";
import { formatCost, formatDate, formatDuration, formatUSD, shortId } from "../format.ts";
import { useApi, useLiveVersion, useLoad } from "../hooks.tsx";
import { href, withQuery, type Location } from "../route.ts";
import { DiffView } from "./diff-view.tsx";
import { EventsView } from "./events-view.tsx";
import { FilesView, LogsView } from "./files-view.tsx";
import { IntegrityPanel, RefusedConnections } from "./integrity-panel.tsx";
import { MetricsView } from "./metrics-view.tsx";
import { evalRunTranscript, Transcript } from "./transcript.tsx";

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
          {/* A run an earlyStop check stopped did not fail: its "error" says why it ended. */}
          {data.evalRun.error ? (
            <div className={data.evalRun.state === "stopped" ? "notice" : "error-box"}>{data.evalRun.error}</div>
          ) : null}
          {data.evidenceError ? <ErrorBox error={new Error(data.evidenceError)} /> : null}
          {data.findings.map((finding) => (
            <div key={finding} className="notice" data-testid="eval-run-finding">
              {finding}
            </div>
          ))}
          <LatestJudgeFailure run={run} detail={data} />
          {data.evalRun.earlyStop ? <EarlyChecks run={run} detail={data} /> : null}
          <IntegrityPanel run={run} detail={data} location={location} />
          <RefusedConnections detail={data} location={location} />
          <Tabs
            current={tab}
            tabs={[
              {
                id: "transcript",
                label: "Transcript",
                href: withQuery(location, { tab: "transcript", focus: null }),
                count: data.tools.length > 0 ? data.tools.length : null,
              },
              {
                id: "diff",
                label: "Diff",
                href: withQuery(location, { tab: "diff", focus: null }),
                count: data.diff.length,
              },
              {
                id: "files",
                label: "Files",
                href: withQuery(location, { tab: "files", focus: null }),
                count: data.files.length,
              },
              { id: "metrics", label: "Metrics", href: withQuery(location, { tab: "metrics", focus: null }) },
              { id: "events", label: "Events", href: withQuery(location, { tab: "events", focus: null }) },
              {
                id: "logs",
                label: "Logs",
                href: withQuery(location, { tab: "logs", focus: null }),
                count: data.logs.length,
              },
            ]}
          />
          {tab === "transcript" ? <Transcript source={evalRunTranscript(api, run, data)} location={location} /> : null}
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
          {evalRun.slot.evalId}{" "}
          {evalRun.slot.case === undefined ? null : (
            <span className="muted" data-testid="eval-run-case">
              case {evalRun.slot.case}{" "}
            </span>
          )}
          <span className="muted">×</span> <span data-testid="candidate">{detail.candidate}</span>{" "}
          <span className="muted">#{evalRun.slot.repetition}</span> {evalRun.control ? <ControlBadge /> : null}{" "}
          {!evalRun.control && evalRun.input.isolation !== "container" ? <UnsandboxedBadge /> : null}{" "}
          {detail.integrity?.flag ? <IntegrityFlagBadge flag={detail.integrity.flag} /> : null}
        </h1>
        <div className="muted">
          Eval run <code>{evalRun.id}</code>
          {evalRun.input.engine ? (
            <>
              {" "}
              on engine <code data-testid="eval-run-engine">{evalRun.input.engine}</code>
            </>
          ) : null}{" "}
          · started {formatDate(evalRun.startedAt)} · {formatDuration(evalRun.elapsedMs)} · cost{" "}
          <span data-testid="eval-run-cost">
            {evalRun.state === "running" ? "—" : formatCost(evalRun.metrics?.cost.usd)}
          </span>{" "}
          ·{" "}
          <span data-testid="eval-run-state">
            <StateBadge state={evalRun.state} label={detail.outcome} />
          </span>
          {evalRun.error ? (
            <div className="small tone-text-bad" data-testid="eval-run-error">
              {evalRun.error}
            </div>
          ) : null}
        </div>
      </div>
      <div className="judgments" data-testid="judgments">
        {judgeRuns.length === 0 ? <span className="muted">Not judged yet</span> : null}
        {judgeRuns.map((judgeRun) => (
          <a
            key={judgeRun.id}
            className={`judgment-card ${judgeRun.active ? "active" : ""}`}
            href={href({ page: "judge-run", run, judgeRun: judgeRun.id })}
            data-judge-run={judgeRun.id}
          >
            <div className="judgment-title">
              Judgment <span className="mono">{shortId(judgeRun.id)}</span>
            </div>
            <div>
              <Credit value={judgeRun.value} /> <StateBadge state={judgeRun.state} />{" "}
              <span className="muted small">{judgeRun.kind}</span>
            </div>
            <div className="muted small">
              {judgeRun.active ? "counts for the score" : "superseded"}
              {judgeRun.decidedEarly !== null ? ` · decided early by check ${judgeRun.decidedEarly}` : ""}
            </div>
          </a>
        ))}
      </div>
    </div>
  );
}

/** When the latest judgment of the eval run failed, what that means and how to judge it again. */
function LatestJudgeFailure({ run, detail }: { run: string; detail: EvalRunDetail }) {
  const latest = detail.judgeRuns.reduce<EvalRunDetail["judgeRuns"][number] | null>(
    (last, judgeRun) => (last === null || judgeRun.startedAt >= last.startedAt ? judgeRun : last),
    null,
  );
  return latest ? (
    <JudgeFailure run={run} evalRunId={detail.evalRun.id} state={latest.state} error={latest.error} />
  ) : null;
}

/** The earlyStop checks made while the candidate ran; a decisive check links to the judgment it made. */
function EarlyChecks({ run, detail }: { run: string; detail: EvalRunDetail }) {
  const checks = detail.evalRun.earlyStop?.checks ?? [];
  const known = checks.filter((check) => check.costUSD !== null);
  const decided = checks.find((check) => check.outcome === "decided");
  const summary = [
    `${checks.length} ${checks.length === 1 ? "check" : "checks"}`,
    known.length > 0
      ? `${formatUSD(known.reduce((sum, check) => sum + check.costUSD!, 0))}${known.length < checks.length ? " or more" : ""}`
      : null,
    decided
      ? `check ${decided.check} decided every criterion: the candidate was stopped`
      : detail.evalRun.state === "running"
        ? "checking while the candidate runs"
        : "no check decided: the run is judged as it ended",
  ];
  return (
    <Section
      title="earlyStop checks"
      actions={<span className="muted small">{summary.filter((part) => part !== null).join(" · ")}</span>}
    >
      {checks.length === 0 ? (
        <Empty>The run was monitored, but no check ran (it ended before the first one was due).</Empty>
      ) : (
        <table className="table early-checks" data-testid="early-checks">
          <thead>
            <tr>
              <th>Check</th>
              <th>Outcome</th>
              <th>Started</th>
              <th className="number">Time</th>
              <th className="number">Cost</th>
              <th>Reason</th>
            </tr>
          </thead>
          <tbody>
            {checks.map((check) => {
              const judgeRun = detail.judgeRuns.find((candidate) => candidate.decidedEarly === check.check);
              return (
                <tr key={check.check} data-testid="early-check" data-check={check.check} data-outcome={check.outcome}>
                  <td className="nowrap">
                    #{check.check}
                    {judgeRun ? (
                      <>
                        {" "}
                        ·{" "}
                        <a href={href({ page: "judge-run", run, judgeRun: judgeRun.id })} data-judge-run={judgeRun.id}>
                          judgment {shortId(judgeRun.id)}
                        </a>
                      </>
                    ) : null}
                  </td>
                  <td>
                    <StateBadge state={check.outcome} />
                  </td>
                  <td className="nowrap">{formatDate(check.startedAt)}</td>
                  <td className="number">{formatDuration(check.elapsedMs)}</td>
                  <td className="number">{formatUSD(check.costUSD)}</td>
                  <td className="prose small">
                    {check.reason ??
                      (check.outcome === "decided" ? <span className="muted">every criterion decided</span> : <Dash />)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </Section>
  );
}
